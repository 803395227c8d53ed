def fibonacci(count):
    a, b = 0, 1
    for i in range(count):
        print("yielding number", i, "=", a)
        yield a
        a, b = b, a + b


print(list(fibonacci(3)))
