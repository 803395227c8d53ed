first = "ada"
last = "lovelace"

# Tam ad: önce ad, bir boşluk, sonra soyadı.
full = first + " " + last
print(full.title())
print(len(full))

# Her adın ilk harfi, birleştirilmiş ve büyük harfle.
initials = (first[0] + last[0]).upper()
print(initials)
