from lessontest import test


@test("the first five")
def first_five():
    return fibonacci(5)


@test("none at all")
def none():
    return fibonacci(0)


@test("the first thirty", hidden=True)
def thirty():
    return fibonacci(30)
