def find_anagrams(word, candidates):
    return [c for c in candidates if c != word and sorted(c) == sorted(word)]
