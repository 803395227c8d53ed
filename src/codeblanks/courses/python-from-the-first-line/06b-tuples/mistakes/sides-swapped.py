def fibonacci(n):
    """A list of the first n Fibonacci numbers: 0, 1, 1, 2, 3, 5, 8, ..."""
    numbers = []
    a, b = 0, 1
    for i in range(n):
        numbers.append(a)
        a, b = a + b, b
    return numbers


print(fibonacci(10))
