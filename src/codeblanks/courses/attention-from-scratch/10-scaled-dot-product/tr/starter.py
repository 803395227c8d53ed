import numpy as np


def softmax(z, axis):
    """Skorları `axis` boyunca toplamı 1 olan ağırlıklara çevirir (max çıkarılır, taşma olmaz)."""
    kaydirilmis = z - np.max(z, axis=axis, keepdims=True)
    agirliklar = np.exp(kaydirilmis)
    return agirliklar / np.sum(agirliklar, axis=axis, keepdims=True)


# Genişliği d_k = 4 olan iki sorgu ve üç anahtar; her anahtar için genişliği 2 olan bir değer.
Q = np.array([[1.0, 2.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0]])
K = np.array([[1.0, 1.0, 0.0, 0.0], [0.0, 2.0, 1.0, 1.0], [2.0, 0.0, 0.0, 1.0]])
V = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])

# buraya yaz: her ____ boşluğunu doldur.
d_k = ____  # sorguların ve anahtarların ortak genişliği (bir diziden oku, 4 yazma)
scores = ____  # her sorgunun her anahtarla skoru, d_k'nin kareköküyle ölçeklenmiş
A = ____  # softmax: her sorgunun ağırlıklarının toplamı 1 olsun
out = ____  # her sorgu için değerlerin ağırlıklı karışımı

print(A.shape, out.shape)
print(np.round(A, 3))
print(np.round(out, 3))
