import numpy as np

# Four tokens in order, each an embedding of width d_model = 4 (one token per row).
X = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0], [0.5, 0.5, 0.5, 0.5]])

n, d_model = X.shape
pos = np.arange(n)[:, None]  # (n, 1): one position per row
two_i = np.arange(0, d_model, 2)  # (d_model / 2,): the even column indices 0, 2, 4, ...
angle = pos / 10000 ** (two_i / 4)  # (n, d_model / 2): pair i turns at its own speed
PE = np.zeros((n, d_model))
PE[:, 0::2] = np.sin(angle)  # even columns
PE[:, 1::2] = np.cos(angle)  # odd columns
H = X + PE  # each token now carries its position

print(np.round(PE, 3))
print(np.round(H, 3))
