import numpy as np

# Three tokens with d_model = 2 features each: one token per row.
X = np.array([[1.0, 2.0], [0.0, -1.0], [3.0, 1.0]])
# The block's weights, fixed as if learned: expand to d_ff = 4, then project back to 2.
W1 = np.array([[1.0, -1.0, 0.0, 2.0], [0.0, 1.0, -1.0, 1.0]])  # (d_model, d_ff)
b1 = np.array([0.0, 0.0, 1.0, -1.0])  # (d_ff,)
W2 = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, -1.0], [-1.0, 0.0]])  # (d_ff, d_model)
b2 = np.array([0.5, -0.5])  # (d_model,)


def relu(z):
    """Every negative entry becomes 0; the others stay as they are."""
    return np.maximum(z, 0.0)


hidden = relu(X @ W1) + b1  # (n, d_ff): every token expanded, then cut at 0
Y = hidden @ W2 + b2  # (n, d_model): every token projected back

print(hidden.shape, Y.shape)
print(np.round(Y, 3))
