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

n = Q.shape[0]  # the number of tokens
mask = np.triu(np.ones((n, n), dtype=bool), k=1)  # True where a key comes after the query
scores = Q @ K.T / np.sqrt(K.shape[1])
scores = np.where(mask, -np.inf, scores)  # a later token gets a score of minus infinity
A = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)  # exp(-inf) = 0: no weight on the future
Y = A @ V

print(np.round(A, 3))
print(np.round(Y, 3))
