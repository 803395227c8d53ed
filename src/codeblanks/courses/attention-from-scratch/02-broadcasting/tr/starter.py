import numpy as np

# Dört belirteç, her birinde üç öznitelik: her satırda bir belirteç.
X = np.array([[2.0, 4.0, 6.0], [1.0, 0.0, 2.0], [3.0, 3.0, 3.0], [-1.0, 5.0, 2.0]])
# Her öznitelik için bir sayı; her belirtece eklenecek.
b = np.array([10.0, 20.0, 30.0])

# buraya yaz: her ____ boşluğunu doldur.
Y = ____  # her belirtece eklenmiş b
m = ____  # her belirtecin özniteliklerinin ortalaması, (4, 1) şeklinde bir sütun olarak
C = ____  # her belirteçten kendi ortalaması çıkarılmış

print(np.round(Y, 3))
print(m.shape)
print(np.round(C, 3))
