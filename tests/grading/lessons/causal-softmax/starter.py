import numpy as np


def causal_softmax(scores):
    """Row i: a softmax over the scores of tokens 0..i; later tokens get weight 0."""
    return ____


S = np.array([[1.0, 2.0, 0.5], [0.0, 1.0, 3.0], [2.0, 1.0, 1.0]])
print(np.round(causal_softmax(S), 3))
