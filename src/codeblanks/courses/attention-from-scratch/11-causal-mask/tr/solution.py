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

n = Q.shape[0]  # belirteç sayısı
mask = np.triu(np.ones((n, n), dtype=bool), k=1)  # anahtarın sorgudan sonra geldiği yerde True
scores = Q @ K.T / np.sqrt(K.shape[1])
scores = np.where(mask, -np.inf, scores)  # sonraki bir belirtecin skoru eksi sonsuz olur
A = softmax(scores, axis=1)  # exp(-inf) = 0: geleceğe hiç ağırlık verilmez
Y = A @ V

print(np.round(A, 3))
print(np.round(Y, 3))
