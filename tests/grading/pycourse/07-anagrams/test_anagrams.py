import unittest

from anagrams import find_anagrams


class AnagramsTest(unittest.TestCase):
    def test_no_match(self):
        self.assertCountEqual(
            find_anagrams("diaper", ["hello", "world", "zombies", "pants"]), []
        )

    def test_two(self):
        self.assertCountEqual(
            find_anagrams("solemn", ["lemons", "cherry", "melons"]), ["lemons", "melons"]
        )

    def test_case(self):
        self.assertCountEqual(
            find_anagrams("Orchestra", ["cashregister", "Carthorse", "radishes"]),
            ["Carthorse"],
        )

    def test_itself(self):
        self.assertCountEqual(find_anagrams("BANANA", ["Banana", "nabana"]), ["nabana"])

    def test_many(self):
        self.assertCountEqual(
            find_anagrams(
                "allergy", ["gallery", "ballerina", "regally", "clergy", "largely"]
            ),
            ["gallery", "regally", "largely"],
        )
