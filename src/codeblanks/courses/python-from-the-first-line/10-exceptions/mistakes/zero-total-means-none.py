def total_of(entries):
    total = 0
    for entry in entries:
        try:
            total = total + int(entry)
        except ValueError:
            pass
    if total == 0:
        raise ValueError("no numbers to add")
    return total


print(total_of(["3", "ten", "5"]))
