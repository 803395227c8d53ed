import numpy as np

# Four tokens, three features each: one token per row.
X = np.array([[2.0, 4.0, 6.0], [1.0, 0.0, 2.0], [3.0, 3.0, 3.0], [-1.0, 5.0, 2.0]])
# One number per feature, to be added to every token.
b = np.array([10.0, 20.0, 30.0])

Y = X + b  # (4, 3) + (3,) -> (4, 3)
m = X.mean(axis=1, keepdims=True)  # each token's mean, as a column: (4, 1)
C = m - X  # the mean minus the token: every sign flipped

print(np.round(Y, 3))
print(m.shape)
print(np.round(C, 3))
