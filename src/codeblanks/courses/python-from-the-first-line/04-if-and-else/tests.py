from lessontest import test


@test("a child of 8")
def child():
    return ticket(8)


@test("an adult of 30")
def adult():
    return ticket(30)


@test("someone of 70")
def senior():
    return ticket(70)


@test("exactly 12", hidden=True)
def twelve():
    return ticket(12)


@test("exactly 65", hidden=True)
def sixty_five():
    return ticket(65)
