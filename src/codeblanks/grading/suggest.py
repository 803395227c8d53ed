"""Mistake candidates from real programs (``codeblanks mistakes suggest``): the wrong programs
learners wrote that no declared mistake matches, graded again and grouped by what they do (the
same wrong values within the lesson's tolerance, the same error, on every case: ``behaves_like``),
most common first. Each group is a candidate mistake: one of its programs, how many there were,
where they fail and the grader's own words as a draft message for the author to rewrite.

The author decides: a candidate becomes a mistake only when copied into ``mistakes/`` and
declared in lesson.toml with its nudge and message.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from codeblanks.content.corpus import digest, normalise
from codeblanks.content.model import Lesson
from codeblanks.grading.grade import Grade, agrade_runs, judge, run_sync
from codeblanks.grading.mistakes import behaves_like, how_it_fails
from codeblanks.grading.verdicts import Verdict
from codeblanks.sandbox import RunResult
from codeblanks.sandbox.result import Runner

PLATFORM = {v.value for v in Verdict if v.platform}


@dataclass
class Candidate:
    """Programs that fail the same way, none matching a declared mistake."""

    code: str  # the shortest of them: the one to read
    grade: Grade  # its grade (the draft message is its feedback)
    runs: dict[str, RunResult]
    solution: dict[str, RunResult]
    count: int = 1
    programs: list[str] = field(default_factory=list)

    def failing(self, lesson: Lesson) -> list[str]:
        """Each case it fails, with what goes wrong there (the values, the output, an error)."""
        found = []
        for case, run in self.runs.items():
            sol = self.solution.get(case)
            if sol is None or not sol.ok:
                continue
            how = how_it_fails(lesson, run, sol)
            if how.error is not None:
                found.append(f"{case}: {how.verdict} ({how.error})")
            elif not how.right:
                parts = ([] if how.output else ["output"]) + sorted(how.wrong | how.tests)
                found.append(f"{case}: {', '.join(parts)}")
        return found


async def asuggest(lesson: Lesson, programs: Iterable[str], sandbox: Runner) -> list[Candidate]:
    """The candidates among ``programs`` (each graded once, one at a time: an author's tool
    must not crowd out learners), most programs first."""
    candidates: list[Candidate] = []
    seen: set[str] = set()
    for code in programs:
        code = normalise(code)
        if code in seen:
            continue
        seen.add(code)
        runs, ref, missing = await agrade_runs(lesson, code, sandbox, patient=True)
        ref = ref.trusted()
        grade = await asyncio.to_thread(judge, lesson, code, runs, ref, missing)
        if grade.correct or grade.verdict in PLATFORM or grade.mistake is not None:
            continue
        cases = {n for n, r in ref.solution.items() if r.ok and n in runs}
        for found in candidates:
            if set(found.runs) == set(runs) and behaves_like(lesson, runs, found.runs, cases):
                found.count += 1
                found.programs.append(code)
                if len(code) < len(found.code):
                    found.code, found.grade = code, grade
                break
        else:
            candidates.append(Candidate(code, grade, runs, ref.solution, programs=[code]))
    return sorted(candidates, key=lambda c: (-c.count, c.code))


def candidate_file(lesson: Lesson, candidate: Candidate, name: str) -> str:
    """The text of a candidate's file: a comment that says what it is, how many programs behave
    so, where they fail, and a draft declaration; then the program."""
    draft = " ".join(candidate.grade.feedback[:2]).replace('"', "'").replace("\n", " ")
    lines = [
        f"# candidate mistake: {candidate.count} real program"
        f"{'' if candidate.count == 1 else 's'} of this lesson behave like this one, and no "
        "declared mistake matches them",
        f"# verdict: {candidate.grade.verdict}",
        *(f"# fails on {where}" for where in candidate.failing(lesson)),
        "# to declare it, keep this file in mistakes/ (without these lines) and add to "
        "lesson.toml, in your own words:",
        "# [[grading.mistakes]]",
        f'# file = "mistakes/{name}"',
        '# nudge = "<a question that points at the mistake>"',
        f'# message = "{draft}"',
    ]
    return "\n".join(lines) + "\n" + candidate.code


def write_candidates(
    lesson: Lesson, candidates: list[Candidate], folder: Path, least: int = 1
) -> list[tuple[Candidate, Path]]:
    """Write each candidate of at least ``least`` programs into ``folder`` as
    ``candidate-<count>x-<hash>.py``; returns each written with its file, most programs first."""
    written = []
    for candidate in candidates:
        if candidate.count < least:
            continue
        name = f"candidate-{candidate.count}x-{digest(candidate.code)}.py"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        path.write_text(candidate_file(lesson, candidate, name), encoding="utf-8")
        written.append((candidate, path))
    return written


def wrong_in_corpus(lesson: Lesson) -> list[str]:
    """The programs of the lesson's ``corpus/`` recorded as wrong (any verdict but correct)."""
    return [p.code for p in lesson.corpus if p.expect and p.expect != Verdict.CORRECT]


def suggest_into(
    lesson: Lesson, programs: Iterable[str], folder: Path, sandbox: Runner, least: int = 1
) -> tuple[list[Candidate], list[tuple[Candidate, Path]]]:
    """Group ``programs`` and write the candidates of at least ``least`` programs into
    ``folder``: every candidate, and those written with their files."""
    candidates = run_sync(asuggest(lesson, programs, sandbox))
    return candidates, write_candidates(lesson, candidates, folder, least)


def summary(
    candidates: list[Candidate], written: list[tuple[Candidate, Path]], folder: Path
) -> list[str]:
    """What a command prints: one line a file, then the counts."""
    lines = [f"{path}  ({c.count}x: {' '.join(c.grade.feedback[:1])})" for c, path in written]
    grouped = sum(c.count for c in candidates)
    lines.append(
        f"{len(written)} candidate mistake file{'' if len(written) == 1 else 's'} written to "
        f"{folder}, from {grouped} wrong program{'' if grouped == 1 else 's'} that no declared "
        "mistake matches. Read each one, then declare it in lesson.toml or delete it."
    )
    return lines
