from lessontest import test, unchanged


@test("seven readings, n = 2")
def seven():
    return trim([5, 9, 10, 11, 10, 3, 1], 2)


@test("five readings, n = 1")
def five():
    return trim([4, 20, 21, 22, 6], 1)


@test("leaves its list unchanged")
def keeps_its_list():
    readings = [1, 2, 3, 4]
    with unchanged(readings):
        trim(readings, 1)


@test("n = 0: nothing to drop", hidden=True)
def nothing_to_drop():
    return trim([7, 8, 9], 0)
