import numpy as np

# Four tokens, three features each: one token per row.
X = np.array([[3.0, 4.0, 0.0], [6.0, 8.0, 0.0], [0.0, 3.0, 4.0], [0.0, 0.0, -2.0]])

norms = (X**2).sum(axis=1, keepdims=True)  # squared lengths: no square root
U = X / norms  # every row divided by its own length: (4, 3)
C = U @ U.T  # cosine of every pair of tokens: (4, 4)

print(norms.shape)
print(np.round(norms.ravel(), 3))
print(np.round(C, 3))
