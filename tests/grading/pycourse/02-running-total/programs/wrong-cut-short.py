def running_total(numbers):
    totals, total = [], 0
    for number in numbers[:100_000]:
        total += number
        totals.append(total)
    return totals
