def running_total(numbers, start=0, total=0):
    if start == len(numbers):
        return []
    total += numbers[start]
    return [total] + running_total(numbers, start + 1, total)
