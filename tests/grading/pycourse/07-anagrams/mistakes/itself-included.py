def find_anagrams(word, candidates):
    letters = sorted(word.lower())
    return [c for c in candidates if sorted(c.lower()) == letters]
