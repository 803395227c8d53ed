"""Every problem code has a broken-lesson fixture that reports exactly that problem, in the right
file and on the right line (a warning's fixture loads, and the TODO scan reports it)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from codeblanks.content import load_courses
from codeblanks.content.codes import CODES
from codeblanks.content.giveaways import giveaways
from codeblanks.content.todos import leftover_todos

FIXTURES = Path(__file__).parent / "fixtures"
BROKEN = sorted(p for p in FIXTURES.iterdir() if p.name.startswith("content."))


def test_every_code_has_a_fixture_and_every_fixture_a_code():
    assert sorted(p.name for p in BROKEN) == sorted(CODES)


@pytest.mark.parametrize("name", ["valid", "translated"])
def test_the_valid_fixtures_load_without_problems(name):
    courses, problems = load_courses([FIXTURES / name])
    assert problems == []
    assert [lesson.id for course in courses for lesson in course.lessons] == ["sum-two"]


@pytest.mark.parametrize("folder", BROKEN, ids=lambda p: p.name)
def test_fixture_reports_exactly_its_code(folder: Path):
    expect = tomllib.loads((folder / "expect.toml").read_text())
    courses, problems = load_courses([folder])
    if ".W" in folder.name:  # a warning: the lesson loads, and the loader or a scan says it
        assert courses and all(p.warning for p in problems), "\n".join(map(str, problems))
        problems += [p for course in courses for p in leftover_todos(course.path)]
        problems += [p for course in courses for p in giveaways(course)]
    assert [p.code for p in problems] == [expect["code"]], "\n".join(map(str, problems))
    (found,) = problems
    assert found.path.resolve() == (folder / expect["file"]).resolve()
    assert found.line == expect.get("line")
    assert found.message and found.fix
    # a broken translation is left out, its lesson served in its own language
    if ".E" in folder.name and expect["file"].startswith("01-sum/tr/"):
        (lesson,) = courses[0].lessons
        assert lesson.in_language("tr") is lesson
        return
    # the broken lesson is left out (a warning's is served); nothing else is
    assert ".W" in folder.name or all(
        lesson.id != "sum-two" or course.path.name == "a"
        for course in courses
        for lesson in course.lessons
    )
