import numpy as np


def softmax(z, axis):
    """Turn scores into weights that sum to 1 along `axis` (shifted by the max, so no overflow)."""
    shifted = z - np.max(z, axis=axis, keepdims=True)
    weights = np.exp(shifted)
    return weights / np.sum(weights, axis=axis, keepdims=True)


# Scores of two tokens over three candidates: one row per token.
S = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 0.5]])
T = 0.5  # the temperature: below 1 sharpens the weights, above 1 flattens them

P = softmax(S / 0.5, axis=1)  # each row: that token's weights at temperature T
pick = np.argmax(S, axis=1)  # each row: the index of its largest score

print(np.round(P, 3))
print(pick)
