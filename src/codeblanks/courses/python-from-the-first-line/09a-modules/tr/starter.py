from collections import Counter


def top_words(text, k):
    """text'in en sık geçen k sözcüğü, küçük harfle, her biri sayısıyla."""
    words = ____
    counts = ____
    return ____


print(top_words("the cat and the hat and The bat", 2))
