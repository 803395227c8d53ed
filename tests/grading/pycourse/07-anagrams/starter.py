def find_anagrams(word, candidates):
    return ____
