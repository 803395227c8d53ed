from lessontest import raises, test


@test("all numbers")
def all_numbers():
    return total_of(["3", "10", "5"])


@test("a word among the numbers")
def a_word():
    return total_of(["3", "ten", "5"])


@test("nothing to add")
def nothing():
    with raises(ValueError, message="no numbers to add", exact=True):
        total_of(["a", "b"])


@test("signs and spaces around the numbers", hidden=True)
def signs_and_spaces():
    return total_of([" 7 ", "-4", "+2", "x"])


@test("numbers that add up to 0", hidden=True)
def adds_up_to_zero():
    return total_of(["5", "five", "-5"])
