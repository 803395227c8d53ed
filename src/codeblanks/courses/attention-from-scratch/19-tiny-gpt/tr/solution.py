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


def block(x, p, n_heads):
    """p sözlüğündeki ağırlıklarla tek bir ön-norm dönüştürücü bloğu."""
    attn = causal_self_attention(
        layer_norm(x, p["gamma1"], p["beta1"]), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads
    )
    h = x + attn
    return h + feed_forward(layer_norm(h, p["gamma2"], p["beta2"]), p["W1"], p["b1"], p["W2"], p["b2"])


def random_block(seed, d_model, d_ff):
    """Tek bir blok için eğitilmemiş ağırlıklar; kolay okunsun diye bir ondalığa yuvarlanmış."""
    rng = np.random.default_rng(seed)
    p = {}
    for name in ["W_q", "W_k", "W_v", "W_o"]:
        p[name] = np.round(rng.normal(scale=0.5, size=(d_model, d_model)), 1)
    p["W1"] = np.round(rng.normal(scale=0.5, size=(d_model, d_ff)), 1)
    p["b1"] = np.zeros(d_ff)
    p["W2"] = np.round(rng.normal(scale=0.5, size=(d_ff, d_model)), 1)
    p["b2"] = np.zeros(d_model)
    for k in ["1", "2"]:
        p["gamma" + k] = np.ones(d_model)
        p["beta" + k] = np.zeros(d_model)
    return p


# 8 sözcüklük bir dağarcık ve kimlikleriyle verilmiş 6 belirteçlik bir istem.
vocab = ["<s>", "the", "cat", "sat", "on", "mat", "dog", "ran"]
ids = np.array([0, 1, 2, 3, 4, 1])  # "<s> the cat sat on the"
# Modelin ağırlıkları (eğitilmemiş, bu yüzden tahminleri henüz bir anlam taşımaz; aritmetik ise
# gerçeğinin aynısı).
E = np.round(np.random.default_rng(19).normal(size=(8, 4)), 1)  # (vocab, d_model) belirteç gömmesi
P = np.round(np.random.default_rng(20).normal(scale=0.5, size=(8, 4)), 1)  # (n_ctx, d_model) konum gömmeleri
n_heads = 2
blocks = [random_block(1, 4, 16), random_block(2, 4, 16)]  # iki blok, d_ff = 16
gamma_f = np.ones(4)  # son katman normalleştirmesi
beta_f = np.zeros(4)

n = len(ids)
X = E[ids] + P[:n]  # (n, d_model): her belirtecin ne olduğu, artı nerede olduğu
R = X  # artık akışı
for p in blocks:
    R = block(R, p, n_heads)  # her blok akışı okur ve ona ekler
F = layer_norm(R, gamma_f, beta_f)  # son katman normalleştirmesi
logits = F @ E.T  # (n, vocab): her konum, her sözcüğün gömmesine karşı skorlanır
probs = softmax(logits, axis=-1)[-1]  # her konumun dağılımı; sonuncusunu tut: (vocab,)
next_id = int(np.argmax(probs))

print(X.shape, logits.shape, probs.shape)
print(np.round(probs, 3))
print(vocab[next_id])
