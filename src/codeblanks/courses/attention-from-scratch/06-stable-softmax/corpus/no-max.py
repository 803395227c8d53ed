# expect: incorrect
import numpy as np

# Scores far too large for a plain np.exp (exp(1000) overflows); the last row is a tie.
S = np.array([[1000.0, 1001.0, 1002.0], [1001.0, 1003.0, 999.0], [1000.5, 1000.5, 1000.5]])


def softmax(z, axis):
    """Softmax of z along `axis`, safe for very large and very negative scores."""
    shifted = z  # no shift: np.exp overflows for large scores
    e = np.exp(shifted)  # every entry in (0, 1], at least one equal to 1
    return e / e.sum(axis=axis, keepdims=True)


rows = softmax(S, axis=1)  # each row sums to 1
cols = softmax(S, axis=0)  # each column sums to 1
print(np.round(rows, 3))
print(np.round(cols, 3))
