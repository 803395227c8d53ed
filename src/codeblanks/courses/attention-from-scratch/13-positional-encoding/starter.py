import numpy as np

# Four tokens in order, each an embedding of width d_model = 4 (one token per row).
X = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0], [0.5, 0.5, 0.5, 0.5]])

n, d_model = X.shape
# Your code here: replace each ____.
pos = ____  # (n, 1): the positions 0, 1, ..., n - 1 as a column
two_i = ____  # the even column indices 0, 2, 4, ..., d_model - 2
angle = ____  # (n, d_model / 2): pos / 10000 ** (2i / d_model)
PE = np.zeros((n, d_model))
PE[:, 0::2] = ____  # even columns: the sine of the angles
PE[:, 1::2] = ____  # odd columns: their cosine
H = ____  # the embeddings with their positions added


print(np.round(PE, 3))
print(np.round(H, 3))
