def find_anagrams(word, candidates):
    """The candidates made of the letters of ``word`` (but not ``word`` itself)."""
    letters = sorted(word.lower())
    return [
        c for c in candidates if c.lower() != word.lower() and sorted(c.lower()) == letters
    ]
