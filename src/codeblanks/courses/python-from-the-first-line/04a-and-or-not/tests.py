from lessontest import test


@test("170 cm, 30, alone")
def adult_alone():
    return can_ride(170, 30, False)


@test("130 cm, 8, with an adult")
def child_with_adult():
    return can_ride(130, 8, True)


@test("130 cm, 8, alone")
def child_alone():
    return can_ride(130, 8, False)


@test("110 cm, 30, alone")
def short_adult():
    return can_ride(110, 30, False)


@test("110 cm, 8, with an adult", hidden=True)
def short_child_with_adult():
    return can_ride(110, 8, True)


@test("exactly 120 cm, 12, alone", hidden=True)
def exactly_120():
    return can_ride(120, 12, False)


@test("150 cm, exactly 10, alone", hidden=True)
def exactly_ten():
    return can_ride(150, 10, False)
