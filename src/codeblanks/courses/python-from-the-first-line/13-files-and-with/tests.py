from lessontest import test


def read_text(path):
    with open(path) as f:
        return f.read()


@test("save three items")
def save_three():
    save_list("groceries.txt", ["bread", "apples", "rice"])
    return read_text("groceries.txt")


@test("load a file of two lines")
def load_two():
    with open("colours.txt", "w") as f:
        f.write("red\nsea green\n")
    return load_list("colours.txt")


@test("load what was saved")
def round_trip():
    save_list("tasks.txt", ["wash up", "call Ana", "water plants"])
    return load_list("tasks.txt")


@test("saving again replaces the old list", hidden=True)
def save_again():
    save_list("again.txt", ["one", "two", "three"])
    save_list("again.txt", ["four"])
    return read_text("again.txt")


@test("a last line without a line break", hidden=True)
def no_final_break():
    with open("ends.txt", "w") as f:
        f.write("first\nlast")
    return load_list("ends.txt")


@test("saving no items makes an empty file", hidden=True)
def save_nothing():
    save_list("empty.txt", [])
    return [read_text("empty.txt"), load_list("empty.txt")]
