"""Any bytes in any lesson file give problems, never an exception: hypothesis writes random bytes,
random TOML-ish text and random edits of the real text into each file of a valid tiny course."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codeblanks.content import load_courses
from codeblanks.content.codes import CODES
from codeblanks.content.problems import Problem

VALID = Path(__file__).parent / "fixtures" / "valid"
FILES = sorted(p.relative_to(VALID).as_posix() for p in VALID.rglob("*") if p.is_file())
TRANSLATED = Path(__file__).parent / "fixtures" / "translated"
TRANSLATION_FILES = sorted(
    p.relative_to(TRANSLATED).as_posix()
    for p in TRANSLATED.rglob("*")
    if "tr" in p.parts and p.is_file()
)
KEYS = [
    "id", "uuid", "title", "summary", "level", "levels", "file", "inputs", "values", "rtol",
    "atol", "wall_s", "memory_mb", "name", "a", "b", "message", "kind", "prompt", "options",
    "answer", "explanation", "code", "check", "accept", "setup", "pairs", "question",
    "hints", "variants", "mistakes", "nudge", "tests", "languages",
]  # fmt: skip
HEADERS = ["[exercise]", "[grading]", "[[grading.variants]]", "[[grading.mistakes]]",
           "[[question]]", "[grading.variants]", "[[exercise]]", "[question]"]  # fmt: skip

scalars = st.one_of(
    st.text(max_size=20).map(lambda s: '"' + s.replace("\\", "").replace('"', "") + '"'),
    st.sampled_from(
        [
            '"choice"',
            '"blank"',
            '"match"',
            '"value"',
            '"regex"',
            '"Beginner"',
            '"____"',
            '"x ____"',
            '"(["',
            '"mistakes/minus.py"',
            '"../x"',
            '"/etc/passwd"',
            '"a"',
            '"np.ones(3)"',
            '"8c4f2a51-6d0e-4b7a-9f3c-2e1d5a6b7c80"',
        ]
    ),  # fmt: skip
    st.integers(-(10**20), 10**20).map(str),
    st.sampled_from(
        ["true", "nan", "-inf", "1e400", "1979-05-27", "0.0", "{}", "[]", '"""\nx\n"""']
    ),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.lists(st.tuples(st.sampled_from(KEYS), inner), max_size=3).map(
            lambda kv: "{" + ", ".join(f"{k} = {v}" for k, v in kv) + "}"
        ),
    ),
    max_leaves=8,
)
lines = st.one_of(
    st.sampled_from(HEADERS),
    st.tuples(st.sampled_from(KEYS), values).map(lambda kv: f"{kv[0]} = {kv[1]}"),
    st.text(max_size=30),
)
toml_ish = st.lists(lines, max_size=25).map(lambda ls: "\n".join(ls).encode("utf-8", "replace"))


@st.composite
def edited(draw, name: str, base: Path = VALID) -> bytes:
    """The real file with a random slice replaced by random bytes or text."""
    data = (base / name).read_bytes()
    start = draw(st.integers(0, len(data)))
    end = draw(st.integers(start, len(data)))
    insert = draw(st.one_of(st.binary(max_size=20), st.text(max_size=20).map(str.encode)))
    return data[:start] + insert + data[end:]


@st.composite
def damage(draw) -> dict[str, bytes]:
    names = draw(st.lists(st.sampled_from(FILES), min_size=1, max_size=3, unique=True))
    return {
        name: draw(st.one_of(st.binary(max_size=200), toml_ish, edited(name))) for name in names
    }


def _load_with(changes: dict[str, bytes], base: Path = VALID):
    with tempfile.TemporaryDirectory() as tmp:
        course = Path(tmp) / "tiny"
        shutil.copytree(base, course)
        for name, data in changes.items():
            (course / name).write_bytes(data)
        return load_courses([course])


@settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "200")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(damage())
def test_any_bytes_give_problems_never_an_exception(changes):
    courses, problems = _load_with(changes)
    assert all(isinstance(p, Problem) and p.code in CODES for p in problems)
    assert all(p.message and p.fix and (p.line is None or p.line >= 1) for p in problems)
    lessons = [lesson for course in courses for lesson in course.lessons]
    if not problems:
        assert len(lessons) == 1
    if any("01-sum" in p.path.parts for p in problems):
        assert lessons == []  # a lesson with a problem is left out


def test_unchanged_copy_loads_clean():
    courses, problems = _load_with({})
    assert problems == [] and len(courses[0].lessons) == 1


@st.composite
def damaged_translation(draw) -> dict[str, bytes]:
    names = draw(st.lists(st.sampled_from(TRANSLATION_FILES), min_size=1, max_size=3, unique=True))
    return {
        name: draw(st.one_of(st.binary(max_size=200), toml_ish, edited(name, TRANSLATED)))
        for name in names
    }


@settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "200")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(damaged_translation())
def test_any_bytes_in_a_translation_give_problems_and_keep_the_original(changes):
    courses, problems = _load_with(changes, TRANSLATED)
    assert all(isinstance(p, Problem) and p.code in CODES for p in problems)
    assert all(p.message and p.fix and (p.line is None or p.line >= 1) for p in problems)
    (course,) = courses  # a broken translation never takes its course or lesson down
    (lesson,) = course.lessons
    if any(not p.warning and "01-sum" in p.path.parts for p in problems):
        assert lesson.in_language("tr") is lesson  # served in English meanwhile
