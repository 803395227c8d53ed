import re

WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def count_words(sentence):
    return ____
