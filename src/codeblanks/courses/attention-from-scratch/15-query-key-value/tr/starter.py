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

# buraya yaz: Q, K ve V'yi, dikkat ağırlıkları A'yı (her sorgu her anahtarla
# karşılaştırılır, ardından her satır boyunca softmax alınır) ve Y'yi hesapla.


print(Q.shape, A.shape, Y.shape)
print(np.round(A[0], 3))
