import numpy as np

# Three tokens, one per row, each described by two features.
X = np.array([[2, 1], [0, 3], [1, -1]])
# Weights that turn two features into four.
W = np.array([[1, 0, 2, -1], [0, 1, 1, 2]])

Y = W.T @ X.T  # the right numbers, transposed
G = X @ X.T  # (3, 2) @ (2, 3) -> (3, 3)

print(Y.shape, G.shape)
print(Y)
print(G)
