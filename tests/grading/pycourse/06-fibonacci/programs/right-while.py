def fibonacci(count):
    a, b, made = 0, 1, 0
    while made < count:
        yield a
        a, b, made = b, a + b, made + 1
