from collections import Counter


def top_words(text, k):
    """The k most common words of text, small letters, each with its count."""
    words = ____
    counts = ____
    return ____


print(top_words("the cat and the hat and The bat", 2))
