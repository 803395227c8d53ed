import numpy as np
from lessontest import test, unchanged


@test("temperature 1 and every token: the softmax")
def plain_softmax():
    return next_token_probs(np.array([2.0, 1.0, 0.5, -1.0]), 1.0)


@test("temperature 0.5 sharpens, temperature 2 flattens")
def two_temperatures():
    logits = np.array([2.0, 1.0, 0.5, -1.0])
    return np.stack([next_token_probs(logits, 0.5), next_token_probs(logits, 2.0)])


@test("top 2 of 5 tokens")
def top_two():
    return next_token_probs(np.array([0.5, 2.0, -1.0, 1.5, 0.0]), 1.0, top_k=2)


@test("twenty draws with a seeded generator")
def seeded_draws():
    rng = np.random.default_rng(0)
    logits = np.array([1.0, 2.0, 0.0, 1.5, -0.5, 0.5])
    return np.array([sample(logits, rng) for _ in range(20)])


@test("leaves the logits unchanged")
def keeps_logits():
    logits = np.array([3.0, 1.0, 2.0, 0.0])
    with unchanged(logits):
        next_token_probs(logits, 0.7, top_k=2)
        sample(logits, np.random.default_rng(1), 0.7, top_k=2)


@test("temperature 0 puts everything on the argmax, the first on a tie, and draws it", hidden=True)
def zero_temperature():
    rng = np.random.default_rng(5)
    draws = [sample(np.array([0.0, 1.0, 2.5, 2.0]), rng, 0.0) for _ in range(6)]
    return np.vstack(
        [
            next_token_probs(np.array([0.1, 3.0, -2.0, 1.0]), 0.0),
            next_token_probs(np.array([1.0, 4.0, 4.0, 0.0]), 0.0, top_k=2),
            np.array(draws[:4], dtype=float),
        ]
    )


@test("a tie at the k-th place still keeps exactly k tokens; top_k 1 and top_k >= V", hidden=True)
def ties_keep_k():
    logits = np.array([1.0, 3.0, 2.0, 2.0, 2.0, 0.0])
    return np.stack(
        [
            next_token_probs(logits, 1.0, top_k=2),
            next_token_probs(logits, 0.5, top_k=3),
            next_token_probs(logits, 1.3, top_k=1),
            next_token_probs(logits, 1.3, top_k=6),
            next_token_probs(logits, 1.3, top_k=9),
        ]
    )


@test("large logits and a low temperature do not overflow", hidden=True)
def large_logits():
    return next_token_probs(np.array([500.0, 480.0, 300.0, 499.0]), 0.05, top_k=3)


@test("two thousand draws follow the probabilities", hidden=True)
def many_draws():
    rng = np.random.default_rng(24)
    logits = np.array([0.0, 1.0, 0.5, 2.0, -1.0, 1.5, 0.0])
    draws = [sample(logits, rng, 1.5, top_k=4) for _ in range(2000)]
    return np.bincount(draws, minlength=len(logits))
