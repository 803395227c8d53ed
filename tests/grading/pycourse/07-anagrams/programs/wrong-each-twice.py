def find_anagrams(word, candidates):
    letters = sorted(word.lower())
    found = [c for c in candidates if c.lower() != word.lower() and sorted(c.lower()) == letters]
    return found + found
