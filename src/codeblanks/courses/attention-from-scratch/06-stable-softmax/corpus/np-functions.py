# expect: correct
import numpy as np

S = np.array([[1000.0, 1001.0, 1002.0], [1001.0, 1003.0, 999.0], [1000.5, 1000.5, 1000.5]])


def softmax(z, axis):
    e = np.exp(z - np.max(z, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


rows = softmax(S, axis=1)
cols = softmax(S, axis=0)
print(np.round(rows, 3))
print(np.round(cols, 3))
