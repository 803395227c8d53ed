def initials(name, sep="."):
    ____


print(initials("Ada Lovelace"))
print(initials("Alan Turing", "-"))
