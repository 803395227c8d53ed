lines = ["Guests", "Ada", "Ben", "Cem"]

entries = iter(lines)
title = next(entries, "(no title)")
print(title.upper())

count = 0
for name in lines:
    count = count + 1
    print(count, name)
print(count, "entries")
