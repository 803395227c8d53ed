import numpy as np


def causal_softmax(scores):
    if scores.ndim < 2 or scores.shape[-1] != scores.shape[-2]:
        raise ValueError("not square")
    n = scores.shape[-1]
    scores[..., np.triu(np.ones((n, n), dtype=bool), k=1)] = -np.inf
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True)


S = np.array([[1.0, 2.0, 0.5], [0.0, 1.0, 3.0], [2.0, 1.0, 1.0]])
print(np.round(causal_softmax(S), 3))
