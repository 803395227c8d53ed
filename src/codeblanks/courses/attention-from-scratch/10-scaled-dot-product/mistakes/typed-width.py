import numpy as np


def softmax(z, axis):
    """Turn scores into weights that sum to 1 along `axis` (shifted by the max, so no overflow)."""
    shifted = z - np.max(z, axis=axis, keepdims=True)
    weights = np.exp(shifted)
    return weights / np.sum(weights, axis=axis, keepdims=True)


# Two queries and three keys of width d_k = 4; one value of width 2 per key.
Q = np.array([[1.0, 2.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0]])
K = np.array([[1.0, 1.0, 0.0, 0.0], [0.0, 2.0, 1.0, 1.0], [2.0, 0.0, 0.0, 1.0]])
V = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])

d_k = 4  # typed in: the width of the given keys
scores = Q @ K.T / np.sqrt(d_k)  # (n_q, n_k)
A = softmax(scores, axis=1)  # each query's weights over the keys
out = A @ V  # (n_q, d_v)

print(A.shape, out.shape)
print(np.round(A, 3))
print(np.round(out, 3))
