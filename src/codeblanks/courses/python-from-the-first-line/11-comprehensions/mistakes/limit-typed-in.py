def long_words(words, n):
    return [word.upper() for word in words if len(word) >= 5]


print(long_words(["sun", "planet", "moon", "galaxy"], 5))
