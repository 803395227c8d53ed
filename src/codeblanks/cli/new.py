"""``codeblanks new lesson PATH --id ID --title TITLE --level LEVEL [--kind function]``: a lesson
folder to fill in (a program whose output is graded, or a function graded by its tests);
``codeblanks new course PATH --id ID --title TITLE``: a course folder with its first lesson.

The scaffold is a complete, working lesson (it passes ``codeblanks check`` as it is) whose texts
say TODO, so that an author edits a lesson that works rather than fixing an empty one; ``check``
warns about every TODO left (``content.W001``).
"""

from __future__ import annotations

import argparse
import re
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
hints = [                             # revealed one at a time, gentlest first; never the answer
  "TODO: a first hint that points at the idea.",
  "TODO: a second hint, closer to the line to write.",
]

[grading]
inputs = ["x"]                        # top-level assignments in starter.py that are data
values = ["total"]                    # variables compared with the solution's after a run

[[grading.variants]]                  # hidden cases: other values for the inputs
name = "five numbers"
x = "np.arange(5.0)"

# [[grading.mistakes]]                # anticipated wrong programs and what to tell the learner
# file = "mistakes/forgot-the-sum.py"
# nudge = "TODO: a first, smaller step: a question that points at the slip."
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


FUNCTION_LESSON_TOML = """\
id = {id}
uuid = "{uuid}"                       # progress is keyed on it: never change it once in use
title = {title}
summary = "TODO: one line that says what the lesson teaches."
level = {level}

[exercise]
file = "main.py"                      # the file name the learner sees
hints = [                             # revealed one at a time, gentlest first; never the answer
  "TODO: a first hint that points at the idea.",
  "TODO: a second hint, closer to the line to write.",
]

# No expected.txt: tests.py grades the function; what the program prints is shown, not graded.
"""

FUNCTION_STARTER = """\
def evens(numbers):
    \"\"\"TODO: the function the learner writes, with the blank to fill.\"\"\"
    return ____
"""

FUNCTION_SOLUTION = """\
def evens(numbers):
    \"\"\"The even numbers of ``numbers``, in their order.\"\"\"
    if not isinstance(numbers, list):
        raise TypeError("numbers must be a list")
    return [n for n in numbers if n % 2 == 0]
"""

FUNCTION_TESTS = """\
from lessontest import raises, test


@test("a few numbers")                # shown to the learner, with its code
def a_few():
    return evens([1, 2, 3, 4])


@test("no even number")
def none_even():
    return evens([1, 3, 5])


@test("many numbers", hidden=True)    # hidden: named only
def many():
    return evens(list(range(-50, 50)))


@test("refuses what is not a list")
def not_a_list():
    with raises(TypeError, message="numbers must be a list"):
        evens("1234")
"""

FUNCTION_QUESTIONS_TOML = """\
[[question]]
kind = "choice"
id = "todo-choice"
prompt = "TODO: a question with one correct option."
options = ["The correct option", "A wrong option"]
answer = "The correct option"
explanation = "TODO: why it is correct."
"""

COURSE_TOML = """\
id = {id}
title = {title}
summary = "TODO: one line that says what the course teaches."
# levels = ["Beginner", "Intermediate", "Advanced", "Expert"]   (the default; easiest first)
"""
FIRST_LESSON = "01-first-lesson"


def add_parser(commands) -> None:
    parser = commands.add_parser("new", help="create a new lesson or course folder to fill in")
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", required=True)
    lesson = kinds.add_parser("lesson", help="a lesson folder inside a course folder")
    lesson.add_argument("path", metavar="PATH", help="the new lesson folder, e.g. my-course/05-x")
    lesson.add_argument("--id", required=True, help="the lesson id (a slug)")
    lesson.add_argument("--title", required=True, help="the lesson title")
    lesson.add_argument("--level", required=True, help="one of the course's levels")
    lesson.add_argument(
        "--kind",
        choices=("program", "function"),
        default="program",
        help="program: its printed output is graded (the default); function: tests.py grades "
        "a function and prints are not graded",
    )
    lesson.set_defaults(func=run)
    course = kinds.add_parser("course", help="a course folder with a first lesson")
    course.add_argument("path", metavar="PATH", help="the new course folder, e.g. my-course")
    course.add_argument("--id", required=True, help="the course id (a slug)")
    course.add_argument("--title", required=True, help="the course title")
    course.set_defaults(func=run_course)


def _check_new(path: str, slug: str, title: str) -> Path:
    folder = Path(path)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise UsageError(f"{path} already exists")
    if not SLUG.fullmatch(slug):
        raise UsageError(f"--id {slug!r} is not a slug (lowercase letters, digits, hyphens)")
    if not title.strip() or "\n" in title:
        raise UsageError("--title must be one non-empty line")
    return folder


def run_course(args: argparse.Namespace) -> int:
    folder = _check_new(args.path, args.id, args.title)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "course.toml").write_text(
        COURSE_TOML.format(id=_toml_string(args.id), title=_toml_string(args.title)),
        encoding="utf-8",
    )
    lesson = folder / FIRST_LESSON
    _write_lesson(lesson, f"{args.id}-first-lesson", "A first lesson", DEFAULT_LEVELS[0])
    print(
        f"created {shown(folder)} with {shown(lesson)}: fill in the TODOs, then run "
        f"`codeblanks check {shown(folder)}`"
    )
    return 0


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
    folder = _check_new(args.path, args.id, args.title)
    levels = _course_levels(folder.parent)
    if args.level not in levels:
        raise UsageError(f"--level {args.level!r} is not one of: {', '.join(levels)}")
    if args.kind == "function":
        _write_function_lesson(folder, args.id, args.title, args.level)
    else:
        _write_lesson(folder, args.id, args.title, args.level)
    course = shown(folder.parent)
    print(f"created {shown(folder)}: fill in the TODOs, then run `codeblanks check {course}`")
    if _add_to_order(folder.parent / "course.toml", args.id):
        print(f"added {args.id} at the end of `order` in course.toml: move it to its place")
    return 0


_ORDER = re.compile(r"^order\s*=\s*\[(.*?)\]", re.M | re.S)


def _add_to_order(course_toml: Path, lesson_id: str) -> bool:
    """Put a new lesson at the end of the course's path, when the course states one (a lesson
    missing from ``order`` is content.E026)."""
    text = course_toml.read_text("utf-8")
    found = _ORDER.search(text)
    if found is None:
        return False
    items = found.group(1)
    body = items.rstrip()
    if "\n" in items:  # one item a line or several: a new line before the bracket
        added = body + ("" if body.endswith(",") else ",") + f"\n  {_toml_string(lesson_id)},\n"
    else:
        added = body + (", " if body and not body.endswith(",") else "") + _toml_string(lesson_id)
    course_toml.write_text(text[: found.start(1)] + added + text[found.end(1) :], "utf-8")
    return True


def _write_lesson(folder: Path, lesson_id: str, title: str, level: str) -> None:
    files = {
        "lesson.toml": LESSON_TOML.format(
            id=_toml_string(lesson_id),
            uuid=uuid.uuid4(),
            title=_toml_string(title),
            level=_toml_string(level),
        ),
        "explanation.md": f"# {title}\n\nTODO: the explanation (code samples, $math$).\n",
        "task.md": "TODO: the task. Here: set `total` to the sum of `x` and print it.\n",
        "starter.py": STARTER,
        "solution.py": SOLUTION,
        "expected.txt": "6.0\n",
        "questions.toml": QUESTIONS_TOML,
    }
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def _write_function_lesson(folder: Path, lesson_id: str, title: str, level: str) -> None:
    """A function exercise: tests.py instead of expected.txt (docs/authoring.md)."""
    files = {
        "lesson.toml": FUNCTION_LESSON_TOML.format(
            id=_toml_string(lesson_id),
            uuid=uuid.uuid4(),
            title=_toml_string(title),
            level=_toml_string(level),
        ),
        "explanation.md": f"# {title}\n\nTODO: the explanation (code samples, $math$).\n",
        "task.md": "TODO: the task. Here: write `evens(numbers)`, the even numbers of a list.\n",
        "starter.py": FUNCTION_STARTER,
        "solution.py": FUNCTION_SOLUTION,
        "tests.py": FUNCTION_TESTS,
        "questions.toml": FUNCTION_QUESTIONS_TOML,
    }
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
