"""Whatever a function test's result claims to be, reading it and comparing it with another
answers "same" or a sentence, never an exception (security review S4, S5): the result's JSON
is the learner's to forge (``lessontest`` runs in their process), and NumPy has dtypes, such
as longdouble, that ``tolist()`` and ``float()`` do not make plain."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codeblanks.grading import grade, pyvalues
from codeblanks.grading.pydata import Unreadable, read, show
from codeblanks.grading.pyvalues import Rules, difference

from .grading_helpers import make_lesson

# Counts of examples, no clock: a busy machine takes longer, it does not fail.
SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]

HUGE = (10**400, -(10**400), 2**64, 2**63, -(2**63) - 1, 10**29, 2**1100)
# Every dtype NumPy names, the platform's widest (longdouble, clongdouble) among them, and
# some that are no numbers at all.
DTYPES = sorted(
    {np.dtype(code).str for code in np.typecodes["All"] if code not in "MmOVSU"}
    | {"float128", "complex256", "longdouble", "clongdouble", "float16", "bool", "O", "V8"}
    | {"M8[ns]", "m8", "U3", "S2", "(2,)f8", "i3", "", "f8,f8"}
)
NUMERIC = sorted({np.dtype(code).name for code in np.typecodes["AllInteger"] + "?efdgFDG"})

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from(HUGE),
    st.floats(),
    st.text(max_size=8),
)
TAGS = ("int", "complex", "array", "tuple", "list", "dict", "set", "bytes", "str", "number",
        "iter", "object")  # fmt: skip
tags = st.sampled_from(TAGS) | st.text(max_size=4) | st.integers() | st.none()


def tagged(children: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    """A node as lessontest writes one, every field free to be anything."""
    return st.fixed_dictionaries(
        {"$": tags, "v": children},
        optional={
            "t": st.text(max_size=6) | children,
            "dtype": st.sampled_from(DTYPES) | children,
            "shape": st.lists(st.integers(-2, 4) | st.sampled_from(HUGE), max_size=3) | children,
            "more": st.booleans() | children,
            "why": st.text(max_size=4) | children,
            "r": st.text(max_size=8) | children,
        },
    )


trees = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.lists(st.lists(children, min_size=2, max_size=2), max_size=3),
        st.dictionaries(st.text(max_size=3), children, max_size=3),
        tagged(children),
    ),
    max_leaves=20,
)


def deep(depth: int) -> str:
    """The JSON text of a tuple inside a tuple ... ``depth`` times (as text: its repr is flat)."""
    return '{"$":"tuple","v":[' * depth + "1.5" + "]}" * depth


@st.composite
def arrays(draw: st.DrawFn) -> np.ndarray:
    """An array of any numeric dtype and a small shape (none: a NumPy scalar's)."""
    shape = tuple(draw(st.lists(st.integers(0, 3), max_size=3)))
    size = int(np.prod(shape))
    cells = draw(st.lists(st.floats() | st.integers(-(2**70), 2**70), min_size=size,
                          max_size=size))  # fmt: skip
    with np.errstate(all="ignore"):
        return (
            np.array(cells, dtype=np.float64).reshape(shape).astype(draw(st.sampled_from(NUMERIC)))
        )


def encoded(array: np.ndarray) -> dict[str, object]:
    """An array as lessontest writes it (a longdouble as float: JSON has no wider number)."""
    if array.dtype.kind == "c":
        cells: object = [[z.real, z.imag] for z in array.astype(complex).ravel().tolist()]
    else:
        cells = array.astype(float).tolist() if array.dtype.kind == "f" else array.tolist()
    return {"$": "array", "v": cells, "dtype": str(array.dtype), "shape": list(array.shape)}


names = st.sampled_from(("MyInt", "Point", "Counter", "OrderedDict", "deque", "generator"))
# Results as lessontest writes them: every kind, NumPy's dtypes and huge ints among them.
honest = st.recursive(
    st.one_of(
        scalars,
        st.sampled_from(HUGE).map(lambda n: {"$": "int", "v": hex(n)}),
        st.tuples(st.floats(), st.floats() | st.sampled_from(HUGE)).map(
            lambda z: {"$": "complex", "v": list(z)}
        ),
        st.builds(lambda v, t: {"$": "number", "v": v, "t": t}, st.integers() | st.floats(), names),
        st.builds(lambda v, t: {"$": "str", "v": v, "t": t}, st.text(max_size=5), names),
        st.binary(max_size=4).map(lambda b: {"$": "bytes", "v": b.hex()}),
        st.builds(
            lambda t, why: {"$": "object", "t": t, "r": f"<{t}>", "why": why},
            names,
            st.sampled_from(("", "deep", "cycle")),
        ),  # fmt: skip
        arrays().map(encoded),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.builds(
            lambda kind, v, more: {"$": kind, "v": v, "more": more},
            st.sampled_from(("list", "tuple", "set", "iter")),
            st.lists(children, max_size=4),
            st.booleans(),
        ),
        st.lists(st.tuples(children, children).map(list), max_size=3).map(
            lambda v: {"$": "dict", "v": v}
        ),
        st.builds(
            lambda t, v: {"$": "object", "t": t, "r": "", "v": v},
            names,
            st.lists(st.tuples(st.sampled_from("xy"), children).map(list), max_size=2),
        ),
    ),
    max_leaves=12,
)


def reading(data: object) -> object:
    """What the grader reads of a run's JSON data, or the marker of a result it refused."""
    return reading_text(json.dumps(data))


def reading_text(text: str) -> object:
    try:
        return read(text, True)
    except Unreadable:
        return Unreadable


values = st.one_of(
    honest.map(reading),
    trees.map(reading),
    st.sampled_from((30, 60, 200, 1000, 5000)).map(deep).map(reading_text),
    arrays().map(lambda a: read(a, False)),
    st.sampled_from(HUGE + (1.5, float("nan"), 1 + 2j, "1.5", [1.5], None)),
)
rules = st.builds(
    Rules,
    rtol=st.floats(0, 1),
    atol=st.floats(0, 1),
    exact=st.booleans(),
    unordered=st.booleans(),
)


@settings(max_examples=300, deadline=None, suppress_health_check=SLOW)
@given(trees)
def test_reading_a_forged_result_gives_a_value_or_refuses(data):
    reading(data)


@settings(max_examples=300, deadline=None, suppress_health_check=SLOW)
@given(values, values, rules)
def test_any_two_results_compare_to_same_or_a_sentence(got, expected, how):
    if got is Unreadable or expected is Unreadable:
        return
    found = difference(got, expected, how)
    assert found is None or (isinstance(found, str) and found)


# -- the review's cases, one by one -----------------------------------------------------------

FORGED = (
    {"$": "array", "v": [10**29], "dtype": "u1", "shape": [1]},
    {"$": "complex", "v": [10**400, 0.0]},
    {"$": "number", "v": "ff", "t": "MyInt"},
    {"$": "number", "v": [], "t": "MyInt"},
    {"$": "array", "v": [1.0], "dtype": "f8", "shape": [10**30]},
    {"$": "str", "v": [1, 2], "t": "Name"},
)


@pytest.mark.parametrize("data", FORGED)
def test_a_forged_result_is_refused_or_told_apart(data):
    got = reading(data)
    assert got is Unreadable or difference(got, 1.5, Rules()) is not None


def test_a_whole_number_past_a_float_is_described_not_raised():
    assert difference(10**400, 1.5, Rules()) == "the result is " + show(10**400) + (
        ", but 1.5 is expected."
    )
    assert difference([1.0, 10**400], [1.0, 2.5], Rules()) is not None
    assert difference(1.5, 10**400, Rules()) is not None
    assert difference(complex(1e308, 1e308), complex(-1e308, 1e308), Rules()) is not None


def test_a_list_where_a_number_is_expected_is_described():
    found = difference([1.5], 1.5, Rules())
    assert found is not None and "`list`" in found and "`float`" in found


def test_longdouble_and_clongdouble_scalars_compare_as_numbers():
    exact = read(np.longdouble(1.5), False)
    assert difference(exact, 1.5, Rules()) is None
    assert difference(read(np.longdouble(2.5), False), 1.5, Rules()) is not None
    z = read(np.clongdouble(1 + 2j), False)
    assert difference(z, 1 + 2j, Rules()) is None
    assert difference(z, 1 - 2j, Rules()) is not None  # not its real part alone
    assert difference([z], [exact], Rules(unordered=True)) is not None


def test_nested_results_are_compared_once_per_level(monkeypatch):
    """A tuple in a tuple ... 40 deep (lessontest writes up to 50) that differs at the bottom:
    each level compared once, not once to decide and again to word it (2**40 comparisons)."""
    calls = []
    inner = pyvalues._diff

    def counted(*args):
        calls.append(args)
        return inner(*args)

    monkeypatch.setattr(pyvalues, "_diff", counted)
    got, expected = reading_text(deep(40)), reading_text(deep(40).replace("1.5", "2.5"))
    assert difference(got, expected, Rules()) is not None
    assert len(calls) <= 3 * 41


def test_a_forged_result_through_the_sandbox_gets_a_verdict(sandbox):
    """The learner's program replaces lessontest's writer: each test's result is forged."""
    lesson = make_lesson("causal-softmax", lesson_id="causal-softmax-forged")
    for data in FORGED:
        forged = json.dumps(data)
        code = (
            lesson.exercise.solution
            + f"\nimport lessontest\nlessontest._kept = lambda value: ({forged!r}, True)\n"
        )
        g = grade(lesson, code, sandbox)
        assert g.verdict == "incorrect", (data, g)
        assert json.dumps(g.to_json())


def test_a_longdouble_inside_a_result_travels_as_json():
    """An honest result holding float128 or complex256 values (lessontest's JSON could not
    write them: the test stopped with a TypeError) reads back equal to its float64 twin."""
    from codeblanks.sandbox.inside import lessontest

    wide = (np.array([[1.5], [2.5]], dtype=np.longdouble), np.clongdouble(1 + 2j))
    narrow = (np.array([[1.5], [2.5]]), 1 + 2j)
    (text, encoded), (twin, _) = lessontest._kept(wide), lessontest._kept(narrow)
    assert encoded and f'"dtype":"{np.dtype(np.longdouble)}"' in text
    assert difference(read(text, True), read(twin, True), Rules()) is None
    if np.dtype(np.longdouble).itemsize > 8:  # a wider float than float64 here: not the same type
        assert difference(read(text, True), read(twin, True), Rules(exact=True))
