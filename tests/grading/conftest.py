"""Fixtures: the real sandbox, small test lessons and the built-in QKV lesson."""

from __future__ import annotations

import pytest

from codeblanks.content.model import Lesson
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
