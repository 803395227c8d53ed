import unittest

from words import count_words


class WordCountTest(unittest.TestCase):
    def test_one_word(self):
        self.assertEqual(count_words("word"), {"word": 1})

    def test_repeated(self):
        self.assertEqual(
            count_words("one fish two fish red fish blue fish"),
            {"one": 1, "fish": 4, "two": 1, "red": 1, "blue": 1},
        )

    def test_case(self):
        self.assertEqual(count_words("Go go GO Stop stop"), {"go": 3, "stop": 2})

    def test_punctuation(self):
        self.assertEqual(
            count_words("car: carpet as java: javascript!!&@$%^&"),
            {"car": 1, "carpet": 1, "as": 1, "java": 1, "javascript": 1},
        )

    def test_apostrophes(self):
        self.assertEqual(
            count_words("Joe can't tell between large and large."),
            {"joe": 1, "can't": 1, "tell": 1, "between": 1, "large": 2, "and": 1},
        )
