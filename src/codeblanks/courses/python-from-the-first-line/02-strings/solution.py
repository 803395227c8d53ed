first = "ada"
last = "lovelace"

# The whole name: the first name, a space, then the last name.
full = first + " " + last
print(full.title())
print(len(full))

# The first letter of each name, joined and in capitals.
initials = (first[0] + last[0]).upper()
print(initials)
