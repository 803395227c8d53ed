def total_of(entries):
    total = 0
    found = 0
    for entry in entries:
        # add the entry to total if int() can read it, and skip it if not
        try:
            number = int(entry)
        except ValueError:
            continue
        total = total + number
        found = found + 1
    if found == 0:
        raise ValueError("no numbers to add")
    return total


print(total_of(["3", "ten", "5"]))
