def fibonacci(count):
    numbers, a, b = [], 0, 1
    for _ in range(count):
        numbers.append(a)
        a, b = b, a + b
    return numbers
