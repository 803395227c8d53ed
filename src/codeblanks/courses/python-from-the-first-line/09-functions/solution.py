def initials(name, sep="."):
    letters = ""
    for word in name.split():
        letters = letters + word[0].upper() + sep
    return letters


print(initials("Ada Lovelace"))
print(initials("Alan Turing", "-"))
