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

# Your code here: replace each ____.
d_k = ____  # the width that queries and keys share (read it from an array, don't type 4)
scores = ____  # every query against every key, scaled by the square root of d_k
A = ____  # softmax, so that each query's weights sum to 1
out = ____  # each query's weighted mix of the values

print(A.shape, out.shape)
print(np.round(A, 3))
print(np.round(out, 3))
