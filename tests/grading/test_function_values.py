"""Function tests' results compared as Python compares them, through the real sandbox: each test
grades a learner's program against a small function exercise written here (no expected.txt:
what the program prints is shown, never graded)."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest

from codeblanks.content import load_courses
from codeblanks.grading import grade


def function_lesson(tmp_path: Path, solution: str, tests: str, expected: str | None = None):
    """A course of one function exercise: ``solution``, its ``tests``, and ``expected`` as
    expected.txt (None: none)."""
    course = tmp_path / "course"
    folder = course / "01-f"
    folder.mkdir(parents=True)
    (course / "course.toml").write_text('id = "c"\ntitle = "C"\nsummary = "A course."\n')
    (folder / "lesson.toml").write_text(
        'id = "f"\nuuid = "5a0e2b1c-1d2e-4f3a-8b4c-5d6e7f8a9b0c"\ntitle = "F"\n'
        'summary = "A function."\nlevel = "Beginner"\n\n[exercise]\nfile = "f.py"\n'
    )
    (folder / "explanation.md").write_text("# F\n\nA function.\n")
    (folder / "task.md").write_text("Write the function.\n")
    (folder / "starter.py").write_text("def f(*args):\n    return ____\n")
    (folder / "solution.py").write_text(dedent(solution))
    (folder / "tests.py").write_text("from lessontest import raises, test\n\n" + dedent(tests))
    (folder / "questions.toml").write_text(
        '[[question]]\nkind = "choice"\nid = "q"\nprompt = "P?"\noptions = ["a", "b"]\n'
        'answer = "a"\nexplanation = "E."\n'
    )
    if expected is not None:
        (folder / "expected.txt").write_text(expected)
    (loaded,), problems = load_courses([course])
    assert problems == []
    return loaded.lessons[0]


ONE_TEST = """
@test("the result")
def result():
    return f()
"""


def verdict(tmp_path, solution: str, learner: str, tests: str = ONE_TEST):
    lesson = function_lesson(tmp_path, solution, tests)
    return grade(lesson, dedent(learner))


def test_a_generator_yielding_wrong_values_fails(tmp_path):
    solution = "def f():\n    yield from [1, 2, 3]\n"
    g = verdict(tmp_path, solution, "def f():\n    yield from [1, 2, 4]\n")
    assert not g.correct
    assert g.feedback == (
        "1 of 1 tests fails:",
        "The test “the result” gets a wrong result: the result at `[2]` is 4, but 3 is "
        "expected. It called `f()`.",
    )
    assert verdict(tmp_path / "b", solution, "def f():\n    return iter((1, 2, 3))\n").correct


def test_an_iterator_that_never_stops_is_told_so(tmp_path):
    solution = "def f():\n    return iter([1, 2, 3])\n"
    g = verdict(tmp_path, solution, "import itertools\n\ndef f():\n    return itertools.count(1)\n")
    assert not g.correct
    assert "an iterator that yields more than 100,000 values, but 3 are expected" in g.feedback[1]


def test_a_list_is_not_the_generator_that_is_expected(tmp_path):
    g = verdict(tmp_path, "def f():\n    yield 1\n", "def f():\n    return [1]\n")
    assert not g.correct
    assert "(of type `list`), but generator([1]) (of type `generator`)" in g.feedback[1]


def test_none_is_compared_both_ways(tmp_path):
    g = verdict(tmp_path, "def f():\n    return None\n", "def f():\n    return 0\n")
    assert not g.correct
    assert "the result is 0 (of type `int`), but None (of type `NoneType`)" in g.feedback[1]
    g = verdict(tmp_path / "b", "def f():\n    return 0\n", "def f():\n    pass\n")
    assert not g.correct and "it returned nothing (None)" in g.feedback[1]
    assert verdict(tmp_path / "c", "def f():\n    return None\n", "def f():\n    pass\n").correct


def test_a_long_result_that_differs_late_fails_and_is_summarised(tmp_path):
    solution = "def f():\n    return list(range(200_000))\n"
    learner = "def f():\n    return list(range(10_001)) + [0] * (200_000 - 10_001)\n"
    g = verdict(tmp_path, solution, learner)
    assert not g.correct
    assert g.feedback[1] == (
        "The test “the result” gets a wrong result: the result has 200,000 items, as expected, "
        "but 189,999 of them differ; the first: the result at `[10001]` is 0, but 10001 is "
        "expected. It called `f()`."
    )


def test_python_equality_float_int_counter_dict_namedtuple_tuple(tmp_path):
    pairs = [
        ("return 1", "return 1.0"),
        ("return {'a': 2, 'b': 1}", "import collections\n    return collections.Counter('aab')"),
        (
            "return (1, 2)",
            "import collections\n    return collections.namedtuple('P', 'x y')(1, 2)",
        ),
        ("return {1, 2}", "return frozenset([2.0, 1])"),
        ("return [0.3]", "return [0.1 + 0.2]"),
    ]
    for i, (theirs, mine) in enumerate(pairs):
        g = verdict(tmp_path / str(i), f"def f():\n    {theirs}\n", f"def f():\n    {mine}\n")
        assert g.correct, (mine, g.feedback)


def test_exact_asks_for_the_same_types(tmp_path):
    tests = '@test("the result", exact=True)\ndef result():\n    return f()\n'
    g = verdict(tmp_path, "def f():\n    return 1\n", "def f():\n    return 1.0\n", tests)
    assert g.feedback[1] == (
        "The test “the result” gets a wrong result: the result is 1.0 (of type `float`), but 1 "
        "(of type `int`) is expected: this test asks for the exact type. It called `f()`."
    )
    assert verdict(tmp_path / "b", "def f():\n    return 1\n", "def f():\n    return 1\n", tests)


def test_a_list_in_another_order_fails_unless_unordered(tmp_path):
    solution, learner = "def f():\n    return [1, 2, 3]\n", "def f():\n    return {3, 2, 1}\n"
    assert not verdict(tmp_path, solution, learner).correct
    tests = '@test("the result", unordered=True)\ndef result():\n    return f()\n'
    assert verdict(tmp_path / "b", solution, learner, tests).correct
    g = verdict(tmp_path / "c", solution, "def f():\n    return [3, 2, 2]\n", tests)
    assert "the result holds 2 where 1 is expected (in any order)." in g.feedback[1]


def test_float32_round_off_is_accepted_and_more_is_not(tmp_path):
    solution = "import numpy as np\n\ndef f():\n    return [np.arange(1, 4) / 3]\n"
    learner = (
        "import numpy as np\n\ndef f():\n    return [(np.arange(1, 4) / 3).astype(np.float32)]\n"
    )
    assert verdict(tmp_path, solution, learner).correct
    off = "import numpy as np\n\ndef f():\n    return [np.arange(1, 4) / 3 + 1e-3]\n"
    assert not verdict(tmp_path / "b", solution, off).correct


def test_raises_can_ask_for_the_exact_type_and_message(tmp_path):
    solution = "def f(x):\n    raise ValueError('x must be positive')\n"
    tests = (
        '@test("refuses")\ndef refuses():\n'
        '    with raises(ValueError, message="x must be positive", exact=True):\n        f(-1)\n'
    )
    lesson = function_lesson(tmp_path, solution, tests)
    assert grade(lesson, solution).correct
    other = grade(lesson, "def f(x):\n    raise ValueError('negative')\n")
    assert other.feedback[1] == (
        "The test “refuses” fails: ValueError was raised with the message 'negative', but the "
        "message 'x must be positive' is expected. It called `f(-1)`."
    )
    sub = "class E(ValueError):\n    pass\n\ndef f(x):\n    raise E('x must be positive')\n"
    assert grade(lesson, sub).feedback[1] == (
        "The test “refuses” fails: E was raised, but exactly ValueError is expected. "
        "It called `f(-1)`."
    )


def test_every_failing_test_is_listed_hidden_ones_by_name(tmp_path):
    tests = "".join(
        f'@test("t{i}"{", hidden=True" if i % 2 else ""})\ndef t{i}():\n    return f({i})\n\n'
        for i in range(9)
    )
    lesson = function_lesson(tmp_path, "def f(x):\n    return x\n", tests)
    g = grade(lesson, "def f(x):\n    return x if x not in (2, 3, 8) else -x\n")
    assert g.feedback == (
        "3 of 9 tests fail:",
        "The test “t2” gets a wrong result: the result is -2, but 2 is expected. It called `f(2)`.",
        "The hidden test “t3” gets a wrong result: the result is -3, but 3 is expected. It "
        "called `f(3)`.",
        "The test “t8” gets a wrong result: the result is -8, but 8 is expected. It called `f(8)`.",
    )


def test_prints_are_shown_and_never_graded_without_expected_output(tmp_path):
    solution = "def f():\n    return 3\n"
    lesson = function_lesson(tmp_path, solution, ONE_TEST)
    assert not lesson.exercise.output_graded
    g = grade(lesson, "def f():\n    print('debugging')\n    return 3\n\nprint('hello', f())\n")
    # The program's own run is shown; the same print during the test goes nowhere.
    assert g.correct and g.stdout == "debugging\nhello 3\n"
    assert grade(lesson, solution).correct  # prints nothing: nothing to compare


def test_with_expected_output_the_print_is_still_graded(tmp_path):
    lesson = function_lesson(tmp_path, "def f():\n    return 3\n\nprint(f())\n", ONE_TEST, "3\n")
    assert lesson.exercise.output_graded
    g = grade(lesson, "def f():\n    return 3\n")
    assert not g.correct and g.feedback[0] == "Your program printed nothing."


def test_a_result_too_large_to_compare_is_said_so(tmp_path):
    solution = "def f():\n    return 'x'\n"
    g = verdict(tmp_path, solution, "def f():\n    return 'x' * 5_000_000\n")
    assert g.feedback[1] == (
        "The test “the result” gets a result too large to compare. It called `f()`."
    )


@pytest.mark.parametrize(
    ("mine", "said"),
    [
        ("{'a': 1}", "the result lacks the key 'b'."),
        ("{'b': 1, 'a': 2}", "the result has the key 'a', which is not expected."),
        ("{'b': [1, (2, 4)]}", "the result at `['b'][1][1]` is 4, but 3 is expected."),
        ("[1]", "the result is [1] (of type `list`), but {'b': [1, (2, 3)]} (of type `dict`)"),
    ],
)
def test_a_mapping_says_where_it_differs(tmp_path, mine, said):
    g = verdict(
        tmp_path, "def f():\n    return {'b': [1, (2, 3)]}\n", f"def f():\n    return {mine}\n"
    )
    assert said in g.feedback[1]
