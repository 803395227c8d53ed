from lessontest import test


@test("an empty list")
def empty():
    return running_total([])


@test("a few numbers")
def few():
    return running_total([1, 2, 3, 4])


@test("negative numbers")
def negative():
    return running_total([5, -2, -3])


@test("fractions")
def fractions():
    return running_total([0.5, 0.25, 0.125])


@test("200,000 numbers", hidden=True)
def long():
    return running_total(list(range(200_000)))
