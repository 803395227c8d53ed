from lessontest import test


@test("one word")
def one_word():
    return count_words("word")


@test("repeated words")
def repeated():
    return count_words("one fish two fish red fish blue fish")


@test("case does not matter")
def case():
    return count_words("Go go GO Stop stop")


@test("punctuation", hidden=True)
def punctuation():
    return count_words("car: carpet as java: javascript!!&@$%^&")


@test("apostrophes", hidden=True)
def apostrophes():
    return count_words("Joe can't tell between large and large.")
