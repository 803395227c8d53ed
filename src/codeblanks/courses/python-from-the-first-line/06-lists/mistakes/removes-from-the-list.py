def above(numbers, limit):
    """A new list of the numbers that are greater than limit, in their order."""
    for n in list(numbers):
        if n <= limit:
            numbers.remove(n)
    return numbers


print(above([3, 8, 1, 9], 5))
