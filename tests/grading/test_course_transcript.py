"""The golden transcript of the built-in courses: every lesson's solution, starter and anticipated
mistakes graded through the real sandbox, with the verdict, the failing case and the words the
learner would read, compared with the committed tests/grading/course-transcript.txt.

A change to a lesson or to the grader that changes what a learner is told shows up as a diff of
that file in review. To accept the new words, regenerate it and read the diff:

    CODEBLANKS_UPDATE_TRANSCRIPT=1 .venv/bin/pytest tests/grading/test_course_transcript.py
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from codeblanks.content import load_courses
from codeblanks.grading import agrade

TRANSCRIPT = Path(__file__).with_name("course-transcript.txt")


async def _lesson_lines(lesson, sandbox) -> list[str]:
    ex = lesson.exercise
    programs = [("solution", ex.solution), ("starter", ex.starter)]
    programs += [(m.path.relative_to(lesson.path).as_posix(), m.code) for m in ex.grading.mistakes]
    # One grade at a time: the transcript is about words, not about a crowd (no `busy` here).
    grades = [await agrade(lesson, code, sandbox) for _, code in programs]
    lines = [f"## {lesson.id} ({lesson.level})"]
    for (name, _), g in zip(programs, grades, strict=True):
        where = f" [{g.case}]" if g.case and not g.correct else ""
        at = f" line {g.line}" if g.line else ""
        assert g.verdict not in ("busy", "sandbox-error"), (lesson.id, name, g.verdict)
        lines.append(f"{name}: {g.verdict}{where}{at}")
        lines += [f"  | {sentence}" for sentence in g.feedback]
    return lines


def transcript(sandbox) -> str:
    courses, problems = load_courses()
    assert not problems, [str(p) for p in problems]
    lines: list[str] = []
    for course in courses:
        lines.append(f"# {course.id}")
        for lesson in course.lessons:
            lines += asyncio.run(_lesson_lines(lesson, sandbox))
    return "\n".join(lines) + "\n"


def test_what_learners_are_told_matches_the_committed_transcript(sandbox):
    now = transcript(sandbox)
    if os.environ.get("CODEBLANKS_UPDATE_TRANSCRIPT") == "1":
        TRANSCRIPT.write_text(now, encoding="utf-8")
    committed = TRANSCRIPT.read_text(encoding="utf-8") if TRANSCRIPT.exists() else ""
    assert now == committed, (
        "the built-in courses' verdicts or messages changed; review and regenerate with "
        "CODEBLANKS_UPDATE_TRANSCRIPT=1 (see this module's docstring)"
    )


def test_every_solution_passes_and_every_mistake_fails():
    """The transcript itself must say the obvious: solutions correct, the rest not."""
    text = TRANSCRIPT.read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.startswith("solution: "):
            assert line == "solution: correct", line
        elif line.startswith(("starter: ", "mistakes/")):
            assert not line.split(": ", 1)[1].startswith("correct"), line
