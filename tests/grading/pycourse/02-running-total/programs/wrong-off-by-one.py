def running_total(numbers):
    totals, total = [], 0
    for number in numbers:
        totals.append(total)
        total += number
    return totals
