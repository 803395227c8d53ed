# expect: correct
votes = ["coffee", "tea", "coffee", "water", "tea", "coffee"]
counts = {}
for drink in votes:
    if drink in counts:
        counts[drink] += 1
    else:
        counts[drink] = 1

for drink in counts:
    print(drink, counts[drink])
