# expect: incorrect
import numpy as np

S = np.array([[1000.0, 1001.0, 1002.0], [1001.0, 1003.0, 999.0], [1000.5, 1000.5, 1000.5]])


def softmax(z, axis):
    moved = np.moveaxis(z, axis, -1)
    out = np.empty_like(moved)
    for index in np.ndindex(moved.shape[:-1]):
        row = moved[index]
        e = np.exp(row - row.max())
        out[index] = e / e.sum()
    return np.moveaxis(out, -1, axis)


rows = softmax(S, axis=1)
cols = softmax(S, axis=0)
print(np.round(rows, 3))
print(np.round(cols, 3))
