from lessontest import raises, test


@test("a plain age")
def plain():
    return parse_age("42")


@test("spaces around it")
def spaces():
    return parse_age(" 7 ")


@test("not a number")
def not_a_number():
    with raises(ValueError, message="age must be a whole number", exact=True):
        parse_age("forty")


@test("a negative age", hidden=True)
def negative():
    with raises(ValueError, message="age cannot be negative", exact=True):
        parse_age("-3")
