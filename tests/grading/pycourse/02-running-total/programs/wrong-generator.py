def running_total(numbers):
    total = 0
    for number in numbers:
        total += number
        yield total
