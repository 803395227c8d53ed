import numpy as np


def softmax(z, axis):
    """Turn scores into weights that sum to 1 along `axis` (shifted by the max, so no overflow)."""
    shifted = z - np.max(z, axis=axis, keepdims=True)
    weights = np.exp(shifted)
    return weights / np.sum(weights, axis=axis, keepdims=True)


# Three tokens, four features each: one token per row.
X = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0]])
# Projections, fixed here as if they had already been learned.
W_q = np.eye(4)[:, :2]  # a query reads features 0 and 1
W_k = np.eye(4)[:, 1:3]  # a key reads features 1 and 2
W_v = np.eye(4)  # a value passes all four features through

Q = X @ W_q  # (n, d_k): what each token is looking for
K = X @ W_k  # (n, d_k): what each token can be found by
V = X @ W_v  # (n, d_v): what each token hands over
scores = Q @ K.T  # (n, n): query i against key j
A = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)  # no shift by the max
Y = A @ V  # (n, d_v): each token's mix of values

print(Q.shape, A.shape, Y.shape)
print(np.round(A[0], 3))
