import numpy as np


def softmax(z, axis):
    """Skorları `axis` boyunca toplamı 1 olan ağırlıklara çevirir (maksimumla kaydırır: taşma yok)."""
    kaydirilmis = z - np.max(z, axis=axis, keepdims=True)
    agirliklar = np.exp(kaydirilmis)
    return agirliklar / np.sum(agirliklar, axis=axis, keepdims=True)


# İki belirtecin üç aday üzerindeki skorları: her belirteç için bir satır.
S = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 0.5]])
T = 0.5  # sıcaklık: 1'in altı ağırlıkları keskinleştirir, 1'in üstü düzleştirir

P = softmax(S / T, axis=1)  # her satır: o belirtecin T sıcaklığındaki ağırlıkları
pick = np.argmax(S, axis=1)  # her satır: en büyük skorunun indeksi

print(np.round(P, 3))
print(pick)
