"""Fixtures: the real sandbox, small test lessons, the built-in QKV lesson and the proofs of
every built-in lesson, made once per run."""

from __future__ import annotations

import asyncio
import fcntl
import os
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from codeblanks.content.model import Lesson
from codeblanks.content.problems import Problem
from codeblanks.grading import Grade, aprove_all, prove
from codeblanks.grading.grade import mistake_id
from codeblanks.grading.prove import Proof
from codeblanks.sandbox import get_sandbox

from .grading_helpers import AXIS_0, SOFTMAX_VARIANTS, make_lesson

# The ported course's unittest files are run by test_pycourse.py against each program, not
# collected here.
collect_ignore = ["pycourse"]


@pytest.fixture(scope="session")
def sandbox():
    return get_sandbox()


@pytest.fixture(scope="session")
def softmax_lesson() -> Lesson:
    """A strong lesson: inputs, variants, a compared value and an anticipated mistake."""
    return make_lesson(
        "softmax-rows",
        inputs=("S",),
        variants=SOFTMAX_VARIANTS,
        values=("P",),
        distributions={"P": 1},
        messages={"axis-0.py": AXIS_0},
    )


@pytest.fixture(scope="session")
def weak_lesson() -> Lesson:
    """The same exercise checked only by its visible output."""
    return make_lesson("softmax-rows", lesson_id="softmax-rows-weak")


@pytest.fixture(scope="session")
def qkv() -> Lesson:
    from codeblanks.content import catalog

    lesson = catalog().lesson("query-key-value")
    if lesson is None:
        pytest.fail("the built-in lesson query-key-value does not load")
    return lesson


def _key(lesson: Lesson) -> tuple[str, str]:
    """A lesson version as the shared proofs know it: its folder and the hash of its files."""
    return str(lesson.path), lesson.version


def _built_in_versions() -> list[Lesson]:
    from codeblanks.content import catalog

    return [v for lesson in catalog().lessons() for v in (lesson, *lesson.translations.values())]


@dataclass(frozen=True)
class SharedProof:
    """A built-in lesson version's proof: its problems and, when they are the very grades
    ``agrade`` gives a learner (``learner_grades``), the grades of its solution, starter and
    mistakes by the golden transcript's names (tests/grading/test_course_transcript.py)."""

    problems: list[Problem]
    grades: dict[str, Grade] | None


def program_names(lesson: Lesson) -> list[str]:
    """The solution, the starter and each mistake, named as the golden transcript names them."""
    mistakes = lesson.exercise.grading.mistakes
    return ["solution", "starter", *(mistake_id(lesson, m) for m in mistakes)]


def learner_grades(proof: Proof) -> dict[str, Grade] | None:
    """The proof's grades of the solution, the starter and the mistakes, when a learner's
    ``agrade`` would judge the same runs against the same reference: the reference is settled
    (so ``agrade`` neither refuses it nor drops a mistake: ``Reference.trusted``) and no run
    timed out (a proof's runs have a longer wall clock than a learner's). Else None."""
    judged = [proof.solution, proof.starter, *proof.mistakes]
    if not proof.ref.settled or any(
        r.verdict == "timeout" for g in judged for r in g.runs.values()
    ):
        return None
    return dict(zip(program_names(proof.lesson), (g.grade for g in judged), strict=True))


async def _proved_together(lessons: list[Lesson]) -> list[SharedProof]:
    grades: dict[tuple[str, str], dict[str, Grade] | None] = {}

    def seen(proof: Proof) -> None:
        grades[_key(proof.lesson)] = learner_grades(proof)

    found = [problems async for problems in aprove_all(lessons, seen=seen)]
    return [SharedProof(p, grades.get(_key(v))) for v, p in zip(lessons, found, strict=True)]


def _shared_proofs(folder: Path) -> dict[tuple[str, str], SharedProof]:
    """Every built-in lesson version proved once for the whole run, on one event loop with the
    sandbox's slots full (``aprove_all``): the first xdist worker to ask proves them under a
    file lock and leaves them in ``folder``; the others wait on the lock and read them."""
    stored = folder / "built-in-proofs.pickle"
    with open(folder / "built-in-proofs.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stored.exists():
            return pickle.loads(stored.read_bytes())
        versions = _built_in_versions()
        found = asyncio.run(_proved_together(versions))
        proofs = {_key(v): shared for v, shared in zip(versions, found, strict=True)}
        written = stored.with_suffix(".partial")
        written.write_bytes(pickle.dumps(proofs))
        os.replace(written, stored)
        return proofs


@pytest.fixture(scope="session")
def shared_proofs(tmp_path_factory, worker_id) -> Callable[[Lesson], SharedProof | None]:
    """The shared proof of a lesson that equals the built-in version of its folder and files'
    hash (None for any other: a lesson a test changed)."""
    base = tmp_path_factory.getbasetemp()
    proofs = _shared_proofs(base if worker_id == "master" else base.parent)
    built_in = {_key(v): v for v in _built_in_versions()}

    def found(lesson: Lesson) -> SharedProof | None:
        key = _key(lesson)
        return proofs.get(key) if built_in.get(key) == lesson else None

    return found


@pytest.fixture(scope="session")
def proved(shared_proofs) -> Callable[[Lesson], list[Problem]]:
    """``prove`` for the tests that prove the built-in lessons as they are: each built-in lesson
    version is proved once per run, whichever tests and workers ask (``shared_proofs``); any
    other lesson (one a test changed) is proved on its own, as ``prove`` would."""

    def proof(lesson: Lesson) -> list[Problem]:
        found = shared_proofs(lesson)
        return prove(lesson) if found is None else list(found.problems)

    return proof
