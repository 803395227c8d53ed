def initials(name, sep="."):
    harfler = ""
    for kelime in name.split():
        harfler = harfler + kelime[0].upper() + sep
    return harfler


print(initials("Ada Lovelace"))
print(initials("Alan Turing", "-"))
