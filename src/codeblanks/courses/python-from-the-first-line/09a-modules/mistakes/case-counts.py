from collections import Counter


def top_words(text, k):
    """The k most common words of text, small letters, each with its count."""
    words = text.split()
    counts = Counter(words)
    return counts.most_common(k)


print(top_words("the cat and the hat and The bat", 2))
