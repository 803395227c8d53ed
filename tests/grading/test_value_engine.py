"""Properties of the one engine for Python values (grading/pyvalues.py over grading/pydata.py):
what lessontest writes in the sandbox, read back and compared, agrees with Python's own ``==``,
and a sentence names the place where two values differ."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from codeblanks.grading.pydata import literal, read, show
from codeblanks.grading.pyvalues import Rules, compare_values, difference
from codeblanks.sandbox.inside.lessontest import dumps

keys = st.text("abcxyz_", min_size=1, max_size=3)
leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from((10**300, 2**13000, -(2**12500))),  # past a float; the last two in hex
    st.floats(),
    st.text(max_size=12),
    st.binary(max_size=6),
)
hashable = st.recursive(leaves, lambda inner: st.lists(inner, max_size=3).map(tuple), max_leaves=8)
values = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(keys, inner, max_size=4),
        st.sets(hashable, max_size=4),
        st.frozensets(hashable, max_size=3),
    ),
    max_leaves=20,
)


def sent(value: object) -> object:
    """``value`` as the grader reads it after a run: lessontest's JSON text, read back."""
    return read(dumps(value), True)


@settings(max_examples=150, deadline=None)
@given(values)
def test_a_value_is_the_same_as_itself(value):
    assert difference(sent(value), sent(value), Rules()) is None
    assert difference(sent(value), sent(value), Rules(exact=True, name="x")) is None


def _no_nan(value: object) -> bool:
    if isinstance(value, float):
        return not math.isnan(value)
    if isinstance(value, list | tuple | set | frozenset):
        return all(_no_nan(v) for v in value)
    if isinstance(value, dict):
        return all(_no_nan(v) for v in value.values())
    return True


plain = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text("ab", max_size=2),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(keys, inner, max_size=3),
    ),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(plain, plain)
def test_two_values_differ_exactly_when_python_says_so(a, b):
    """Of exact values (no floats, no tolerance), the engine agrees with ``==``."""
    assert (difference(sent(a), sent(b), Rules()) is None) == (a == b)


@settings(max_examples=150, deadline=None)
@given(values.filter(_no_nan))
def test_what_a_literal_writes_reads_back_as_itself(value):
    """Literal values (``frozenset`` is none) come back as themselves: what the grader shows
    as a literal to type in, and reads from the tracer's set of lines."""
    found = value
    try:
        found = literal(sent(value))
    except ValueError:
        assert "frozenset" in repr(value)
    assert found == value


@st.composite
def with_one_leaf_changed(draw: st.DrawFn) -> tuple[object, object, str]:
    """A nest of lists, tuples and dicts of ints, the same with one leaf one larger, and the
    path to that leaf as the sentence writes it (``[1]['a'][0]``)."""

    def build(depth: int) -> tuple[object, object, str]:
        if depth >= 3 or draw(st.booleans()):
            leaf = draw(st.integers(-50, 50))
            return leaf, leaf + 1, ""
        kind = draw(st.sampled_from(("list", "tuple", "dict")))
        size = draw(st.integers(1, 4))
        at = draw(st.integers(0, size - 1))
        names = draw(st.lists(keys, min_size=size, max_size=size, unique=True))
        items = [draw(st.integers(-50, 50)) for _ in range(size)]
        old, new, path = build(depth + 1)
        before, after = list(items), list(items)
        before[at], after[at] = old, new
        if kind == "dict":
            return (
                dict(zip(names, before, strict=True)),
                dict(zip(names, after, strict=True)),
                f"[{show(names[at])}]{path}",
            )
        wrap = list if kind == "list" else tuple
        return wrap(before), wrap(after), f"[{at}]{path}"

    return build(0)


@settings(max_examples=200, deadline=None)
@given(with_one_leaf_changed())
def test_a_single_changed_leaf_is_named_by_its_path(case):
    expected, got, path = case
    said = difference(sent(got), sent(expected), Rules(name="x"))
    assert said is not None and said.startswith(f"`x{path}` is "), (said, path)
    said = difference(sent(got), sent(expected), Rules())
    where = "the result" if not path else f"the result at `{path}`"
    assert said is not None and said.startswith(f"{where} is "), (said, path)


def test_a_variable_is_compared_as_python_compares_it():
    """A program's variables: equal values however written (key order, 1 and 1.0), and the
    first difference named by the variable's path."""
    mine = {"d": dumps({"b": 2, "a": 1.0}), "rows": dumps([[1, 2], [3, 5]])}
    theirs = {"d": dumps({"a": 1, "b": 2}), "rows": dumps([[1, 2], [3, 4]])}
    assert compare_values(mine, theirs, ("d", "rows")) == ["`rows[1][1]` is 5, but 4 is expected."]
