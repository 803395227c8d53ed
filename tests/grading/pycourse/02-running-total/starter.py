def running_total(numbers):
    return ____
