def median(numbers):
    """numbers sıralanınca ortadaki değer; çift sayıda elemanda ortadaki ikisinin ortalaması."""
    ordered = sorted(numbers)
    middle = len(ordered) // 2
    if len(ordered) % 2 == 1:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def test_median():
    assert median([1, 2, 3]) == 2
    assert median([9, 4, 7]) == 7
    assert median([8, 1, 2, 5]) == 3.5


test_median()
print("all tests pass")
