def long_words(words, n):
    return [____]


print(long_words(["sun", "planet", "moon", "galaxy"], 5))
