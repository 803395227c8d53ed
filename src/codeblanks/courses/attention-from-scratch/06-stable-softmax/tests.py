import numpy as np
from lessontest import test, unchanged


@test("one vector of scores, axis=0")
def one_vector():
    return softmax(np.array([2.0, 1.0, 0.0]), axis=0)


@test("leaves its argument unchanged")
def keeps_its_argument():
    z = np.array([[1000.0, 1001.0], [3.0, -2.0]])
    with unchanged(z):
        softmax(z, axis=1)


@test("whole-number scores", hidden=True)
def integers():
    return softmax(np.array([[3, 1, 2], [0, 0, 5]]), axis=1)
