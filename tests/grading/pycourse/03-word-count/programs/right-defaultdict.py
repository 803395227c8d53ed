import re
from collections import defaultdict


def count_words(sentence):
    counts = defaultdict(int)
    for word in re.findall(r"[a-z0-9]+(?:'[a-z]+)?", sentence.lower()):
        counts[word] += 1
    return counts
