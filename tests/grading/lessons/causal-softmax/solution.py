import numpy as np


def causal_softmax(scores):
    """Row i: a softmax over the scores of tokens 0..i; later tokens get weight 0."""
    scores = np.asarray(scores, dtype=float)
    if scores.ndim < 2 or scores.shape[-1] != scores.shape[-2]:
        raise ValueError(f"scores must be square in its last two axes, not {scores.shape}")
    n = scores.shape[-1]
    later = np.triu(np.ones((n, n), dtype=bool), k=1)
    masked = np.where(later, -np.inf, scores)
    weights = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True)


S = np.array([[1.0, 2.0, 0.5], [0.0, 1.0, 3.0], [2.0, 1.0, 1.0]])
print(np.round(causal_softmax(S), 3))
