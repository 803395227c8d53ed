def find_anagrams(word, candidates):
    letters = sorted(word.lower())
    found = []
    for c in reversed(candidates):
        if c.lower() != word.lower() and sorted(c.lower()) == letters:
            found.append(c)
    return found
