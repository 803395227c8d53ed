def above(numbers, limit):
    """A new list of the numbers that are greater than limit, in their order."""
    result = []
    for n in numbers:
        if n >= limit:
            result.append(n)
    return result


print(above([3, 8, 1, 9], 5))
