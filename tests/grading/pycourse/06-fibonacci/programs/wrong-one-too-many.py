def fibonacci(count):
    a, b = 0, 1
    for _ in range(count + 1):
        yield a
        a, b = b, a + b
