import numpy as np


def softmax(z, axis):
    """Turn scores into weights that sum to 1 along `axis` (shifted by the max, so no overflow)."""
    shifted = z - np.max(z, axis=axis, keepdims=True)
    weights = np.exp(shifted)
    return weights / np.sum(weights, axis=axis, keepdims=True)


# A batch of two sequences padded to four tokens, shapes (batch, tokens, width). The first has 4
# real tokens, the second only 2: its last two rows are filler, holding whatever the padding token
# holds. Every token may attend to every real token of its own sequence, before or after it.
Q = np.array([
    [[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 0.0], [1.0, 1.0, 0.0, 1.0], [0.0, 0.0, 2.0, 1.0]],
    [[2.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0], [0.0, 1.0, 0.0, 1.0]],
])
K = np.array([
    [[1.0, 1.0, 0.0, 0.0], [0.0, 1.0, 1.0, 0.0], [2.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]],
    [[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 2.0], [1.0, 1.0, 1.0, 1.0], [2.0, 0.0, 2.0, 0.0]],
])
V = np.array([
    [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 0.0]],
    [[0.0, 2.0], [2.0, 0.0], [5.0, 5.0], [5.0, 5.0]],
])
lengths = np.array([4, 2])  # how many tokens of each sequence are real

B, L, d_k = Q.shape
scores = Q @ K.swapaxes(1, 2) / np.sqrt(d_k)  # (B, L, L), as in the lesson on batches

pad = np.arange(L)[None, :] >= lengths[:, None]  # (B, L): True where token j of sequence b is filler
mask = pad.reshape(2, 1, 4)  # (B, 1, L): the same keys are blocked in every query row
scores = np.where(mask, -np.inf, scores)
A = softmax(scores, axis=-1)
Y = A @ V  # (B, L, d_v)

print(pad.astype(int))
print(np.round(A[1], 3))
print(np.round(Y[1], 3))
