votes = ["coffee", "tea", "coffee", "water", "tea", "coffee"]
counts = {}
for drink in votes:
    counts[drink] = counts.get(drink, 0) + 1

for drink in votes:
    print(drink, counts[drink])
