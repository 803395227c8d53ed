def running_total(numbers):
    """The sum of ``numbers`` up to each of them, as a list."""
    totals = []
    total = 0
    for number in numbers:
        total += number
        totals.append(total)
    return totals
