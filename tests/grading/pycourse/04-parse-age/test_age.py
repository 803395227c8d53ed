import unittest

from age import parse_age


class ParseAgeTest(unittest.TestCase):
    def test_plain(self):
        self.assertEqual(parse_age("42"), 42)

    def test_spaces(self):
        self.assertEqual(parse_age(" 7 "), 7)

    def test_not_a_number(self):
        with self.assertRaises(ValueError) as err:
            parse_age("forty")
        self.assertEqual(type(err.exception), ValueError)
        self.assertEqual(err.exception.args[0], "age must be a whole number")

    def test_negative(self):
        with self.assertRaises(ValueError) as err:
            parse_age("-3")
        self.assertEqual(type(err.exception), ValueError)
        self.assertEqual(err.exception.args[0], "age cannot be negative")
