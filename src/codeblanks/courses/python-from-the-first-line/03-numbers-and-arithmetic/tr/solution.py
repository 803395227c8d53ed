minutes = 135

# `minutes` içinde kaç tam saat var, geriye kaç dakika kalıyor?
saat = minutes // 60
kalan = minutes % 60
print(saat, kalan)

# Aynı süre saat olarak, ondalıklı bir sayıyla.
print(minutes / 60)
