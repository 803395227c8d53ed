import re


def abbreviate(words):
    return "".join(w[0] for w in re.findall(r"[A-Za-z']+", words)).upper()
