"""A lesson's standard input (``[exercise] stdin``, a variant's ``stdin``): read as the text a
program is given, and refused in words, on its line, when it is not text, is too long, or holds
an escape gone wrong. (Too long has its fixture: fixtures/content.E115.)"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from codeblanks.content import load_courses
from codeblanks.content.model import MAX_STDIN_BYTES

VALID = Path(__file__).parent / "fixtures" / "valid"
HINTS_END = '  "Write `a + b` where the blank is.",\n]\n'
VARIANT_END = 'b = "-4"\n'


def with_lines(tmp_path: Path, exercise: str = "", variant: str = "") -> Path:
    """The valid course with ``exercise`` lines added to [exercise], ``variant`` lines to its
    one variant."""
    course = Path(shutil.copytree(VALID, tmp_path / "tiny"))
    toml = course / "01-sum" / "lesson.toml"
    text = toml.read_text()
    assert HINTS_END in text and VARIANT_END in text
    toml.write_text(
        text.replace(HINTS_END, HINTS_END + exercise).replace(VARIANT_END, VARIANT_END + variant)
    )
    return course


def line_of(course: Path, start: str) -> int:
    lines = (course / "01-sum" / "lesson.toml").read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if line.startswith(start))


def test_the_input_of_the_visible_case_and_of_a_variant_are_read(tmp_path: Path):
    course = with_lines(
        tmp_path, exercise='stdin = """\n2\n3\n"""\n', variant='stdin = "-3\\n\\t-4\\n"\n'
    )
    (loaded,), problems = load_courses([course])
    assert problems == []
    (lesson,) = loaded.lessons
    assert lesson.exercise.stdin == "2\n3\n"  # the line break after the opening quotes is TOML's
    (variant,) = lesson.exercise.grading.variants
    assert variant.stdin == "-3\n\t-4\n" and variant.values == {"a": "-3", "b": "-4"}


def test_a_lesson_without_input_gives_none():
    (loaded,), problems = load_courses([VALID])
    (lesson,) = loaded.lessons
    assert lesson.exercise.stdin == ""
    assert lesson.exercise.grading.variants[0].stdin is None


@pytest.mark.parametrize(
    ("exercise", "variant", "code", "where", "words"),
    [
        ("stdin = 42\n", "", "content.E011", "stdin", "`stdin` is a number; it must be a string"),
        ('stdin = ["2", "3"]\n', "", "content.E011", "stdin", "it must be a string"),
        ("", "stdin = 7\n", "content.E011", "stdin", "variant 1 `stdin` is a number"),
        ('stdin = "2\\r\\n3"\n', "", "content.E113", "stdin", "holds U+000D"),
        ("", 'stdin = "\\u001b[2J"\n', "content.E113", "stdin", "holds U+001B"),
        (f'stdin = "{"9" * (MAX_STDIN_BYTES + 1)}"\n', "", "content.E115", "stdin", "16384"),
    ],
)
def test_a_malformed_input_is_refused_on_its_line(
    tmp_path: Path, exercise: str, variant: str, code: str, where: str, words: str
):
    course = with_lines(tmp_path, exercise=exercise, variant=variant)
    courses, problems = load_courses([course])
    assert [p.code for p in problems] == [code], [str(p) for p in problems]
    (found,) = problems
    assert words in found.message
    assert found.line == line_of(course, where)
    assert found.fix
    assert not courses or not courses[0].lessons  # the broken lesson is left out
