import numpy as np


def softmax(z, axis):
    """Skorları `axis` boyunca toplamı 1 olan ağırlıklara çevirir (en büyük değer çıkarılır,
    böylece taşma olmaz)."""
    kaydirilmis = z - np.max(z, axis=axis, keepdims=True)
    agirliklar = np.exp(kaydirilmis)
    return agirliklar / np.sum(agirliklar, axis=axis, keepdims=True)


def causal_attention(X, W_q, W_k, W_v):
    """Bütün dizi üzerinde tek seferde ölçekli tek başlı dikkat; her belirteç yalnızca kendini ve
    kendinden önceki belirteçleri görür: önbelleğin satır satır yeniden üretmesi gereken şey."""
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    scores = Q @ K.T / np.sqrt(K.shape[1])
    n = X.shape[0]
    mask = np.triu(np.ones((n, n), dtype=bool), k=1)  # köşegenin üstünde True: sonraki belirteçler
    return softmax(np.where(mask, -np.inf, scores), axis=1) @ V


# Dört belirteç birer birer gelir; her birinin dört özniteliği var.
X = np.array(
    [[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 2.0, 1.0]]
)
W_q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
W_k = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
W_v = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0]])
d_k = W_k.shape[1]

K_cache = np.zeros((0, d_k))  # henüz anahtar yok: 0 satır
V_cache = np.zeros((0, W_v.shape[1]))
outputs = []
for t in range(X.shape[0]):
    x = X[t : t + 1]  # (1, d_model): yalnızca yeni gelmiş belirteç
    # buraya yaz: dört ____ yerine kendi kodunu koy.
    q = ____  # (1, d_k): sorgusu
    K_cache = ____  # (t + 1, d_k): gelen tüm anahtarlar, en yenisi sonda
    V_cache = ____  # (t + 1, d_v): gelen tüm değerler
    y = ____  # (1, d_v): çıktısı; önbellekteki her anahtara ve değere dikkat eder
    outputs.append(y)

Y = np.vstack(outputs)  # (n, d_v): adım başına bir çıktı
Y_full = causal_attention(X, W_q, W_k, W_v)

print(Y.shape, K_cache.shape, V_cache.shape)
print(np.round(Y[-1], 3))
print(np.allclose(Y, Y_full))
