import numpy as np


def softmax(z, axis):
    """Skorları `axis` boyunca toplamı 1 olan ağırlıklara çevirir (maksimumu çıkarır, taşmaz)."""
    kaydirilmis = z - np.max(z, axis=axis, keepdims=True)
    agirliklar = np.exp(kaydirilmis)
    return agirliklar / np.sum(agirliklar, axis=axis, keepdims=True)


# Üç belirteç, her biri dört öznitelikli: her satırda bir belirteç.
X = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0]])
# İzdüşümler, burada sanki önceden öğrenilmişler gibi sabit.
W_q = np.eye(4)[:, :2]  # bir sorgu 0. ve 1. öznitelikleri okur
W_k = np.eye(4)[:, 1:3]  # bir anahtar 1. ve 2. öznitelikleri okur
W_v = np.eye(4)  # bir değer dört özniteliğin hepsini olduğu gibi geçirir

Q = X @ W_q  # (n, d_k): her belirtecin aradığı şey
K = X @ W_k  # (n, d_k): her belirtecin kendini nasıl tanıttığı (onu bulduran şey)
V = X @ W_v  # (n, d_v): her belirtecin aktardığı şey
scores = Q @ K.T  # (n, n): i. sorgu ile j. anahtar
A = softmax(scores, axis=1)  # her satır: bir belirtecin tüm belirteçlere verdiği ağırlıklar
Y = A @ V  # (n, d_v): her belirtecin değerlerden oluşan karışımı

print(Q.shape, A.shape, Y.shape)
print(np.round(A[0], 3))
