def first_repeat(words):
    """The first word of words that has come before, or None if no word comes twice."""
    seen = set()
    for word in words:
        ____
    ____


print(first_repeat(["the", "cat", "sat", "on", "the", "mat"]))
