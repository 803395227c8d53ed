"""The mutation check (`prove`): real proofs through the real sandbox, and the problems a weak
or broken lesson gets."""

from __future__ import annotations

import asyncio
import dataclasses

from codeblanks.content.model import Mistake, Variant
from codeblanks.grading import aprove_all, prove

from .grading_helpers import AXIS_0, SOFTMAX_VARIANTS, blank, make_lesson, with_grading


def _codes(problems) -> list[str]:
    return sorted(p.code for p in problems)


THREE_ROWS = "Read the number of rows from S: the data may have more or fewer than three."


def test_a_strong_lesson_proves_clean(softmax_lesson):
    # Each hidden case earns its place: the mistake that knows only three rows passes the
    # visible case and fails both, as it promises.
    path = softmax_lesson.path / "mistakes" / "three-rows.py"
    mistake = Mistake(
        path, path.read_text(), THREE_ROWS, must_fail=tuple(v.name for v in SOFTMAX_VARIANTS)
    )
    strong = with_grading(
        softmax_lesson, mistakes=softmax_lesson.exercise.grading.mistakes + (mistake,)
    )
    assert prove(strong) == []


def test_output_only_checks_cannot_tell_a_printed_constant_from_the_solution(weak_lesson):
    problems = prove(weak_lesson)
    assert _codes(problems) == ["grading.E005"]
    (p,) = problems
    assert p.message == (
        "this check cannot tell a program that prints the expected output as a constant from "
        "the solution"
    )
    assert "declare [grading] inputs and variants" in p.fix


def test_the_qkv_checks_without_variants_and_values_are_reported_weak(qkv):
    # On the visible data a softmax along axis 0 prints the expected output: only the hidden
    # cases and the compared values tell it apart. Without them, the proof says so.
    weak = with_grading(qkv, values=(), mistakes=(), variants=())
    problems = prove(weak)
    assert {p.code for p in problems} == {"grading.E005"}
    messages = [p.message for p in problems]
    assert any("prints the expected output as a constant" in m for m in messages)
    axis = [p for p in problems if "another `axis=`" in p.message]
    assert axis and axis[0].line is not None
    assert "axis=1" in qkv.exercise.solution.splitlines()[axis[0].line - 1]


def test_broken_lessons_get_each_problem(softmax_lesson):
    lesson = make_lesson(
        "softmax-rows",
        lesson_id="softmax-rows-broken",
        inputs=("S",),
        variants=SOFTMAX_VARIANTS + (Variant("one-dimensional", {"S": "np.ones(3)"}),),
        values=("P", "nowhere"),
        messages={
            "axis-0.py": AXIS_0,
            "columns.py": "Another message for the same slip.",
            "same-as-solution.py": "This is not wrong at all.",
        },
        questions=(
            blank("P = ____", "P_undefined", id="broken-blank"),
            blank("x.sum(axis=____)", "1|-1", check="regex", accept=("-1",), id="regex-ok"),
            blank("x = ____", "(", check="regex", id="regex-broken"),
        ),
    )
    ex = dataclasses.replace(lesson.exercise, starter=lesson.exercise.solution)
    problems = prove(dataclasses.replace(lesson, exercise=ex))
    codes = _codes(p for p in problems if p.code != "grading.W010")  # test_earning.py has those
    assert codes == [
        "grading.E002",
        "grading.E003",
        "grading.E004",
        "grading.E006",
        "grading.E008",
        "grading.E008",
        "grading.E009",
    ], [str(p) for p in problems]
    by = {p.code: p for p in problems}
    blanks = sorted(p.message for p in problems if p.code == "grading.E008")
    assert "“broken-blank”" in blanks[0] and "“regex-broken”" in blanks[1]
    assert "pattern is invalid" in blanks[1]
    assert by["grading.E003"].path.name == "same-as-solution.py"
    assert by["grading.E004"].path.name == "columns.py"
    assert AXIS_0 in by["grading.E004"].message
    assert "“one-dimensional”" in by["grading.E006"].message
    assert "AxisError" in by["grading.E006"].message
    assert "`nowhere`" in by["grading.E009"].message


def test_a_wrong_expected_output_and_a_missing_input(softmax_lesson):
    ex = dataclasses.replace(softmax_lesson.exercise, expected_output="[[1. 0. 0.]]\n")
    wrong = dataclasses.replace(softmax_lesson, exercise=ex, id="softmax-rows-wrong-expected")
    assert "grading.E001" in _codes(prove(wrong))
    renamed = with_grading(
        softmax_lesson, inputs=("T",), variants=(Variant("t", {"T": "np.ones((2, 2))"}),)
    )
    problems = [p for p in prove(renamed) if p.code == "grading.E007"]
    assert {p.path.name for p in problems} == {"solution.py", "starter.py", "axis-0.py"}


def test_every_built_in_lesson_declares_variants_and_proves_clean(proved):
    from codeblanks.content import catalog

    lessons = catalog().lessons()
    assert any(lesson.id == "query-key-value" for lesson in lessons)
    for lesson in lessons:
        tests = lesson.exercise.tests.tests if lesson.exercise.tests else ()
        hidden = lesson.exercise.grading.variants or [t for t in tests if t.hidden]
        assert hidden, f"{lesson.id} declares no hidden case (variants or hidden tests)"
        assert [str(p) for p in proved(lesson) if not p.warning] == [], lesson.id


def test_every_built_in_lesson_proves_clean_in_turkish_too(proved):
    """The Turkish version is a program of its own (its starter, solution and questions): it is
    proved exactly as the original, and prints the original's expected output."""
    from codeblanks.content import catalog

    for lesson in catalog().lessons():
        turkish = lesson.in_language("tr")
        assert turkish.language == "tr", f"{lesson.id} has no Turkish version"
        assert turkish.exercise.expected_output == lesson.exercise.expected_output
        assert [str(p) for p in proved(turkish) if not p.warning] == [], lesson.id


def test_proving_many_lessons_together_yields_each_ones_problems_in_order(
    softmax_lesson, weak_lesson, sandbox
):
    """``aprove_all`` (one loop, one gate for all): each lesson's problems as ``prove`` finds
    them alone, in the order the lessons were given, whichever finished first."""
    lessons = [weak_lesson, softmax_lesson, weak_lesson]

    async def together():
        return [found async for found in aprove_all(lessons, sandbox)]

    found = asyncio.run(together())
    alone = [prove(lesson, sandbox) for lesson in lessons]
    assert [[str(p) for p in problems] for problems in found] == [
        [str(p) for p in problems] for problems in alone
    ]
    weak, strong = found[0], found[1]
    assert [p for p in weak if not p.warning] and not [p for p in strong if not p.warning]
