import unittest
from collections.abc import Iterator
from itertools import islice

from fib import fibonacci


class FibonacciTest(unittest.TestCase):
    def test_first_five(self):
        self.assertIsInstance(fibonacci(5), Iterator)
        self.assertEqual(list(islice(fibonacci(5), 10)), [0, 1, 1, 2, 3])

    def test_none(self):
        self.assertIsInstance(fibonacci(0), Iterator)
        self.assertEqual(list(islice(fibonacci(0), 10)), [])

    def test_thirty(self):
        expected = [0, 1]
        while len(expected) < 30:
            expected.append(expected[-1] + expected[-2])
        self.assertEqual(list(islice(fibonacci(30), 40)), expected)
