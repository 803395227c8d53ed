lines = ["Guests", "Ada", "Ben", "Cem"]

kayitlar = iter(lines)
# Başlığı yineleyiciden al; hiç yoksa "(no title)".
baslik = ____
print(baslik.upper())

sayi = 0
# Aynı yineleyiciyle devam et: başlıktan sonraki her satır.
for ad in ____:
    sayi = sayi + 1
    print(sayi, ad)
print(sayi, "entries")
