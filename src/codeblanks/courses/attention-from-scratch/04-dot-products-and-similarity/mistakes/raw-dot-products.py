import numpy as np

# Four tokens, three features each: one token per row.
X = np.array([[3.0, 4.0, 0.0], [6.0, 8.0, 0.0], [0.0, 3.0, 4.0], [0.0, 0.0, -2.0]])

norms = np.linalg.norm(X, axis=1, keepdims=True)  # one length per token: (4, 1)
U = X / norms  # every row divided by its own length: (4, 3)
C = X @ X.T  # the raw dot products, lengths included

print(norms.shape)
print(np.round(norms.ravel(), 3))
print(np.round(C, 3))
