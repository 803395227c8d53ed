import numpy as np


def softmax(z, axis):
    """Skorları `axis` boyunca toplamı 1 olan ağırlıklara çevirir (maksimumu çıkarır, taşmaz)."""
    kaydirilmis = z - np.max(z, axis=axis, keepdims=True)
    agirliklar = np.exp(kaydirilmis)
    return agirliklar / np.sum(agirliklar, axis=axis, keepdims=True)


# Üç belirteç, her biri d_model = 4 öznitelikli; 2 genişliğinde iki başa bölünür.
X = np.array([[1.0, 0.0, 2.0, 0.0], [0.0, 1.0, 0.0, 2.0], [1.0, 1.0, 0.0, 0.0]])
n_heads = 2
# İzdüşümler, öğrenilmiş gibi sabit. W_o iki yarının yerini değiştirir: etkisi görülsün diye.
W_q = np.eye(4)
W_k = np.eye(4)
W_v = np.eye(4)
W_o = np.array(
    [[0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]
)

n, d_model = X.shape
# buraya yaz: her ____ yerine gereken kodu koy.
d_head = ____  # bir başın genişliği
Q = X @ W_q
K = X @ W_k
V = X @ W_v


def split_heads(M):
    """(n, d_model) -> (n_heads, n, d_head): h. baş, h*d_head ile (h+1)*d_head arası sütunlar."""
    return ____


Qh = split_heads(Q)  # (n_heads, n, d_head)
Kh = split_heads(K)
Vh = split_heads(V)
scores = ____  # (n_heads, n, n): her başta her sorgu her anahtarla karşılaştırılır, ölçeklenir
A = ____  # her baş, her sorgu: anahtarlar üzerinde toplamı 1 olan ağırlıklar
heads = A @ Vh  # (n_heads, n, d_head)
merged = ____  # (n, d_model): başlar, belirteç belirteç, yeniden yan yana
Y = ____  # (n, d_model): çıktı izdüşümü

print(A.shape, Y.shape)
print(np.round(A, 3))
print(np.round(Y, 3))
