import numpy as np

S = np.array([[1.0, 2.0, 3.0], [2.0, 0.0, 2.0], [3.0, 1.0, 0.0]])

# The same slip as axis-0.py, written another way.
P = (np.exp(S).T / np.exp(S).sum(axis=0)[:, None]).T
print(np.round(P, 3))
