import numpy as np


def softmax(z, axis):
    """Skorları `axis` boyunca toplamı 1 olan ağırlıklara çevirir (max çıkarılır, taşma olmaz)."""
    kaydirilmis = z - np.max(z, axis=axis, keepdims=True)
    agirliklar = np.exp(kaydirilmis)
    return agirliklar / np.sum(agirliklar, axis=axis, keepdims=True)


# Tek bir dizinin dört belirteci, sırasıyla: her biri için bir sorgu, bir anahtar ve bir değer.
Q = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0], [2.0, 0.0]])
K = np.array([[2.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 2.0]])
V = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 2.0]])

# buraya yaz: her ____ boşluğunu doldur.
n = ____  # belirteç sayısı (bir NumPy dizisinden oku)
mask = ____  # (n, n) boolean: anahtarın sorgudan sonra geldiği yerlerde True
scores = ____  # her sorgunun her anahtarla ölçekli skoru; mask True olan her yerde -inf
A = ____  # softmax: her sorgunun ağırlıklarının toplamı 1 olsun
Y = ____  # her sorgu için değerlerin karışımı

print(np.round(A, 3))
print(np.round(Y, 3))
