def median(numbers):
    """The middle value of numbers once sorted; for an even count, the mean of the middle two."""
    ordered = sorted(numbers)
    middle = len(ordered) // 2
    if len(ordered) % 2 == 1:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def test_median():
    assert median([1, 2, 3]) == 2
    assert median([9, 4, 7]) == 7
    assert median([5, 3, 1, 2, 4]) == 3


test_median()
print("all tests pass")
