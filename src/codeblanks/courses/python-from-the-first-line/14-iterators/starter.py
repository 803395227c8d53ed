lines = ["Guests", "Ada", "Ben", "Cem"]

entries = iter(lines)
# Take the title from the iterator; "(no title)" when there is none.
title = ____
print(title.upper())

count = 0
# Go on through the same iterator: every line after the title.
for name in ____:
    count = count + 1
    print(count, name)
print(count, "entries")
