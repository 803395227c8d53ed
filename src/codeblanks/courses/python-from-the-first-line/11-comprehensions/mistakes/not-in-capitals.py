def long_words(words, n):
    return [word for word in words if len(word) >= n]


print(long_words(["sun", "planet", "moon", "galaxy"], 5))
