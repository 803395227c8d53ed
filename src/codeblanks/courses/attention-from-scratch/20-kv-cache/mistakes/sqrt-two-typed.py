import numpy as np


def softmax(z, axis):
    """Turn scores into weights that sum to 1 along `axis` (shifted by the max, so no overflow)."""
    shifted = z - np.max(z, axis=axis, keepdims=True)
    weights = np.exp(shifted)
    return weights / np.sum(weights, axis=axis, keepdims=True)


def causal_attention(X, W_q, W_k, W_v):
    """Scaled single-head attention over the whole sequence at once, each token seeing only itself
    and the tokens before it: what the cache must reproduce, row by row."""
    Q, K, V = X @ W_q, X @ W_k, X @ W_v
    scores = Q @ K.T / np.sqrt(K.shape[1])
    n = X.shape[0]
    mask = np.triu(np.ones((n, n), dtype=bool), k=1)  # True above the diagonal: later tokens
    return softmax(np.where(mask, -np.inf, scores), axis=1) @ V


# Four tokens arrive one at a time, four features each.
X = np.array(
    [[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 2.0, 1.0]]
)
W_q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
W_k = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
W_v = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0]])
d_k = W_k.shape[1]

K_cache = np.zeros((0, d_k))  # no keys yet: 0 rows
V_cache = np.zeros((0, W_v.shape[1]))
outputs = []
for t in range(X.shape[0]):
    x = X[t : t + 1]  # (1, d_model): only the token that has just arrived
    q = x @ W_q  # (1, d_k): its query
    K_cache = np.vstack([K_cache, x @ W_k])  # (t + 1, d_k): every key so far, the newest last
    V_cache = np.vstack([V_cache, x @ W_v])  # (t + 1, d_v): every value so far
    y = softmax(q @ K_cache.T / np.sqrt(2), axis=1) @ V_cache  # (1, d_v)
    outputs.append(y)

Y = np.vstack(outputs)  # (n, d_v): one output per step
Y_full = causal_attention(X, W_q, W_k, W_v)

print(Y.shape, K_cache.shape, V_cache.shape)
print(np.round(Y[-1], 3))
print(np.allclose(Y, Y_full))
