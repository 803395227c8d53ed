import numpy as np


def softmax(z, axis):
    """Skorları `axis` boyunca toplamı 1 olan ağırlıklara çevirir (en büyük değer çıkarılır,
    böylece taşma olmaz)."""
    kaydirilmis = z - np.max(z, axis=axis, keepdims=True)
    agirliklar = np.exp(kaydirilmis)
    return agirliklar / np.sum(agirliklar, axis=axis, keepdims=True)


# Yazılmakta olan cümlenin iki belirteci (bunlar sorar), okunan cümlenin üç belirteci (bunlar
# cevaplar). İkisinde de belirteç başına d_model = 4 öznitelik var.
X_dec = np.array([[2.0, 0.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0]])
X_enc = np.array([[2.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0]])
# Öğrenilmiş gibi sabit izdüşümler: sorgular ve anahtarlar dört özniteliğin hepsini tutar (d_k = 4),
# değerler (x0 + x2, x1 + x2) olur: 0. ve 1. öznitelik, her birine 2. öznitelik eklenmiş (d_v = 2).
W_q = np.eye(4)
W_k = np.eye(4)
W_v = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]])

# buraya yaz: her ____ yerine kendi kodunu koy.
Q = ____  # (n_q, d_k): yazılmakta olan belirteç başına bir sorgu
K = ____  # (n_kv, d_k): okunan belirteç başına bir anahtar
V = ____  # (n_kv, d_v): okunan belirteç başına bir değer
d_k = K.shape[1]
scores = ____  # (n_q, n_kv): skorlar; her sorgu her anahtara karşı, ölçekli
A = ____  # her sorgunun kaynak belirteçler üzerindeki ağırlıkları, toplamı 1
Y = ____  # (n_q, d_v): sorgu başına bir çıktı

print(A.shape, Y.shape)
print(np.round(A, 3))
print(np.round(Y, 3))
