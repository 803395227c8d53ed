"""``codeblanks new lesson PATH --id ID --title TITLE --level LEVEL``: a lesson folder to fill in.

The scaffold is a complete, working lesson (it passes ``codeblanks check`` as it is) whose texts
say TODO, so that an author edits a lesson that works rather than fixing an empty one.
"""

from __future__ import annotations

import argparse
import tomllib
import uuid
from pathlib import Path

from codeblanks.cli.console import UsageError, shown
from codeblanks.content.fields import SLUG
from codeblanks.content.model import DEFAULT_LEVELS

LESSON_TOML = """\
id = {id}
uuid = "{uuid}"                       # progress is keyed on it: never change it once in use
title = {title}
summary = "TODO: one line that says what the lesson teaches."
level = {level}

[exercise]
file = "main.py"                      # the file name the learner sees

[grading]
inputs = ["x"]                        # top-level assignments in starter.py that are data
values = ["total"]                    # variables compared with the solution's after a run

[[grading.variants]]                  # hidden cases: other values for the inputs
name = "five numbers"
x = "np.arange(5.0)"

# [[grading.mistakes]]                # anticipated wrong programs and what to tell the learner
# file = "mistakes/forgot-the-sum.py"
# message = "TODO: what the learner who wrote this should read."
"""

QUESTIONS_TOML = """\
[[question]]
kind = "choice"
id = "todo-choice"
prompt = "TODO: a question with one correct option."
options = ["The correct option", "A wrong option"]
answer = "The correct option"
explanation = "TODO: why it is correct."

[[question]]
kind = "blank"
id = "todo-blank"
prompt = "TODO: what the line does."
code = "total = ____.sum()"
answer = "x"
explanation = "TODO: why this fills the blank."

[[question]]
kind = "match"
id = "todo-match"
prompt = "TODO: match each term to its meaning."
pairs = [
  ["term one", "meaning one"],
  ["term two", "meaning two"],
]
explanation = "TODO: how they relate."
"""

STARTER = """\
import numpy as np

x = np.array([1.0, 2.0, 3.0])
total = ____  # TODO: the starter, with the blank the learner fills
print(total)
"""

SOLUTION = """\
import numpy as np

x = np.array([1.0, 2.0, 3.0])
total = x.sum()
print(total)
"""


def add_parser(commands) -> None:
    parser = commands.add_parser("new", help="create a new lesson folder to fill in")
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", required=True)
    lesson = kinds.add_parser("lesson", help="a lesson folder inside a course folder")
    lesson.add_argument("path", metavar="PATH", help="the new lesson folder, e.g. my-course/05-x")
    lesson.add_argument("--id", required=True, help="the lesson id (a slug)")
    lesson.add_argument("--title", required=True, help="the lesson title")
    lesson.add_argument("--level", required=True, help="one of the course's levels")
    lesson.set_defaults(func=run)


def _course_levels(course: Path) -> tuple[str, ...]:
    try:
        data = tomllib.loads((course / "course.toml").read_text("utf-8"))
    except FileNotFoundError:
        raise UsageError(
            f"{shown(course)} has no course.toml: create the lesson inside a course folder"
        ) from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        raise UsageError(
            f"{shown(course / 'course.toml')} does not load: run `codeblanks check`"
        ) from None
    levels = data.get("levels", list(DEFAULT_LEVELS))
    return tuple(levels) if isinstance(levels, list) else DEFAULT_LEVELS


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def run(args: argparse.Namespace) -> int:
    folder = Path(args.path)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise UsageError(f"{args.path} already exists")
    if not SLUG.fullmatch(args.id):
        raise UsageError(f"--id {args.id!r} is not a slug (lowercase letters, digits, hyphens)")
    if not args.title.strip() or "\n" in args.title:
        raise UsageError("--title must be one non-empty line")
    levels = _course_levels(folder.parent)
    if args.level not in levels:
        raise UsageError(f"--level {args.level!r} is not one of: {', '.join(levels)}")
    files = {
        "lesson.toml": LESSON_TOML.format(
            id=_toml_string(args.id),
            uuid=uuid.uuid4(),
            title=_toml_string(args.title),
            level=_toml_string(args.level),
        ),
        "explanation.md": f"# {args.title}\n\nTODO: the explanation (code samples, $math$).\n",
        "task.md": "TODO: the task. Here: set `total` to the sum of `x` and print it.\n",
        "starter.py": STARTER,
        "solution.py": SOLUTION,
        "expected.txt": "6.0\n",
        "questions.toml": QUESTIONS_TOML,
    }
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    course = shown(folder.parent)
    print(f"created {shown(folder)}: fill in the TODOs, then run `codeblanks check {course}`")
    return 0
