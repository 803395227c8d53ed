"""Small lessons built with the content model directly (so these tests do not depend on the
loader), and helpers to vary them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from codeblanks.content.functests import read_tests
from codeblanks.content.model import (
    BlankQuestion,
    Exercise,
    GradingSpec,
    Lesson,
    Mistake,
    Variant,
)

LESSONS = Path(__file__).parent / "lessons"


def make_lesson(
    folder: str,
    *,
    lesson_id: str | None = None,
    questions: tuple = (),
    messages: dict[str, str] | None = None,
    **grading,
) -> Lesson:
    """A lesson from the files in tests/grading/lessons/<folder>; ``grading`` are GradingSpec
    fields, ``messages`` maps mistake file names to their messages."""
    path = LESSONS / folder
    mistakes = tuple(
        Mistake(path / "mistakes" / name, (path / "mistakes" / name).read_text(), message)
        for name, message in (messages or {}).items()
    )
    spec = GradingSpec(mistakes=mistakes, **grading)
    exercise = Exercise(
        task_md="",
        filename="model.py",
        starter=(path / "starter.py").read_text(),
        solution=(path / "solution.py").read_text(),
        expected_output=(path / "expected.txt").read_text(),
        grading=spec,
        tests=_tests(path),
    )
    return Lesson(
        id=lesson_id or folder,
        uuid="00000000-0000-4000-8000-000000000000",
        title=folder,
        summary="",
        level="Beginner",
        course_id="tests",
        path=path,
        explanation_md="",
        exercise=exercise,
        questions=questions,
    )


def _tests(path: Path):
    if not (path / "tests.py").exists():
        return None
    problems: list = []
    tests = read_tests((path / "tests.py").read_text(), path / "tests.py", problems)
    assert not problems, problems
    return tests


AXIS_0 = "Normalise each row: softmax along axis=1, so every row of P sums to 1."

SOFTMAX_VARIANTS = (
    Variant("four random rows", {"S": "np.random.default_rng(7).normal(size=(4, 3))"}),
    Variant("wide rows", {"S": "np.arange(10.0).reshape(2, 5) / 3"}),
)


def with_grading(lesson: Lesson, **changes) -> Lesson:
    ex = lesson.exercise
    grading = dataclasses.replace(ex.grading, **changes)
    return dataclasses.replace(
        lesson, exercise=dataclasses.replace(ex, grading=grading), version=""
    )


def blank(code: str, answer: str, check: str = "value", **kw) -> BlankQuestion:
    return BlankQuestion(
        id=kw.pop("id", "q"),
        prompt="",
        code=code,
        answer=answer,
        explanation=kw.pop("explanation", "Because."),
        check=check,
        **kw,
    )
