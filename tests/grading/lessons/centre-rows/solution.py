import numpy as np

# Readings near a thousand, a fraction apart: each row centred on its own mean.
X = 1000.0 + np.random.default_rng(0).random((3, 4))
C = X - X.mean(axis=1, keepdims=True)
print(np.round(C, 2))
