import unittest

from acronym import abbreviate


class AcronymTest(unittest.TestCase):
    def test_basic(self):
        self.assertEqual(abbreviate("Portable Network Graphics"), "PNG")

    def test_lowercase_words(self):
        self.assertEqual(abbreviate("Ruby on Rails"), "ROR")

    def test_hyphens(self):
        self.assertEqual(abbreviate("Complementary metal-oxide semiconductor"), "CMOS")

    def test_underscore_emphasis(self):
        self.assertEqual(abbreviate("The Road _Not_ Taken"), "TRNT")

    def test_apostrophes(self):
        self.assertEqual(abbreviate("Halley's Comet"), "HC")
