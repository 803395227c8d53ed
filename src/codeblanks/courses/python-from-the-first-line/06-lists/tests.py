from lessontest import test, unchanged


@test("four numbers, limit 5")
def four_numbers():
    return above([3, 8, 1, 9], 5)


@test("none above the limit")
def none_above():
    return above([1, 2, 3], 10)


@test("a number equal to the limit", hidden=True)
def equal_to_the_limit():
    return above([4, 5, 6, 5], 5)


@test("leaves the list it is given unchanged", hidden=True)
def keeps_the_list():
    numbers = [7, 2, 9, 4]
    with unchanged(numbers):
        above(numbers, 3)
