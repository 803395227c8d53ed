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

# buraya yaz: her ____ boşluğunu doldur.
pad = ____  # (B, L): b dizisinin j. belirteci dolguysa True (konumları uzunluklarla karşılaştır)
mask = ____  # pad, her satırda anahtarları (skorların son ekseni) engelleyecek biçimde
scores = ____  # aynı skorlar; maskenin True olduğu her yerde np.finfo(scores.dtype).min
A = ____  # anahtarlar üzerinde softmax
Y = ____  # (B, L, d_v)

print(pad.astype(int))
print(np.round(A[1], 3))
print(np.round(Y[1], 3))
