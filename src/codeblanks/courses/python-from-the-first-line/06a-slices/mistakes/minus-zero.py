def trim(readings, n):
    """A new list of the readings without the first n and the last n."""
    return readings[n:-n]


print(trim([5, 9, 10, 11, 10, 3, 1], 2))
