def first_repeat(words):
    """words içinde daha önce gelmiş ilk sözcük; hiçbir sözcük iki kez gelmiyorsa None."""
    seen = set()
    for word in words:
        ____
    ____


print(first_repeat(["the", "cat", "sat", "on", "the", "mat"]))
