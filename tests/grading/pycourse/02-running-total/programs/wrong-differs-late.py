def running_total(numbers):
    totals, total = [], 0
    for i, number in enumerate(numbers):
        total += number if i <= 10_000 else number - 1
        totals.append(total)
    return totals
