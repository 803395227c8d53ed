import numpy as np

# Three tokens, one per row, each described by two features.
X = np.array([[2, 1], [0, 3], [1, -1]])
# Weights that turn two features into four.
W = np.array([[1, 0, 2, -1], [0, 1, 1, 2]])

# Your code here: replace each ____ with a matrix product.
Y = ____  # every token mapped to four features
G = ____  # every token compared with every token (dot products)

print(Y.shape, G.shape)
print(Y)
print(G)
