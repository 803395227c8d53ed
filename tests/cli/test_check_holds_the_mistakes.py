"""A lesson's mistakes/ and its solution count as its corpus: `check` grades
each again and holds its verdict, so removing a hidden case that alone refuses one is an
error, as for a corpus/ program. On a copy of py-dictionaries: without its variant "a drink
first voted for later gets more votes" (and the `must_fail` that names it), the declared
mistake that sorts by the counts is judged correct (grading.E003), and so are the two corpus
programs that sort by the counts (grading.E040), in both languages; the copy as it is proves
clean."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from codeblanks.cli.main import main

COURSE = Path(__file__).parents[2] / "src" / "codeblanks" / "courses" / "python-from-the-first-line"
LESSON = "08-dictionaries"
CASE = "a drink first voted for later gets more votes"


def _copy(tmp_path: Path) -> Path:
    """The course with this one lesson (and its translation)."""
    course = tmp_path / "python-from-the-first-line"
    course.mkdir()
    text = (COURSE / "course.toml").read_text(encoding="utf-8")
    text = re.sub(r"^order = \[.*?\]\n", 'order = ["py-dictionaries"]\n', text, flags=re.M | re.S)
    (course / "course.toml").write_text(text, encoding="utf-8")
    shutil.copytree(COURSE / "tr", course / "tr")
    shutil.copytree(COURSE / LESSON, course / LESSON)
    toml = course / LESSON / "lesson.toml"
    toml.write_text(re.sub(r"^uses = .*\n", "", toml.read_text("utf-8"), flags=re.M), "utf-8")
    return course


def _without_the_case(lesson: Path) -> None:
    toml = lesson / "lesson.toml"
    text = toml.read_text(encoding="utf-8")
    variant = rf'\n\[\[grading\.variants\]\]\nname = "{CASE}"\nvotes = .*\n'
    text, found = re.subn(variant, "\n", text)
    assert found == 1
    text, found = re.subn(rf'^must_fail = \["{CASE}"\]\n', "", text, flags=re.M)
    assert found == 1
    toml.write_text(text, encoding="utf-8")
    toml = lesson / "tr" / "lesson.toml"
    text = toml.read_text(encoding="utf-8")
    text, found = re.subn(r'(variants = \[\n  ".*?",\n)  ".*?",\n', r"\1", text)
    assert found == 1
    toml.write_text(text, encoding="utf-8")


def test_check_fails_naming_the_mistake_and_the_real_programs_the_case_alone_refused(
    capsys, tmp_path
):
    course = _copy(tmp_path)
    assert main(["check", str(course)]) == 0, capsys.readouterr().out
    capsys.readouterr()

    _without_the_case(course / LESSON)
    assert main(["check", str(course)]) == 1
    out = capsys.readouterr().out
    errors = [line for line in out.splitlines() if re.match(r"\w+\.E\d+ ", line)]
    found = sorted((line.split()[0], Path(line.split()[1].split(":")[0]).name) for line in errors)
    expected = [
        ("grading.E003", "most-votes-first.py"),
        ("grading.E040", "most-common.py"),
        ("grading.E040", "sorted-by-count.py"),
    ]
    assert found == sorted(expected * 2), out  # in English and in Turkish
