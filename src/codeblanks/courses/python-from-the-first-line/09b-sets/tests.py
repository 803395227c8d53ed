from lessontest import test


@test("the cat sat on the mat")
def cat():
    return first_repeat(["the", "cat", "sat", "on", "the", "mat"])


@test("two repeats: the first one counts")
def two():
    return first_repeat(["red", "blue", "green", "blue", "red"])


@test("no word twice", hidden=True)
def none_twice():
    return first_repeat(["one", "two", "three"])
