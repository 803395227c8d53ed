def abbreviate(words):
    return ____
