import numpy as np


def next_token_probs(logits, temperature=1.0, top_k=None):
    """The distribution the next token is drawn from: the logits divided by the temperature, all
    but the top_k largest left out, then a softmax. Temperature 0 is the limit: the argmax."""
    logits = np.asarray(logits, dtype=float)
    if temperature == 0:
        probs = np.zeros(len(logits))
        probs[np.argmax(logits)] = 1.0  # all the probability on the best token (the first, on a tie)
        return probs
    z = logits / temperature
    if top_k is not None and top_k < len(z):
        keep = np.argsort(-z, kind="stable")[:top_k]  # the top_k largest; on a tie, the smaller id
        masked = np.full(len(z), -np.inf)  # exp(-inf) = 0: the others get no probability
        masked[keep] = z[keep]
        z = masked
    w = np.exp(z - np.max(z))  # shifted by the max, so no overflow
    return np.exp(z) / np.sum(np.exp(z))


def sample(logits, rng, temperature=1.0, top_k=None):
    """One token id drawn from next_token_probs with the generator rng: the same rng state always
    draws the same token."""
    probs = next_token_probs(logits, temperature, top_k)
    return int(rng.choice(len(probs), p=probs))


logits = np.array([2.0, 1.0, 0.5, 0.5, -1.0])
print(np.round(next_token_probs(logits), 3))
print(np.round(next_token_probs(logits, 2.0), 3))
print(np.round(next_token_probs(logits, 0.5, top_k=2), 3))
rng = np.random.default_rng(24)
print([sample(logits, rng) for _ in range(12)])
