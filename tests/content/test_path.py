"""A course is a path: course.toml's ``order`` puts the lessons in order, levels never go down
along it, no lesson uses an idea before one teaches it, and lesson texts hold no broken
characters (content/path.py, content/prose.py). The built-in courses keep all of it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from codeblanks.content import load_courses
from codeblanks.content.loader import default_paths
from codeblanks.content.prose import markdown_problems

VALID = Path(__file__).parent / "fixtures" / "valid"


def two_lessons(tmp_path: Path, course_lines: str, first_level: str = "Beginner") -> Path:
    """The valid course with a second lesson, ``first``, in folder 02 (after sum-two by name)."""
    course = Path(shutil.copytree(VALID, tmp_path / "tiny"))
    shutil.copytree(course / "01-sum", course / "02-first")
    toml = course / "02-first" / "lesson.toml"
    toml.write_text(
        toml.read_text()
        .replace('id = "sum-two"', 'id = "first"')
        .replace("8c4f2a51-6d0e-4b7a-9f3c-2e1d5a6b7c80", "11111111-2222-4333-8444-555555555555")
        .replace('level = "Beginner"', f'level = "{first_level}"')
    )
    (course / "course.toml").write_text((course / "course.toml").read_text() + course_lines)
    return course


def test_the_order_wins_over_folder_names(tmp_path: Path):
    course = two_lessons(tmp_path, 'order = ["first", "sum-two"]\n')
    (loaded,), problems = load_courses([course])
    assert problems == []
    assert [lesson.id for lesson in loaded.lessons] == ["first", "sum-two"]


def test_a_level_may_rise_along_the_path_but_not_fall(tmp_path: Path):
    rising = two_lessons(tmp_path / "a", 'order = ["sum-two", "first"]\n', first_level="Expert")
    (loaded,), problems = load_courses([rising])
    assert problems == [] and [x.id for x in loaded.lessons] == ["sum-two", "first"]
    falling = two_lessons(tmp_path / "b", 'order = ["first", "sum-two"]\n', first_level="Expert")
    (loaded,), problems = load_courses([falling])
    assert [p.code for p in problems] == ["content.E036"]
    assert "below 'first' (Expert)" in problems[0].message
    assert [x.id for x in loaded.lessons] == ["first"]


def test_an_idea_taught_earlier_may_be_used_and_the_lesson_builds_on_it(tmp_path: Path):
    course = two_lessons(
        tmp_path, 'order = ["first", "sum-two"]\n\n[ideas]\nsums = "adding two numbers"\n'
    )
    for folder, key in (("02-first", "teaches"), ("01-sum", "uses")):
        toml = course / folder / "lesson.toml"
        text = toml.read_text().replace(
            'level = "Beginner"\n', f'level = "Beginner"\n{key} = ["sums"]\n'
        )
        toml.write_text(text)
    (loaded,), problems = load_courses([course])
    assert problems == []
    first, second = loaded.lessons
    assert loaded.builds_on(second) == (("adding two numbers", first),)
    assert loaded.builds_on(first) == ()


def test_the_same_use_before_its_teacher_is_refused(tmp_path: Path):
    course = two_lessons(
        tmp_path, 'order = ["sum-two", "first"]\n\n[ideas]\nsums = "adding two numbers"\n'
    )
    for folder, key in (("02-first", "teaches"), ("01-sum", "uses")):
        toml = course / folder / "lesson.toml"
        text = toml.read_text().replace(
            'level = "Beginner"\n', f'level = "Beginner"\n{key} = ["sums"]\n'
        )
        toml.write_text(text)
    (loaded,), problems = load_courses([course])
    assert [p.code for p in problems] == ["content.E038"]
    assert [x.id for x in loaded.lessons] == ["first"]


def test_a_tab_in_a_toml_text_is_refused_on_its_line(tmp_path: Path):
    course = Path(shutil.copytree(VALID, tmp_path / "tiny"))
    toml = course / "01-sum" / "lesson.toml"
    # "\t" in a TOML string is a TAB: the escape that turned lesson 12's \text into "ext"
    toml.write_text(toml.read_text().replace('"Write `a + b`', '"Write $\\text{a + b}$ as `a + b`'))
    courses, problems = load_courses([course])
    assert [p.code for p in problems] == ["content.E113"]
    assert problems[0].line == 9 and "U+0009" in problems[0].message


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("The sum $\\text{total} = \\sum_i x_i$ and `print('\\n')`.\n", None),
        ("```python\nprint('a\\tb')\n```\n", None),
        ("$$a = \\frac{1}{2}\n\\qquad b$$\n", None),
        ("The maths $\\txt{nan}$ is broken.\n", "content.E114"),
        ("Prose with a stray \\emph here.\n", "content.E114"),
        ("A\u001b[0m colour escape.\n", "content.E113"),
    ],
)
def test_markdown_broken_characters(text: str, code: str | None):
    found = markdown_problems(text, Path("explanation.md"))
    assert [p.code for p in found] == ([code] if code else [])


def test_the_built_in_courses_are_paths_with_levels_that_never_go_down():
    courses, problems = load_courses(default_paths()[:1])
    assert not [p for p in problems if not p.warning]
    by_id = {course.id: course for course in courses}
    for course in courses:
        ranks = [course.levels.index(lesson.level) for lesson in course.lessons]
        assert ranks == sorted(ranks), course.id
        taught: set[str] = set()
        for lesson in course.lessons:
            assert set(lesson.uses) <= taught, lesson.id
            taught |= set(lesson.teaches)
    ids = [lesson.id for lesson in by_id["attention-from-scratch"].lessons]
    # what the block is made of comes before it; the tokeniser comes early
    block = ids.index("transformer-block")
    for piece in (
        "scaled-dot-product",
        "causal-mask",
        "layer-norm-residual",
        "multi-head-attention",
    ):
        assert ids.index(piece) < block
    assert ids.index("characters-to-tokens") < ids.index("stable-softmax")
    assert ids.index("query-key-value") < ids.index("scaled-dot-product")
