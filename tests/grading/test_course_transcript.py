"""The golden transcript of the built-in courses: every lesson's solution, starter and anticipated
mistakes graded through the real sandbox, with the verdict, the failing case and the words the
learner would read, compared with the committed tests/grading/course-transcript.txt.

A change to a lesson or to the grader that changes what a learner is told shows up as a diff of
that file in review. To accept the new words, regenerate it and read the diff:

    CODEBLANKS_UPDATE_TRANSCRIPT=1 .venv/bin/pytest tests/grading/test_course_transcript.py

The proof of the built-in lessons (tests/grading/conftest.py, once per run) has graded these
programs already, exactly as ``agrade`` does: the transcript reads those grades, and a test
here grades a lesson of each kind again with ``agrade`` to show they are the same.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from codeblanks.content import load_courses
from codeblanks.grading import Grade, agrade

from .conftest import program_names

TRANSCRIPT = Path(__file__).with_name("course-transcript.txt")


async def _graded(lesson, sandbox) -> dict[str, Grade]:
    """Each program graded as a learner's, one grade at a time: the transcript is about words,
    not about a crowd (no `busy` here)."""
    ex = lesson.exercise
    codes = [ex.solution, ex.starter, *(m.code for m in ex.grading.mistakes)]
    names = program_names(lesson)
    return {
        name: await agrade(lesson, code, sandbox) for name, code in zip(names, codes, strict=True)
    }


def _lesson_lines(lesson, grades: dict[str, Grade]) -> list[str]:
    lines = [f"## {lesson.id} ({lesson.level})"]
    for name in program_names(lesson):
        g = grades[name]
        where = f" [{g.case}]" if g.case and not g.correct else ""
        at = f" line {g.line}" if g.line else ""
        assert g.verdict not in ("busy", "sandbox-error"), (lesson.id, name, g.verdict)
        lines.append(f"{name}: {g.verdict}{where}{at}")
        lines += [f"  | {sentence}" for sentence in g.feedback]
    return lines


def _built_in_lessons():
    courses, problems = load_courses()
    assert not problems, [str(p) for p in problems]
    return courses


def transcript(sandbox, shared_proofs) -> str:
    """The grades come from the shared proof of the built-in lessons (``conftest.py``), where
    they are the very grades ``agrade`` gives (``learner_grades``; the test below compares
    some), else from ``agrade`` here."""
    lines: list[str] = []
    for course in _built_in_lessons():
        lines.append(f"# {course.id}")
        for lesson in course.lessons:
            proof = shared_proofs(lesson)
            grades = proof.grades if proof is not None else None
            lines += _lesson_lines(lesson, grades or asyncio.run(_graded(lesson, sandbox)))
    return "\n".join(lines) + "\n"


def test_what_learners_are_told_matches_the_committed_transcript(sandbox, shared_proofs):
    now = transcript(sandbox, shared_proofs)
    if os.environ.get("CODEBLANKS_UPDATE_TRANSCRIPT") == "1":
        TRANSCRIPT.write_text(now, encoding="utf-8")
    committed = TRANSCRIPT.read_text(encoding="utf-8") if TRANSCRIPT.exists() else ""
    assert now == committed, (
        "the built-in courses' verdicts or messages changed; review and regenerate with "
        "CODEBLANKS_UPDATE_TRANSCRIPT=1 (see this module's docstring)"
    )


def _as_shown(g: Grade) -> dict:
    """Everything a grade tells, but how long the visible run took."""
    return {k: v for k, v in g.to_json().items() if k != "duration_ms"}


def _samples(shared_proofs) -> list:
    """A built-in lesson for each kind of grade the transcript holds (verdict, on the visible
    case or a hidden one, naming a mistake or not), the first that has it."""
    chosen: dict[tuple, object] = {}
    for course in _built_in_lessons():
        for lesson in course.lessons:
            proof = shared_proofs(lesson)
            for g in (proof.grades or {}).values() if proof is not None else ():
                kind = (g.verdict, g.case == "visible", g.mistake is None)
                chosen.setdefault(kind, lesson)
    return list({lesson.id: lesson for lesson in chosen.values()}.values())


def test_the_shared_proof_grades_as_agrade_does(sandbox, shared_proofs):
    samples = _samples(shared_proofs)
    assert len(samples) >= 3
    for lesson in samples:
        proof = shared_proofs(lesson)
        mine = asyncio.run(_graded(lesson, sandbox))
        assert {n: _as_shown(g) for n, g in proof.grades.items()} == {
            n: _as_shown(g) for n, g in mine.items()
        }, lesson.id


def test_every_solution_passes_and_every_mistake_fails():
    """The transcript itself must say the obvious: solutions correct, the rest not."""
    text = TRANSCRIPT.read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.startswith("solution: "):
            assert line == "solution: correct", line
        elif line.startswith(("starter: ", "mistakes/")):
            assert not line.split(": ", 1)[1].startswith("correct"), line
