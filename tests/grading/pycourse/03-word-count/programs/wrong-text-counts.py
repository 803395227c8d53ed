import re


def count_words(sentence):
    counts = {}
    for word in re.findall(r"[a-z0-9]+(?:'[a-z]+)?", sentence.lower()):
        counts[word] = str(int(counts.get(word, "0")) + 1)
    return counts
