def first_repeat(words):
    """words içinde daha önce gelmiş ilk sözcük; hiçbir sözcük iki kez gelmiyorsa None."""
    seen = set()
    for word in words:
        if word in seen:
            return word
        seen.add(word)
    return None


print(first_repeat(["the", "cat", "sat", "on", "the", "mat"]))
