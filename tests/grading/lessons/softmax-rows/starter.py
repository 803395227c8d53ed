import numpy as np

S = np.array([[1.0, 2.0, 3.0], [2.0, 0.0, 2.0], [3.0, 1.0, 0.0]])

# Turn every row of S into weights that sum to 1.
P = S
print(np.round(P, 3))
