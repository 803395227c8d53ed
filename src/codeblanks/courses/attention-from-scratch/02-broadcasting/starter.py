import numpy as np

# Four tokens, three features each: one token per row.
X = np.array([[2.0, 4.0, 6.0], [1.0, 0.0, 2.0], [3.0, 3.0, 3.0], [-1.0, 5.0, 2.0]])
# One number per feature, to be added to every token.
b = np.array([10.0, 20.0, 30.0])

# Your code here: replace each ____.
Y = ____  # b added to every token
m = ____  # the mean of each token's features, as a column of shape (4, 1)
C = ____  # every token minus its own mean

print(np.round(Y, 3))
print(m.shape)
print(np.round(C, 3))
