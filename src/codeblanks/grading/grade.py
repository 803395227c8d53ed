"""TEMPORARY: exact comparison of the visible case only. The grading issue replaces the insides;
the interface (``grade``, ``agrade``, ``Grade``) stays."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from codeblanks.content.model import Lesson
from codeblanks.sandbox import RunLimits, RunResult, get_sandbox

CORRECT = "correct"
INCORRECT = "incorrect"


@dataclass(frozen=True)
class Grade:
    verdict: str  # correct | incorrect | a run failure verdict (error, timeout, ...)
    stdout: str
    stderr: str
    expected: str
    feedback: tuple[str, ...] = ()
    case: str | None = None  # which case failed: "visible" or a variant's name
    duration_ms: float = 0.0

    @property
    def correct(self) -> bool:
        return self.verdict == CORRECT

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "expected": self.expected,
            "feedback": list(self.feedback),
            "case": self.case,
            "duration_ms": round(self.duration_ms, 3),
        }


def _normalise(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").split("\n")).strip("\n")


def _judge(lesson: Lesson, run: RunResult) -> Grade:
    expected = lesson.exercise.expected_output
    if not run.ok:
        return Grade(run.verdict, run.stdout, run.stderr, expected, ("The program failed.",),
                     "visible", run.duration_ms)
    if _normalise(run.stdout) == _normalise(expected):
        return Grade(CORRECT, run.stdout, run.stderr, expected, (), None, run.duration_ms)
    return Grade(INCORRECT, run.stdout, run.stderr, expected,
                 ("The output differs from the expected output.",), "visible", run.duration_ms)


def grade(lesson: Lesson, code: str, sandbox=None) -> Grade:
    sandbox = sandbox or get_sandbox()
    run = sandbox.run(code, filename=lesson.exercise.filename, limits=RunLimits())
    return _judge(lesson, run)


async def agrade(lesson: Lesson, code: str, sandbox=None) -> Grade:
    sandbox = sandbox or get_sandbox()
    run = await sandbox.arun(code, filename=lesson.exercise.filename, limits=RunLimits())
    return _judge(lesson, run)
