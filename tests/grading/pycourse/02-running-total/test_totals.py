import unittest

from totals import running_total


class RunningTotalTest(unittest.TestCase):
    def test_empty(self):
        self.assertEqual(running_total([]), [])

    def test_few(self):
        self.assertEqual(running_total([1, 2, 3, 4]), [1, 3, 6, 10])

    def test_negative(self):
        self.assertEqual(running_total([5, -2, -3]), [5, 3, 0])

    def test_fractions(self):
        self.assertEqual(running_total([0.5, 0.25, 0.125]), [0.5, 0.75, 0.875])

    def test_long(self):
        expected = [n * (n + 1) // 2 for n in range(200_000)]
        # assertTrue, not assertEqual: unittest's diff of two long lists takes minutes.
        self.assertTrue(running_total(list(range(200_000))) == expected)
