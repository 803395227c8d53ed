import numpy as np


def softmax(z, axis):
    """Turn scores into weights that sum to 1 along `axis` (shifted by the max, so no overflow)."""
    shifted = z - np.max(z, axis=axis, keepdims=True)
    weights = np.exp(shifted)
    return weights / np.sum(weights, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-5):
    """Each token's features rescaled to mean 0 and variance 1, then by gamma and beta."""
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


def causal_self_attention(x, W_q, W_k, W_v, W_o, n_heads):
    """Multi-head attention in which no token looks at a later one: (n, d_model) -> (n, d_model)."""
    n, d_model = x.shape
    d_head = d_model // n_heads
    Qh = (x @ W_q).reshape(n, n_heads, d_head).transpose(1, 0, 2)
    Kh = (x @ W_k).reshape(n, n_heads, d_head).transpose(1, 0, 2)
    Vh = (x @ W_v).reshape(n, n_heads, d_head).transpose(1, 0, 2)
    scores = Qh @ Kh.transpose(0, 2, 1) / np.sqrt(d_head)
    mask = np.triu(np.ones((n, n), dtype=bool), k=1)  # True above the diagonal: later tokens
    A = softmax(np.where(mask, -np.inf, scores), axis=-1)
    return (A @ Vh).transpose(1, 0, 2).reshape(n, d_model) @ W_o


def feed_forward(x, W1, b1, W2, b2):
    """The position-wise network: expand, ReLU, project back."""
    return np.maximum(x @ W1 + b1, 0.0) @ W2 + b2


def block(x, p, n_heads):
    """One pre-norm transformer block with the weights in the dictionary p."""
    attn = causal_self_attention(
        layer_norm(x, p["gamma1"], p["beta1"]), p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads
    )
    h = x + attn
    return h + feed_forward(layer_norm(h, p["gamma2"], p["beta2"]), p["W1"], p["b1"], p["W2"], p["b2"])


def random_block(seed, d_model, d_ff):
    """Untrained weights for one block, rounded to one decimal so they are easy to read."""
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


# A vocabulary of 8 words, and a prompt of 6 tokens given by their ids.
vocab = ["<s>", "the", "cat", "sat", "on", "mat", "dog", "ran"]
ids = np.array([0, 1, 2, 3, 4, 1])  # "<s> the cat sat on the"
# The model's weights (untrained, so its guesses mean nothing yet; the arithmetic is the real one).
E = np.round(np.random.default_rng(19).normal(size=(8, 4)), 1)  # (vocab, d_model) token embeddings
P = np.round(np.random.default_rng(20).normal(scale=0.5, size=(8, 4)), 1)  # (n_ctx, d_model) position embeddings
n_heads = 2
blocks = [random_block(1, 4, 16), random_block(2, 4, 16)]  # two blocks, d_ff = 16
gamma_f = np.ones(4)  # the final layer norm
beta_f = np.zeros(4)

n = len(ids)
X = E[ids] + P[:n]  # (n, d_model): what each token is, plus where it is
R = X  # the residual stream
for p in blocks:
    R = block(R, p, 2)  # each block reads the stream and adds to it
F = layer_norm(R, gamma_f, beta_f)  # the final layer norm
logits = F @ E.T  # (n, vocab): every position scored against every word's embedding
probs = softmax(logits, axis=-1)[-1]  # every position's distribution; keep the last: (vocab,)
next_id = int(np.argmax(probs))

print(X.shape, logits.shape, probs.shape)
print(np.round(probs, 3))
print(vocab[next_id])
