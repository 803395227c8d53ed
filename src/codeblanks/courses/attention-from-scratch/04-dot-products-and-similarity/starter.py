import numpy as np

# Four tokens, three features each: one token per row.
X = np.array([[3.0, 4.0, 0.0], [6.0, 8.0, 0.0], [0.0, 3.0, 4.0], [0.0, 0.0, -2.0]])

# Your code here: replace each ____.
norms = ____  # the length of every token, as a column of shape (4, 1)
U = ____  # every token scaled to length 1
C = ____  # the cosine similarity of every pair of tokens

print(norms.shape)
print(np.round(norms.ravel(), 3))
print(np.round(C, 3))
