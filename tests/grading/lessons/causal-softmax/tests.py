import numpy as np
from lessontest import raises, test, unchanged


@test("the scores of the task")
def example():
    return causal_softmax(np.array([[1.0, 2.0, 0.5], [0.0, 1.0, 3.0], [2.0, 1.0, 1.0]]))


@test("one token")
def one_token():
    return causal_softmax(np.array([[5.0]]))


@test("leaves its argument unchanged")
def keeps_input():
    scores = np.arange(9.0).reshape(3, 3)
    with unchanged(scores):
        causal_softmax(scores)


@test("a batch of two sequences", hidden=True)
def batch():
    return causal_softmax(np.arange(18.0).reshape(2, 3, 3) / 4)


@test("large scores", hidden=True)
def large():
    return causal_softmax(np.array([[1000.0, 0.0], [1000.0, 1001.0]]))


@test("refuses scores that are not square", hidden=True)
def not_square():
    with raises(ValueError):
        causal_softmax(np.ones((2, 3)))
