"""The proof that a ported exercise grades as its unittest file does: tests/grading/pycourse/ is a
course of plain-Python function exercises, each with the unittest file it was ported from
(test_<name>.py) and programs/ of right and wrong solutions (right-example.py is the unchanged
sample solution, which prints nothing). Every program is graded by CodeBlanks through the real
sandbox and run by ``python -m unittest`` against that file, and the two verdicts must agree --
and agree with the program's name, so that the fixture proves what it says."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from codeblanks.content import load_courses
from codeblanks.grading import grade, prove

PYCOURSE = Path(__file__).parent / "pycourse"


def _lessons():
    (course,), problems = load_courses([PYCOURSE])
    assert problems == []
    return course.lessons


LESSONS = {lesson.path.name: lesson for lesson in _lessons()}
PROGRAMS = [
    (folder, program.name)
    for folder, lesson in LESSONS.items()
    for program in sorted((lesson.path / "programs").glob("*.py"))
]


def unittest_passes(lesson, code: str, tmp_path: Path) -> bool:
    """Whether ``code``, saved as the exercise's file, passes the lesson's unittest file."""
    (unittest_file,) = lesson.path.glob("test_*.py")
    shutil.copy(unittest_file, tmp_path / unittest_file.name)
    (tmp_path / lesson.exercise.filename).write_text(code)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "unittest", "-q", unittest_file.stem],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return done.returncode == 0


def test_the_course_loads_as_function_exercises_without_expected_output():
    assert len(LESSONS) >= 6
    for lesson in LESSONS.values():
        assert lesson.exercise.tests is not None and not lesson.exercise.output_graded
        assert not (lesson.path / "expected.txt").exists()
        assert (lesson.path / "programs" / "right-example.py").read_text() == (
            lesson.exercise.solution
        )
        names = [p.stem for p in (lesson.path / "programs").glob("*.py")]
        assert len(names) >= 6 and any(n.startswith("wrong-") for n in names), lesson.id


@pytest.mark.parametrize(("folder", "program"), PROGRAMS)
def test_codeblanks_and_unittest_agree(folder, program, sandbox, tmp_path):
    lesson = LESSONS[folder]
    code = (lesson.path / "programs" / program).read_text()
    by_unittest = unittest_passes(lesson, code, tmp_path)
    g = grade(lesson, code, sandbox)
    assert g.verdict in ("correct", "incorrect", "error"), g.feedback
    assert g.correct == by_unittest, (g.verdict, g.feedback)
    assert by_unittest == program.startswith("right-"), "the program's name says otherwise"


@pytest.mark.parametrize("folder", sorted(LESSONS))
def test_check_proves_each_lesson(folder, sandbox):
    # The solution passes every test, the starter fails, and every mutant is rejected.
    assert prove(LESSONS[folder], sandbox) == []
