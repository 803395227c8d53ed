# expect: incorrect
votes = ["coffee", "tea", "coffee", "water", "tea", "coffee"]
counts = {}
for drink in votes:
    # add one to this drink's count (it may not be in counts yet)
    counts[drink] = counts.get(drink, 0) + 1

# print each drink and its count, in the order the drinks were first voted for
for drink, count in sorted(counts.items()):
    print(drink, count)
