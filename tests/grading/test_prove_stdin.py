"""``codeblanks check`` proves a lesson with input: its solution runs on the visible case's
input and each hidden case's own, and an input with too few lines for the solution is a
problem. Through the real sandbox."""

from __future__ import annotations

from pathlib import Path

from codeblanks.content import load_courses
from codeblanks.grading import prove

FILES = {
    "course.toml": 'id = "reading"\ntitle = "Reading"\nsummary = "One lesson that reads input."\n',
    "01-add/lesson.toml": """\
id = "add-what-is-read"
uuid = "0c6f3d5e-8a1b-4f2c-9d7e-5b4a3c2d1e0f"
title = "Add what is read"
summary = "Read two whole numbers and print their sum."
level = "Beginner"

[exercise]
file = "add.py"
stdin = \"\"\"
2
3
\"\"\"

[grading]
cpu_s = 0.5
wall_s = 1.0

[[grading.variants]]
name = "a negative number"
stdin = "10\\n-4\\n"

[[grading.mistakes]]
file = "mistakes/joined.py"
message = "input() gives text, and + joins texts: turn each line into a number with int() first."
""",
    "01-add/explanation.md": "# Reading numbers\n\n`int(input())` reads a line as a number.\n",
    "01-add/task.md": "The input is two whole numbers, one per line. Print their sum.\n",
    "01-add/starter.py": "a = input()\nb = input()\nprint(____)\n",
    "01-add/solution.py": "a = int(input())\nb = int(input())\nprint(a + b)\n",
    "01-add/expected.txt": "5\n",
    "01-add/mistakes/joined.py": "a = input()\nb = input()\nprint(a + b)\n",
    "01-add/questions.toml": """\
[[question]]
kind = "choice"
id = "gives"
prompt = "What does input() give?"
options = ["a number", "a text"]
answer = "a text"
explanation = "Always a text."
""",
}


def course(tmp_path: Path, replace: tuple[str, str] = ("", "")) -> Path:
    root = tmp_path / "reading"
    for name, text in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.replace(*replace) if replace[0] else text)
    return root


def lesson_of(root: Path):
    (loaded,), problems = load_courses([root])
    assert problems == [], [str(p) for p in problems]
    (lesson,) = loaded.lessons
    return lesson


def test_a_lesson_with_input_is_proved_clean(tmp_path: Path, sandbox):
    lesson = lesson_of(course(tmp_path))
    assert lesson.exercise.stdin == "2\n3\n"
    assert [str(p) for p in prove(lesson, sandbox)] == []


def test_an_input_too_short_for_the_solution_is_a_problem(tmp_path: Path, sandbox):
    lesson = lesson_of(course(tmp_path, ('stdin = "10\\n-4\\n"', 'stdin = "10\\n"')))
    found = prove(lesson, sandbox)
    assert any(
        p.code == "grading.E006" and "a negative number" in p.message and "EOFError" in p.message
        for p in found
    ), [str(p) for p in found]
