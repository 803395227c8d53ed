import numpy as np


def softmax(z, axis):
    """Skorları `axis` boyunca toplamı 1 olan ağırlıklara çevirir (max çıkarılır, taşma olmaz)."""
    kaydirilmis = z - np.max(z, axis=axis, keepdims=True)
    agirliklar = np.exp(kaydirilmis)
    return agirliklar / np.sum(agirliklar, axis=axis, keepdims=True)


# Dört belirtece kadar doldurulmuş iki dizilik bir yığın, şekil (yığın, belirteç, genişlik). İlk
# dizide 4 gerçek belirteç var, ikincide yalnızca 2: son iki satırı dolgu ve dolgu belirteci ne
# tutuyorsa onu tutuyor. Her belirteç, dizisindeki önceki ve sonraki her gerçek belirtece bakabilir.
Q = np.array([
    [[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 0.0], [1.0, 1.0, 0.0, 1.0], [0.0, 0.0, 2.0, 1.0]],
    [[2.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0], [0.0, 1.0, 0.0, 1.0]],
])
K = np.array([
    [[1.0, 1.0, 0.0, 0.0], [0.0, 1.0, 1.0, 0.0], [2.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]],
    [[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 2.0], [1.0, 1.0, 1.0, 1.0], [2.0, 0.0, 2.0, 0.0]],
])
V = np.array([
    [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 0.0]],
    [[0.0, 2.0], [2.0, 0.0], [5.0, 5.0], [5.0, 5.0]],
])
lengths = np.array([4, 2])  # her dizinin kaç belirteci gerçek

B, L, d_k = Q.shape
scores = Q @ K.swapaxes(1, 2) / np.sqrt(d_k)  # (B, L, L), yığınlar dersindeki gibi

pad = np.arange(L)[None, :] >= lengths[:, None]  # (B, L): b dizisinin j. belirteci dolguysa True
mask = pad[:, None, :]  # (B, 1, L): her sorgu satırında aynı anahtarlar engellenir
scores = np.where(mask, np.finfo(scores.dtype).min, scores)  # engellenen: en küçük sayı
A = softmax(scores, axis=-1)
Y = A @ V  # (B, L, d_v)

print(pad.astype(int))
print(np.round(A[1], 3))
print(np.round(Y[1], 3))
