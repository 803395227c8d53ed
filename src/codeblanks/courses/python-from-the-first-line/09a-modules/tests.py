from lessontest import test


@test("the cat and the hat, k = 2")
def cats():
    return top_words("the cat and the hat and The bat", 2)


@test("fish, k = 1")
def fish():
    return top_words("one fish two fish red fish blue fish", 1)


@test("two spaces and a new line", hidden=True)
def spaces():
    return top_words("go  on\ngo on  go", 2)
