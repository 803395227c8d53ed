"""A function exercise without expected.txt shows what the program prints and never grades it,
so a hidden test earns its place there too when the starter prints an example call (as the
beginners' lessons of "Python from the first line" do): before, the check compared the example's
output with an empty expected text, judged every mistake "refused by the visible case", and
reported each hidden test as checking nothing (W010) and each must_fail as broken (E020)."""

from __future__ import annotations

import pytest

from codeblanks.content import catalog
from codeblanks.grading import prove


@pytest.fixture(scope="module")
def ticket():
    lesson = catalog().lesson("py-if-and-else")
    if lesson is None:
        pytest.fail("the built-in lesson py-if-and-else does not load")
    return lesson


def test_the_lesson_prints_an_example_and_has_no_expected_output(ticket):
    assert not ticket.exercise.output_graded
    assert "print(ticket(30))" in ticket.exercise.solution
    assert [m.must_fail for m in ticket.exercise.grading.mistakes][:2] == [
        ("exactly 12",),
        ("exactly 65",),
    ]


def test_its_hidden_tests_earn_their_place_and_keep_their_promises(ticket):
    found = [
        (p.code, p.message) for p in prove(ticket) if p.code in ("grading.W010", "grading.E020")
    ]
    assert found == []
