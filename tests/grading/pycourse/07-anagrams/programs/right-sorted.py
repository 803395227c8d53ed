def find_anagrams(word, candidates):
    letters = sorted(word.lower())
    same = [c for c in candidates if sorted(c.lower()) == letters]
    return sorted(c for c in same if c.lower() != word.lower())
