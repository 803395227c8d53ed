import numpy as np

S = np.array([[1.0, 2.0, 3.0], [2.0, 0.0, 2.0], [3.0, 1.0, 0.0]])

# Right for three rows only: the row maxima reshaped to a column of three.
E = np.exp(S - S.max(axis=1).reshape(3, 1))
P = E / E.sum(axis=1).reshape(3, 1)
print(np.round(P, 3))
