def long_words(words, n):
    return [len(word) >= n for word in words]


print(long_words(["sun", "planet", "moon", "galaxy"], 5))
