import numpy as np


def softmax(z, axis):
    """Turn scores into weights that sum to 1 along `axis` (shifted by the max, so no overflow)."""
    shifted = z - np.max(z, axis=axis, keepdims=True)
    weights = np.exp(shifted)
    return weights / np.sum(weights, axis=axis, keepdims=True)


# Four tokens of one sequence, in order: a query, a key and a value for each.
Q = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0], [2.0, 0.0]])
K = np.array([[2.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 2.0]])
V = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 2.0]])

# Your code here: replace each ____.
n = ____  # the number of tokens (read it from an array)
mask = ____  # (n, n) booleans: True where the key comes after the query
scores = ____  # scaled scores of every query against every key, -inf wherever mask is True
A = ____  # softmax, so that each query's weights sum to 1
Y = ____  # each query's mix of the values

print(np.round(A, 3))
print(np.round(Y, 3))
