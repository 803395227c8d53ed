def total_of(entries):
    total = 0
    found = 0
    for entry in entries:
        if entry.isdigit():
            total = total + int(entry)
            found = found + 1
    if found == 0:
        raise ValueError("no numbers to add")
    return total


print(total_of(["3", "ten", "5"]))
