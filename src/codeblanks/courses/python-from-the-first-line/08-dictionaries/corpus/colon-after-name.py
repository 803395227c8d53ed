# expect: incorrect
votes = ["coffee", "tea", "coffee", "water", "tea", "coffee"]
counts = {}
for drink in votes:
    counts[drink] = counts.get(drink, 0) + 1

for drink, count in counts.items():
    print(f"{drink}: {count}")
