import numpy as np


def softmax(z, axis):
    """Turn scores into weights that sum to 1 along `axis` (shifted by the max, so no overflow)."""
    shifted = z - np.max(z, axis=axis, keepdims=True)
    weights = np.exp(shifted)
    return weights / np.sum(weights, axis=axis, keepdims=True)


# Scores: row i says how strongly token i wants each token (one column per token).
S = np.array([[2.0, 1.0, 0.0], [0.0, 0.0, 0.0], [-1.0, 3.0, -1.0]])
# Values: row j is what token j hands over when it is attended to.
V = np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 1.0]])

A = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)  # attention weights: each row positive and summing to 1
Y = A @ V  # row i: token i's weighted mix of the value rows

print(np.round(A, 3))
print(np.round(Y, 3))
