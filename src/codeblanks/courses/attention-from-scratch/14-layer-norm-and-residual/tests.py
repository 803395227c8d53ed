import numpy as np
from lessontest import test, unchanged


@test("two tokens, gamma = 1, beta = 0")
def two_tokens():
    X = np.array([[1.0, 2.0, 3.0, 6.0], [10.0, 10.0, 10.0, 14.0]])
    return layer_norm(X, np.ones(4), np.zeros(4))


@test("gamma scales and beta shifts each feature")
def gamma_and_beta():
    X = np.array([[1.0, 2.0, 3.0, 6.0], [0.0, 4.0, 0.0, 4.0], [5.0, 1.0, 2.0, 0.0]])
    return layer_norm(X, np.array([1.0, 2.0, 0.5, -1.0]), np.array([0.0, 1.0, 0.0, 3.0]))


@test("leaves x unchanged")
def keeps_x():
    X = np.array([[1.0, 2.0, 3.0, 6.0], [10.0, 10.0, 10.0, 14.0]])
    with unchanged(X):
        layer_norm(X, np.ones(4), np.zeros(4))


@test("a batch of sequences: shape (2, 3, 5)", hidden=True)
def batch():
    X = np.random.default_rng(71).normal(size=(2, 3, 5))
    return layer_norm(X, np.linspace(0.5, 1.5, 5), np.linspace(-1.0, 1.0, 5))


@test("a single token as a 1-D vector", hidden=True)
def one_vector():
    return layer_norm(np.array([2.0, -1.0, 0.5]), np.ones(3), np.zeros(3))


@test("eps is the one given", hidden=True)
def given_eps():
    X = np.array([[1.0, 2.0, 3.0, 6.0], [0.0, 0.1, 0.0, 0.1]])
    return layer_norm(X, np.ones(4), np.zeros(4), eps=1.0)


@test("values near a million, a few units apart", hidden=True)
def far_from_zero():
    X = 1e6 + np.random.default_rng(72).normal(size=(3, 8))
    return layer_norm(X, np.ones(8), np.zeros(8))
