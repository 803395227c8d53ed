# expect: correct
from collections import Counter

votes = ["coffee", "tea", "coffee", "water", "tea", "coffee"]
for drink, count in Counter(votes).items():
    print(drink, count)
