"""One lesson folder → a ``Lesson``, or None with every problem found in it.

The folder's files (docs/authoring.md): lesson.toml, explanation.md, task.md, starter.py,
solution.py, expected.txt, questions.toml, the mistake files lesson.toml names, and tests.py for
a function exercise (which may leave out expected.txt).
"""

from __future__ import annotations

import ast
import re
import uuid
from pathlib import Path

from codeblanks.content.codes import problem
from codeblanks.content.corpus import read_corpus
from codeblanks.content.fields import Table, type_name
from codeblanks.content.files import folder_version, inside, read_text, read_toml
from codeblanks.content.functests import read_tests
from codeblanks.content.heatmaps import heatmap_problems
from codeblanks.content.model import (
    MAX_STDIN_BYTES,
    Exercise,
    FunctionTests,
    GradingSpec,
    Lesson,
    Limits,
    Mistake,
    Question,
    Rule,
    Variant,
)
from codeblanks.content.problems import Problem
from codeblanks.content.prose import markdown_problems
from codeblanks.content.pysource import assigned_inputs, parse, top_level_names
from codeblanks.content.questions import read_questions
from codeblanks.content.tomlpos import Locator

LESSON_KEYS = {"id", "uuid", "title", "summary", "level", "teaches", "uses", "exercise", "grading"}
EXERCISE_KEYS = {"file", "hints", "stdin"}
OUTPUT_MODES = ("exact", "numbers")
GRADING_KEYS = {
    "tolerance",
    "distributions",
    "output",
    "exact_dtype",
    "inputs",
    "values",
    "rtol",
    "atol",
    "wall_s",
    "cpu_s",
    "memory_mb",
    "output_bytes",
    "variants",
    "mistakes",
    "rules",
}
MISTAKE_KEYS = {"file", "message", "nudge", "must_fail"}
RULE_KEYS = {"text", "require", "forbid", "count"}
# What a rule's `require` and `forbid` may name besides a dotted name such as `np.einsum`.
CONSTRUCTS = ("for", "while", "comprehension", "loop", "@")
_DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
DEFAULT_FILENAME = "main.py"
_FILENAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*\.py$")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# What a program's standard input may not hold: control characters other than TAB and the line
# end (a CR, a NUL or an escape is an escape gone wrong in the TOML, not something typed).
_STDIN_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def read_lesson(
    folder: Path, *, course_id: str, levels: tuple[str, ...], problems: list[Problem]
) -> Lesson | None:
    """The lesson in ``folder``, or None when it has any problem (all of them are added)."""
    before = len(problems)
    parsed = read_toml(folder, "lesson.toml", problems)
    explanation, task = _read_prose(folder, problems)
    starter = read_text(folder, "starter.py", problems)
    solution = read_text(folder, "solution.py", problems)
    tests_text = read_text(folder, "tests.py", problems, required=False)
    tests = (
        read_tests(tests_text, folder / "tests.py", problems) if tests_text is not None else None
    )
    # A function exercise may leave out expected.txt: then only its tests are graded, and what
    # the program prints is shown, never compared.
    expected = read_text(folder, "expected.txt", problems, required=tests_text is None)
    output_graded = expected is not None or tests_text is None
    if not output_graded:
        expected = ""
    questions = _read_questions_toml(folder, problems)
    trees = _parse_programs(folder, {"starter.py": starter, "solution.py": solution}, problems)

    if parsed is None:
        return None
    data, text = parsed
    root = Table(data, path=folder / "lesson.toml", locator=Locator(text), problems=problems)
    root.unknown(LESSON_KEYS)
    lesson_id = root.slug("id", "content.E030")
    lesson_uuid = _read_uuid(root)
    title = root.text("title")
    summary = root.text("summary")
    level = _read_level(root, levels)
    teaches, uses = root.texts("teaches"), root.texts("uses")

    filename, hints, stdin = _read_exercise(root.table("exercise"))

    grading = _read_grading(root.table("grading"), folder, trees, problems)
    if grading is not None:
        _check_promises(root.table("grading"), grading, tests)

    if (
        len(problems) != before
        or grading is None
        or questions is None
        or explanation is None
        or task is None
        or starter is None
        or solution is None
        or expected is None
    ):
        return None
    return Lesson(
        id=lesson_id,
        uuid=lesson_uuid.lower(),
        title=title,
        summary=summary,
        level=level,
        course_id=course_id,
        path=folder,
        explanation_md=explanation,
        exercise=Exercise(
            task_md=task,
            filename=filename,
            starter=starter,
            solution=solution,
            expected_output=expected,
            output_graded=output_graded,
            grading=grading,
            hints=hints,
            tests=tests,
            stdin=stdin,
        ),
        questions=questions,
        version=folder_version(folder),
        corpus=read_corpus(folder),
        teaches=teaches,
        uses=uses,
    )


def _read_exercise(exercise: Table) -> tuple[str, tuple[str, ...], str]:
    """``[exercise]``: the file name, the hints and the visible case's standard input."""
    exercise.unknown(EXERCISE_KEYS)
    return _read_filename(exercise), exercise.hints(), read_stdin(exercise) or ""


def _read_prose(folder: Path, problems: list[Problem]) -> tuple[str | None, str | None]:
    """explanation.md and task.md, with the problems of their pictures and characters."""
    explanation = read_text(folder, "explanation.md", problems)
    problems += heatmap_problems(explanation, folder / "explanation.md")
    task = read_text(folder, "task.md", problems)
    problems += markdown_problems(explanation, folder / "explanation.md")
    problems += markdown_problems(task, folder / "task.md")
    return explanation, task


def _read_questions_toml(folder: Path, problems: list[Problem]) -> tuple[Question, ...] | None:
    parsed = read_toml(folder, "questions.toml", problems)
    if parsed is None:
        return None
    data, text = parsed
    return read_questions(data, text, folder / "questions.toml", problems)


def _parse_programs(
    folder: Path, sources: dict[str, str | None], problems: list[Problem]
) -> dict[str, ast.Module]:
    """The syntax trees of the programs that were read; one that does not parse is a problem."""
    trees = {}
    for name, source in sources.items():
        if source is None:
            continue
        tree, reason, line = parse(source)
        if tree is None:
            problems.append(problem("content.E041", folder / name, line, f"{name}: {reason}"))
        else:
            trees[name] = tree
    return trees


def read_stdin(table: Table) -> str | None:
    """A case's standard input, ``stdin = "..."`` (None when the table has none): text of at
    most ``MAX_STDIN_BYTES``, without control characters but TAB and the line end."""
    if not table.has("stdin"):
        return None
    value = table.data["stdin"]
    if not isinstance(value, str):
        table.report(
            "content.E011",
            "stdin",
            f"{table.label} `stdin` is {type_name(value)}; it must be a string",
            'write the lines the program reads as a string: stdin = """...""" (one per line)',
        )
        return None
    size = len(value.encode("utf-8", "surrogatepass"))
    if size > MAX_STDIN_BYTES:
        table.report(
            "content.E115",
            "stdin",
            f"{table.label} `stdin` is {size} bytes; a program's input is at most "
            f"{MAX_STDIN_BYTES} bytes",
        )
        return None
    found = _STDIN_CONTROL.search(value)
    if found is not None:
        code = f"U+{ord(found.group()):04X}"
        table.report("content.E113", "stdin", f"{table.label} `stdin` holds {code}")
        return None
    return value


def _read_level(root: Table, levels: tuple[str, ...]) -> str:
    level = root.text("level")
    if level and levels and level not in levels:  # no levels: course.toml is broken
        root.report(
            "content.E032",
            "level",
            f"level {level!r} is not one of the course's levels: {', '.join(levels)}",
        )
    return level


def _read_filename(exercise: Table) -> str:
    filename = exercise.text("file", required=False, default=DEFAULT_FILENAME)
    if not _FILENAME.fullmatch(filename):
        exercise.report(
            "content.E035", "file", f"exercise file {filename!r} is not a plain name.py"
        )
    return filename


def _read_uuid(root: Table) -> str:
    lesson_uuid = root.text("uuid")
    if lesson_uuid and not _is_uuid(lesson_uuid):
        root.report("content.E031", "uuid", f"uuid {lesson_uuid!r} is not a UUID")
    return lesson_uuid


def _is_uuid(text: str) -> bool:
    try:
        return str(uuid.UUID(text)) == text.lower()
    except ValueError:
        return False


def _read_grading(
    table: Table, folder: Path, trees: dict[str, ast.Module], problems: list[Problem]
) -> GradingSpec | None:
    """The grading settings; None if any problem was found in them."""
    before = len(problems)
    table.unknown(GRADING_KEYS)
    inputs = table.texts("inputs")
    values = table.texts("values")
    for name in inputs:
        missing = [
            file
            for file in ("starter.py", "solution.py")
            if file in trees and name not in assigned_inputs(trees[file])
        ]
        if not _IDENTIFIER.fullmatch(name):
            table.report("content.E040", "inputs", f"input {name!r} is not a Python name")
        elif missing:
            table.report(
                "content.E040",
                "inputs",
                f"input {name!r} is not a top-level `{name} = ...` in {' and '.join(missing)}",
            )
    if "solution.py" in trees:
        bound = top_level_names(trees["solution.py"])
        for name in values:
            if name not in bound:
                table.report(
                    "content.E047", "values", f"value {name!r} is never assigned in solution.py"
                )
    rtol = table.number("rtol", default=0.0, minimum=0.0)
    atol = table.number("atol", default=0.0, minimum=0.0)
    limits = Limits(
        wall_s=table.number("wall_s", default=None, minimum=0.0, above=True),
        cpu_s=table.number("cpu_s", default=None, minimum=0.0, above=True),
        memory_mb=table.integer("memory_mb", minimum=1),
        output_bytes=table.integer("output_bytes", minimum=1),
    )
    variants = _read_variants(table, set(inputs))
    mistakes = _read_mistakes(table, folder, problems)
    tolerance = _read_tolerance(table, values)
    distributions = _read_distributions(table, values)
    output = table.text("output", required=False, default="exact")
    if output not in OUTPUT_MODES:
        table.report("content.E090", "output", f"output {output!r} is not exact or numbers")
    exact_dtype = table.flag("exact_dtype")
    rules = _read_rules(table, set(inputs))
    if len(problems) != before:
        return None
    return GradingSpec(
        tolerance=tolerance,
        distributions=distributions,
        output=output,
        exact_dtype=exact_dtype,
        inputs=inputs,
        variants=variants,
        rtol=rtol or 0.0,
        atol=atol or 0.0,
        values=values,
        mistakes=mistakes,
        limits=limits,
        rules=rules,
    )


def _read_tolerance(grading: Table, values: tuple[str, ...]) -> dict[str, tuple[float, float]]:
    """``[grading.tolerance]``: ``A = { rtol = 1e-3, atol = 0.0 }`` for compared values."""
    found: dict[str, tuple[float, float]] = {}
    outer = grading.table("tolerance")
    for name, raw in outer.data.items():
        if name not in values:
            outer.report(
                "content.E089", name, f"tolerance for {name!r}, which is not in [grading] values"
            )
            continue
        if not isinstance(raw, dict):
            outer.report(
                "content.E011",
                name,
                f"tolerance `{name}` must be a table, e.g. {name} = {{ rtol = 1e-3 }}",
                f"write {name} = {{ rtol = ..., atol = ... }}",
            )
            continue
        table = outer.child(name, 0, raw, f"tolerance `{name}`")
        table.where = outer.where  # its keys sit on the line of `name = { ... }`
        table.unknown({"rtol", "atol"})
        rtol = table.number("rtol", default=0.0, minimum=0.0) or 0.0
        atol = table.number("atol", default=0.0, minimum=0.0) or 0.0
        found[name] = (rtol, atol)
    return found


def _read_distributions(grading: Table, values: tuple[str, ...]) -> dict[str, int]:
    """``distributions = { A = 1 }``: the values that sum to 1 along an axis (softmax output)."""
    found: dict[str, int] = {}
    table = grading.table("distributions")
    for name, axis in table.data.items():
        if name not in values:
            table.report("content.E089", name, f"distribution {name!r} is not in [grading] values")
        elif isinstance(axis, bool) or not isinstance(axis, int):
            table.report(
                "content.E011",
                name,
                f"distribution `{name}` must be an axis (an integer), e.g. {name} = -1",
                f"write {name} = 1 for rows, 0 for columns",
            )
        else:
            found[name] = axis
    return found


def _read_variants(grading: Table, inputs: set[str]) -> tuple[Variant, ...]:
    variants = []
    names: dict[str, int] = {}
    for index, raw in enumerate(grading.tables("variants")):
        table = grading.child("variants", index, raw, f"variant {index + 1}")
        name = table.text("name")
        if name in names:
            table.report(
                "content.E045", "name", f"variant name {name!r} is used twice", "rename one"
            )
        names.setdefault(name, index)
        values = {}
        stdin = read_stdin(table)
        for key, expression in table.data.items():
            if key in ("name", "stdin"):
                continue
            if key not in inputs:
                table.report(
                    "content.E042",
                    key,
                    f"variant {name or index + 1!r} sets {key!r}, which is not a declared input",
                )
                continue
            if not isinstance(expression, str):
                table.report(
                    "content.E011",
                    key,
                    f"variant value `{key}` must be a string holding a Python expression",
                    f'write {key} = "..." with the expression in quotes',
                )
                continue
            tree, reason, _line = parse(expression, mode="eval")
            if tree is None:
                table.report(
                    "content.E043", key, f"variant value `{key}` = {expression!r}: {reason}"
                )
                continue
            values[key] = expression
        variants.append(Variant(name, values, stdin))
    return tuple(variants)


def _read_mistakes(grading: Table, folder: Path, problems: list[Problem]) -> tuple[Mistake, ...]:
    mistakes = []
    for index, raw in enumerate(grading.tables("mistakes")):
        table = grading.child("mistakes", index, raw, f"mistake {index + 1}")
        table.unknown(MISTAKE_KEYS)
        file = table.text("file")
        message = table.text("message")
        nudge = table.text("nudge", required=False)
        must_fail = table.texts("must_fail")
        if nudge and message and nudge.strip() == message.strip():
            table.report("content.E082", "nudge", f"{table.label} `nudge` is its `message`")
        if not file:
            continue
        path = inside(folder, file)
        if path is None:
            table.report("content.E004", "file", f"mistake file {file!r} leaves the lesson folder")
            continue
        if not path.exists():
            table.report("content.E044", "file", f"mistake file {file!r} does not exist")
            continue
        code = read_text(folder, file, problems)
        if code is not None:
            mistakes.append(Mistake(path, code, message, nudge, file=file, must_fail=must_fail))
    return tuple(mistakes)


def _read_rules(grading: Table, inputs: set[str]) -> tuple[Rule, ...]:
    """``[[grading.rules]]``: the task's rules, each with the sentence that states it."""
    rules = []
    for index, raw in enumerate(grading.tables("rules")):
        table = grading.child("rules", index, raw, f"rule {index + 1}")
        table.unknown(RULE_KEYS)
        text = table.text("text")
        require, forbid = table.texts("require"), table.texts("forbid")
        count = table.texts("count")
        for key, names in (("require", require), ("forbid", forbid)):
            for name in names:
                if name not in CONSTRUCTS and not _DOTTED.fullmatch(name):
                    table.report(
                        "content.E110",
                        key,
                        f"{table.label} `{key}` names {name!r}, which is neither a dotted name "
                        f"(such as np.einsum) nor one of {', '.join(CONSTRUCTS)}",
                    )
        for name in count:
            if name not in inputs:
                table.report(
                    "content.E110", "count", f"{table.label} counts {name!r}, not a declared input"
                )
        if not (require or forbid or count):
            table.report(
                "content.E110", None, f"{table.label} has none of `require`, `forbid`, `count`"
            )
        rules.append(Rule(text, require, forbid, count))
    return tuple(rules)


def _check_promises(grading: Table, spec: GradingSpec, tests: FunctionTests | None) -> None:
    """Each name in a mistake's ``must_fail`` is one of the hidden cases: a variant or a hidden
    test of tests.py."""
    hidden = {v.name for v in spec.variants}
    hidden |= {t.name for t in tests.tests if t.hidden} if tests is not None else set()
    for index, raw in enumerate(grading.tables("mistakes")):
        table = grading.child("mistakes", index, raw, f"mistake {index + 1}")
        for name in table.texts("must_fail"):
            if name not in hidden:
                table.report(
                    "content.E111",
                    "must_fail",
                    f"{table.label} must fail {name!r}, which is no variant or hidden test",
                )
