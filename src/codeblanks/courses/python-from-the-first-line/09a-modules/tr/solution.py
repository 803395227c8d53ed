from collections import Counter


def top_words(text, k):
    """text'in en sık geçen k sözcüğü, küçük harfle, her biri sayısıyla."""
    words = text.lower().split()
    counts = Counter(words)
    return counts.most_common(k)


print(top_words("the cat and the hat and The bat", 2))
