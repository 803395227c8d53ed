first = "ada"
last = "lovelace"

# Tam ad: önce ad, bir boşluk, sonra soyadı.
full = ____
print(full.title())
print(len(full))

# Her adın ilk harfi, birleştirilmiş ve büyük harfle.
initials = ____
print(initials)
