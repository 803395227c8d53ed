def fibonacci(count):
    """The first ``count`` Fibonacci numbers, one at a time."""
    a, b = 0, 1
    for _ in range(count):
        yield a
        a, b = b, a + b
