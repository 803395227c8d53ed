def total_of(entries):
    total = 0
    for entry in entries:
        try:
            total = total + int(entry)
        except ValueError:
            pass
    return total


print(total_of(["3", "ten", "5"]))
