import numpy as np

S = np.array([[1.0, 2.0, 3.0], [2.0, 0.0, 2.0], [3.0, 1.0, 0.0]])

E = np.exp(S - S.max(axis=1, keepdims=True))
P = E / E.sum(axis=1, keepdims=True)
print(np.round(P, 3))
