import numpy as np


def softmax(z, axis):
    """Turn scores into weights that sum to 1 along `axis` (shifted by the max, so no overflow)."""
    shifted = z - np.max(z, axis=axis, keepdims=True)
    weights = np.exp(shifted)
    return weights / np.sum(weights, axis=axis, keepdims=True)


# Two tokens of the sentence being written (they ask), three of the sentence being read (they
# answer). Both have d_model = 4 features per token.
X_dec = np.array([[2.0, 0.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0]])
X_enc = np.array([[2.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0]])
# Projections, fixed as if learned: queries and keys keep all four features (d_k = 4),
# values are (x0 + x2, x1 + x2): features 0 and 1, each plus feature 2 (d_v = 2).
W_q = np.eye(4)
W_k = np.eye(4)
W_v = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]])

Q = X_dec @ W_q  # (n_q, d_k): one query per token being written
K = X_enc @ W_k  # (n_kv, d_k): one key per token being read
V = X_enc @ W_v  # (n_kv, d_v): one value per token being read
d_k = K.shape[1]
scores = Q @ K.T / np.sqrt(d_k)  # (n_q, n_kv): no mask, every source token may be read
A = softmax(scores, axis=1)  # each query's weights over the source tokens
Y = A @ V  # (n_q, d_v): one output per query

print(A.shape, Y.shape)
print(np.round(A, 3))
print(np.round(Y, 3))
