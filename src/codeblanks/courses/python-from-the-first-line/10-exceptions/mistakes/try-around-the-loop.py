def total_of(entries):
    total = 0
    found = 0
    try:
        for entry in entries:
            total = total + int(entry)
            found = found + 1
    except ValueError:
        pass
    if found == 0:
        raise ValueError("no numbers to add")
    return total


print(total_of(["3", "ten", "5"]))
