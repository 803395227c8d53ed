lines = ["Guests", "Ada", "Ben", "Cem"]

entries = iter(lines)
title = lines[0]
print(title.upper())

count = 0
for name in lines[1:]:
    count = count + 1
    print(count, name)
print(count, "entries")
