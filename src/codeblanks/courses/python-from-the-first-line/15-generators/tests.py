from lessontest import test


@test("six numbers in pairs")
def pairs():
    return chunks([1, 2, 3, 4, 5, 6], 2)


@test("six words in threes")
def threes():
    return chunks(["red", "green", "blue", "cyan", "pink", "gold"], 3)


@test("a shorter last chunk", hidden=True)
def shorter_last():
    return chunks([10, 20, 30, 40, 50], 2)


@test("chunks of a generator", hidden=True)
def of_a_generator():
    return chunks((n * n for n in range(9)), 3)


@test("takes only what it needs", hidden=True)
def lazy():
    def readings():
        yield 7
        yield 8
        raise RuntimeError("chunks read past the first chunk")

    return next(chunks(readings(), 2))
