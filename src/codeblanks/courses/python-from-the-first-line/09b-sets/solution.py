def first_repeat(words):
    """The first word of words that has come before, or None if no word comes twice."""
    seen = set()
    for word in words:
        if word in seen:
            return word
        seen.add(word)
    return None


print(first_repeat(["the", "cat", "sat", "on", "the", "mat"]))
