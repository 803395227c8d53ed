import numpy as np

# The embedding table: one row per token id, three features per token.
E = np.array([[1, 0, 2], [3, -1, 0], [0, 2, 1], [-2, 1, 4], [1, 1, -3], [0, 0, 5]])
# A sentence as token ids: "the cat saw the dog".
ids = np.array([0, 1, 3, 0, 2])

X = E[ids]  # one row per token of the sentence: (5, 3)
feature = E[:, 1]  # a column of the whole table
last_two = X[-2:]  # the last two tokens: (2, 3)

print(X.shape)
print(X)
print(feature)
print(last_two)
