import numpy as np


def softmax(z, axis):
    """Skorları `axis` boyunca toplamı 1 olan ağırlıklara çevirir (maksimumla kaydırır: taşma yok)."""
    kaydirilmis = z - np.max(z, axis=axis, keepdims=True)
    agirliklar = np.exp(kaydirilmis)
    return agirliklar / np.sum(agirliklar, axis=axis, keepdims=True)


# Skorlar: i. satır, i. belirtecin her belirteci ne kadar güçlü istediği (her sütun bir belirteç).
S = np.array([[2.0, 1.0, 0.0], [0.0, 0.0, 0.0], [-1.0, 3.0, -1.0]])
# Değerler: j. satır, j. belirtece dikkat edildiğinde onun aktardığı şeydir.
V = np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 1.0]])

A = softmax(S, axis=1)  # dikkat ağırlıkları: her satır pozitif ve toplamı 1
Y = A @ V  # i. satır: i. belirtecin değer satırlarından ağırlıklı karışımı

print(np.round(A, 3))
print(np.round(Y, 3))
