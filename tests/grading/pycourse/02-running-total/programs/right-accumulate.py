from itertools import accumulate


def running_total(numbers):
    return list(accumulate(numbers))
