from lessontest import test


@test("basic")
def basic():
    return abbreviate("Portable Network Graphics")


@test("lowercase words")
def lowercase_words():
    return abbreviate("Ruby on Rails")


@test("hyphens")
def hyphens():
    return abbreviate("Complementary metal-oxide semiconductor")


@test("underscore emphasis", hidden=True)
def underscores():
    return abbreviate("The Road _Not_ Taken")


@test("apostrophes", hidden=True)
def apostrophes():
    return abbreviate("Halley's Comet")
