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
from codeblanks.grading.mistakes import Failure, behaves_like, how_it_fails
from codeblanks.grading.verdicts import Verdict
from codeblanks.sandbox import RunResult
from codeblanks.sandbox.result import Runner


@dataclass(frozen=True)
class Graded:
    """One program graded again: its grade, its runs and the solution's runs they compare to."""

    code: str
    grade: Grade
    runs: dict[str, RunResult]
    solution: dict[str, RunResult]

    @property
    def unmatched(self) -> bool:
        """Wrong by the learner's doing, and no declared mistake matches it: a candidate's."""
        grade = self.grade
        return not grade.correct and not grade.verdict.platform and grade.mistake is None


@dataclass
class Candidate:
    """Programs that fail the same way, none matching a declared mistake."""

    code: str  # the shortest of them: the one to read
    grade: Grade  # its grade (the draft message is its feedback)
    runs: dict[str, RunResult]
    solution: dict[str, RunResult]
    count: int = 1
    programs: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        """Its file's name, which the command line prints and the item analysis page shows:
        the same programs get the same name wherever they are grouped."""
        return f"candidate-{self.count}x-{digest(self.code)}.py"

    def fails(self, lesson: Lesson) -> list[tuple[str, Failure]]:
        """Each case it fails, with how it goes wrong there (the values, the output, an error)."""
        found = []
        for case, run in self.runs.items():
            sol = self.solution.get(case)
            if sol is None or not sol.ok:
                continue
            how = how_it_fails(lesson, run, sol)
            if how.error is not None or not how.right:
                found.append((case, how))
        return found

    def failing(self, lesson: Lesson) -> list[str]:
        """``fails`` in an author's words, one line a case."""
        found = []
        for case, how in self.fails(lesson):
            if how.error is not None:
                found.append(f"{case}: {how.verdict} ({how.error})")
            else:
                parts = ([] if how.output else ["output"]) + sorted(how.wrong | how.tests)
                found.append(f"{case}: {', '.join(parts)}")
        return found


async def agraded(lesson: Lesson, code: str, sandbox: Runner) -> Graded:
    """``code`` graded again, patiently (an author's or a teacher's tool waits its turn)."""
    runs, ref, missing = await agrade_runs(lesson, code, sandbox, patient=True)
    ref = ref.trusted()
    grade = await asyncio.to_thread(judge, lesson, code, runs, ref, missing)
    return Graded(code, grade, runs, ref.solution)


def group(lesson: Lesson, graded: Iterable[Graded]) -> list[Candidate]:
    """The one grouping, for the command line and the item analysis page alike: the unmatched
    programs, shortest first (so a group's first program is the one to read, and the same
    programs give the same groups in any order), joined to the first group they behave like;
    most programs first."""
    candidates: list[Candidate] = []
    for one in sorted((g for g in graded if g.unmatched), key=lambda g: (len(g.code), g.code)):
        cases = {n for n, r in one.solution.items() if r.ok and n in one.runs}
        for found in candidates:
            if set(found.runs) == set(one.runs) and behaves_like(
                lesson, one.runs, found.runs, cases
            ):
                found.count += 1
                found.programs.append(one.code)
                break
        else:
            candidates.append(
                Candidate(one.code, one.grade, one.runs, one.solution, programs=[one.code])
            )
    return sorted(candidates, key=lambda c: (-c.count, c.code))


def distinct(programs: Iterable[str]) -> list[str]:
    """``programs`` normalised (content/corpus.py), each once, in a fixed order."""
    return sorted({normalise(code) for code in programs}, key=lambda c: (len(c), c))


async def asuggest(lesson: Lesson, programs: Iterable[str], sandbox: Runner) -> list[Candidate]:
    """The candidates among ``programs`` (each graded once, one at a time: an author's tool
    must not crowd out learners), most programs first."""
    return group(lesson, [await agraded(lesson, code, sandbox) for code in distinct(programs)])


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
        name = candidate.name
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
