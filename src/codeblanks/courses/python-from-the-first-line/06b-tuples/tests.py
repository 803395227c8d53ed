from lessontest import test


@test("the first 6")
def six():
    return fibonacci(6)


@test("the first 1")
def one():
    return fibonacci(1)


@test("the first 15", hidden=True)
def fifteen():
    return fibonacci(15)
