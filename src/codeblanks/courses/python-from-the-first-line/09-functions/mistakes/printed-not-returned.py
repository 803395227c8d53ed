def initials(name, sep="."):
    letters = ""
    for word in name.split():
        letters = letters + word[0].upper() + sep
    print(letters)


initials("Ada Lovelace")
initials("Alan Turing", "-")
