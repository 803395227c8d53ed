import numpy as np


def softmax(z, axis):
    """Turn scores into weights that sum to 1 along `axis` (shifted by the max, so no overflow)."""
    shifted = z - np.max(z, axis=axis, keepdims=True)
    weights = np.exp(shifted)
    return weights / np.sum(weights, axis=axis, keepdims=True)


# Three tokens, d_model = 4 features each, split into two heads of width 2.
X = np.array([[1.0, 0.0, 2.0, 0.0], [0.0, 1.0, 0.0, 2.0], [1.0, 1.0, 0.0, 0.0]])
n_heads = 2
# Projections, fixed as if learned. W_o swaps the two halves, so you can see it act.
W_q = np.eye(4)
W_k = np.eye(4)
W_v = np.eye(4)
W_o = np.array(
    [[0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]
)

n, d_model = X.shape
d_head = 2
Q = X @ W_q
K = X @ W_k
V = X @ W_v


def split_heads(M):
    """(n, d_model) -> (n_heads, n, d_head): head h gets columns h*d_head to (h+1)*d_head."""
    return M.reshape(n, n_heads, d_head).transpose(1, 0, 2)


Qh = split_heads(Q)  # (n_heads, n, d_head)
Kh = split_heads(K)
Vh = split_heads(V)
scores = Qh @ Kh.transpose(0, 2, 1) / np.sqrt(d_head)  # (n_heads, n, n)
A = softmax(scores, axis=-1)  # each head, each query: weights over the keys
heads = A @ Vh  # (n_heads, n, d_head)
merged = heads.transpose(1, 0, 2).reshape(n, d_model)  # heads side by side again
Y = merged @ W_o  # (n, d_model)

print(A.shape, Y.shape)
print(np.round(A, 3))
print(np.round(Y, 3))
