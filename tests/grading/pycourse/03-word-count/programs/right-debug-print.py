import re


def count_words(sentence):
    counts = {}
    for word in re.findall(r"[a-z0-9]+(?:'[a-z]+)?", sentence.lower()):
        print("counting", word)
        counts[word] = counts.get(word, 0) + 1
    return counts


print(count_words("the cat and the hat"))
