"""Fixtures: the real sandbox, small test lessons, the built-in QKV lesson and the proofs of
every built-in lesson, made once per run."""

from __future__ import annotations

import asyncio
import fcntl
import os
import pickle
from collections.abc import Callable
from pathlib import Path

import pytest

from codeblanks.content.model import Lesson
from codeblanks.content.problems import Problem
from codeblanks.grading import aprove_all, prove
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


async def _proved_together(lessons: list[Lesson]) -> list[list[Problem]]:
    return [found async for found in aprove_all(lessons)]


def _shared_proofs(folder: Path) -> dict[tuple[str, str], list[Problem]]:
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
        proofs = {_key(v): problems for v, problems in zip(versions, found, strict=True)}
        written = stored.with_suffix(".partial")
        written.write_bytes(pickle.dumps(proofs))
        os.replace(written, stored)
        return proofs


@pytest.fixture(scope="session")
def proved(tmp_path_factory, worker_id) -> Callable[[Lesson], list[Problem]]:
    """``prove`` for the tests that prove the built-in lessons as they are: each built-in lesson
    version is proved once per run, whichever tests and workers ask. A lesson is taken from the
    shared proofs only when it equals the built-in version of its folder and files' hash; any
    other (a lesson a test changed) is proved on its own, as ``prove`` would."""
    base = tmp_path_factory.getbasetemp()
    proofs = _shared_proofs(base if worker_id == "master" else base.parent)
    built_in = {_key(v): v for v in _built_in_versions()}

    def proof(lesson: Lesson) -> list[Problem]:
        key = _key(lesson)
        if key in proofs and built_in.get(key) == lesson:
            return list(proofs[key])
        return prove(lesson)

    return proof
