import numpy as np

# A batch of two sentences, three tokens each, four features per token: shape (b, n, d).
X = np.array(
    [
        [[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0]],
        [[2.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0], [1.0, 0.0, 1.0, 1.0]],
    ]
)
# One table of mixing weights per sentence, shape (b, n, n): each row sums to 1.
W = np.array(
    [
        [[0.5, 0.5, 0.0], [0.0, 1.0, 0.0], [0.25, 0.25, 0.5]],
        [[1.0, 0.0, 0.0], [0.0, 0.5, 0.5], [0.2, 0.3, 0.5]],
    ]
)

# Your code here: replace both ____ (the first with @, the second with np.einsum).
S = ____  # (b, n, n): S[i] is X[i] @ X[i].T, every token against every token
Y = ____  # (b, n, d): Y[i] is W[i] @ X[i], each row a mix of tokens

print(S.shape, Y.shape)
print(S[-1])
print(np.round(Y[-1], 2))
