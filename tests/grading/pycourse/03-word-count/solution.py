import re

WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def count_words(sentence):
    """Each word of ``sentence`` (in lower case) and how often it occurs."""
    counts = {}
    for word in WORD.findall(sentence.lower()):
        counts[word] = counts.get(word, 0) + 1
    return counts
