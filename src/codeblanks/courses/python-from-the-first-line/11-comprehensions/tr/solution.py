def long_words(words, n):
    return [kelime.upper() for kelime in words if len(kelime) >= n]


print(long_words(["sun", "planet", "moon", "galaxy"], 5))
