import numpy as np

# The embedding table: one row per token id, three features per token.
E = np.array([[1, 0, 2], [3, -1, 0], [0, 2, 1], [-2, 1, 4], [1, 1, -3], [0, 0, 5]])
# A sentence as token ids: "the cat saw the dog".
ids = np.array([0, 1, 3, 0, 2])

# Your code here: replace each ____ with an index into E or X.
X = ____  # one row per token of the sentence
feature = ____  # feature 1 of every token
last_two = ____  # the last two tokens

print(X.shape)
print(X)
print(feature)
print(last_two)
