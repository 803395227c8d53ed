import numpy as np

# Three tokens, two features each: one token per row.
X = np.array([[0.0, 10.0], [4.0, 2.0], [8.0, 6.0]])
# A positive score for each token: how much it should count in one mix.
r = np.array([1.0, 2.0, 1.0])
# Scores for two mixes at once: one row per mix, one score per token.
R = np.array([[1.0, 1.0, 2.0], [3.0, 0.0, 1.0]])

w = r / r.sum()  # weights that sum to 1: (3,)
y = w @ X  # one weighted average of the rows: (3,) @ (3, 2) -> (2,)
W = R / R.sum(axis=1, keepdims=True)  # every row sums to 1: (2, 3)
Y = W @ X  # one mix per row of W: (2, 3) @ (3, 2) -> (2, 2)

print(np.round(w, 3))
print(np.round(y, 3))
print(W.sum(axis=1))
print(np.round(Y, 3))
