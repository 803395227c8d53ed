# expect: incorrect
from collections import Counter

votes = ["coffee", "tea", "coffee", "water", "tea", "coffee"]
counts = Counter(votes)
for drink, count in counts.most_common():
    print(drink, count)
