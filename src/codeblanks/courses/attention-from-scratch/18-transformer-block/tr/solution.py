import numpy as np


def softmax(z, axis):
    """Skorları `axis` boyunca toplamı 1 olan ağırlıklara çevirir (en büyük değer çıkarılır,
    böylece taşma olmaz)."""
    kaydirilmis = z - np.max(z, axis=axis, keepdims=True)
    agirliklar = np.exp(kaydirilmis)
    return agirliklar / np.sum(agirliklar, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-5):
    """Her belirtecin öznitelikleri ortalaması 0, varyansı 1 olacak biçimde, sonra gamma ve
    beta ile yeniden ölçeklenir."""
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


def causal_self_attention(x, W_q, W_k, W_v, W_o, n_heads):
    """Hiçbir belirtecin kendinden sonraki belirteçlere bakmadığı çok başlı dikkat: (n, d_model) -> (n, d_model)."""
    n, d_model = x.shape
    d_head = d_model // n_heads
    Qh = (x @ W_q).reshape(n, n_heads, d_head).transpose(1, 0, 2)
    Kh = (x @ W_k).reshape(n, n_heads, d_head).transpose(1, 0, 2)
    Vh = (x @ W_v).reshape(n, n_heads, d_head).transpose(1, 0, 2)
    scores = Qh @ Kh.transpose(0, 2, 1) / np.sqrt(d_head)
    mask = np.triu(np.ones((n, n), dtype=bool), k=1)  # köşegenin üstünde True: sonraki belirteçler
    A = softmax(np.where(mask, -np.inf, scores), axis=-1)
    return (A @ Vh).transpose(1, 0, 2).reshape(n, d_model) @ W_o


def feed_forward(x, W1, b1, W2, b2):
    """Konum bazında çalışan ağ: genişlet, ReLU uygula, eski genişliğe yansıt."""
    return np.maximum(x @ W1 + b1, 0.0) @ W2 + b2


# Genişliği d_model = 4 olan üç belirteç, iki baş, ileri beslemeli genişlik d_ff = 8.
rng = np.random.default_rng(18)
X = np.round(rng.normal(size=(3, 4)), 1)
n_heads = 2
W_q = np.round(rng.normal(scale=0.5, size=(4, 4)), 1)
W_k = np.round(rng.normal(scale=0.5, size=(4, 4)), 1)
W_v = np.round(rng.normal(scale=0.5, size=(4, 4)), 1)
W_o = np.round(rng.normal(scale=0.5, size=(4, 4)), 1)
W1 = np.round(rng.normal(scale=0.5, size=(4, 8)), 1)
b1 = np.zeros(8)
W2 = np.round(rng.normal(scale=0.5, size=(8, 4)), 1)
b2 = np.zeros(4)
# Her alt katmanın kendi katman normalleştirmesi var.
gamma1 = np.ones(4)
beta1 = np.zeros(4)
gamma2 = np.array([1.0, 0.5, 2.0, 1.0])
beta2 = np.array([0.0, 0.1, 0.0, -0.1])

H = X + causal_self_attention(layer_norm(X, gamma1, beta1), W_q, W_k, W_v, W_o, n_heads)
Y = H + feed_forward(layer_norm(H, gamma2, beta2), W1, b1, W2, b2)

print(X.shape, H.shape, Y.shape)
print(np.round(Y, 3))
