# expect: incorrect
votes = ["coffee", "tea", "coffee", "water", "tea", "coffee"]
counts = {}
for drink in votes:
    counts[drink] = counts.get(drink, 0) + 1

for drink in sorted(counts, key=counts.get, reverse=True):
    print(drink, counts[drink])
