import numpy as np

# Three tokens, two features each: one token per row.
X = np.array([[0.0, 10.0], [4.0, 2.0], [8.0, 6.0]])
# A positive score for each token: how much it should count in one mix.
r = np.array([1.0, 2.0, 1.0])
# Scores for two mixes at once: one row per mix, one score per token.
R = np.array([[1.0, 1.0, 2.0], [3.0, 0.0, 1.0]])

# Your code here: replace each ____.
w = ____  # the scores r turned into weights that sum to 1
y = ____  # the rows of X mixed with the weights w
W = ____  # the scores R turned into weights, every row summing to 1
Y = ____  # one mix of the rows of X for each row of W

print(np.round(w, 3))
print(np.round(y, 3))
print(W.sum(axis=1))
print(np.round(Y, 3))
