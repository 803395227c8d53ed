from types import FunctionType

from lessontest import raises, test


def right_median(numbers):
    ordered = sorted(numbers)
    middle = len(ordered) // 2
    if len(ordered) % 2 == 1:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def unsorted_median(numbers):
    middle = len(numbers) // 2
    if len(numbers) % 2 == 1:
        return numbers[middle]
    return (numbers[middle - 1] + numbers[middle]) / 2


def one_middle_median(numbers):
    ordered = sorted(numbers)
    return ordered[len(ordered) // 2]


def floor_median(numbers):
    ordered = sorted(numbers)
    middle = len(ordered) // 2
    if len(ordered) % 2 == 1:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) // 2


def run_with(median_to_test):
    """Run the learner's test_median with median_to_test in place of their median."""
    tests = getattr(test_median, "__wrapped__", test_median)  # the grader may wrap it
    names = dict(tests.__globals__)
    names["median"] = median_to_test
    FunctionType(tests.__code__, names)()


@test("your tests pass on a right median")
def pass_on_right():
    run_with(right_median)


@test("they catch a median that does not sort")
def catch_unsorted():
    with raises(AssertionError):
        run_with(unsorted_median)


@test("they catch a median that returns one middle value of an even count")
def catch_one_middle():
    with raises(AssertionError):
        run_with(one_middle_median)


@test("they catch a median that divides with //", hidden=True)
def catch_floor():
    with raises(AssertionError):
        run_with(floor_median)
