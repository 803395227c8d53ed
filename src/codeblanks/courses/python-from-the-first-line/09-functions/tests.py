from lessontest import test


@test("two names")
def two_names():
    return initials("Ada Lovelace")


@test("three names")
def three_names():
    return initials("Grace Brewster Hopper")


@test("another separator")
def another_separator():
    return initials("Alan Turing", "-")


@test("names in lower case", hidden=True)
def lower_case():
    return initials("linus benedict torvalds")


@test("extra spaces around and between the names", hidden=True)
def extra_spaces():
    return initials("  Guido   van Rossum ", "")
