from lessontest import test, unchanged


@test("planets and moons")
def planets():
    return long_words(["sun", "planet", "moon", "galaxy"], 5)


@test("no word is long enough")
def none_long_enough():
    return long_words(["a", "bb"], 3)


@test("the list passed in is left as it was")
def unchanged_list():
    words = ["comet", "star"]
    with unchanged(words):
        long_words(words, 4)


@test("a word exactly n letters long", hidden=True)
def exactly_n():
    return long_words(["tree", "forest", "oak"], 4)


@test("a limit of 3", hidden=True)
def limit_of_three():
    return long_words(["ox", "lion", "giraffe"], 3)
