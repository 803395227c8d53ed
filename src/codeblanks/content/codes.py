"""Every problem code the loader can report, what it means and the usual fix.

Codes are stable: once published, a code keeps its meaning (retire a code rather than reuse it).
docs/authoring.md lists every code here, and tests/content/fixtures/<code>/ holds a broken lesson
that produces it (both are checked by the tests).
"""

from __future__ import annotations

from pathlib import Path

from codeblanks.content.problems import Problem

# code: (what is wrong, how to fix it)
CODES: dict[str, tuple[str, str]] = {
    # files
    "content.E001": (
        "a required file is missing",
        "create it; docs/authoring.md says what goes in it",
    ),
    "content.E002": ("a file is not valid UTF-8 text", "save the file as UTF-8"),
    "content.E003": ("a file is binary (it contains NUL bytes)", "replace it with a text file"),
    "content.E004": (
        "a file name leaves its folder (absolute, `..`, or a link outside)",
        "use a plain relative path inside the lesson folder",
    ),
    "content.E005": ("a TOML file does not parse", "fix the TOML syntax at the given line"),
    "content.E006": ("a required file is empty", "write the file's content"),
    # keys and values
    "content.E010": ("a required key is missing", "add the key"),
    "content.E011": ("a value has the wrong type", "give the value the type the format asks for"),
    "content.E012": ("an unknown key (a typo?)", "remove the key or correct its spelling"),
    "content.E013": ("a text value is empty", "write the text"),
    # courses
    "content.E020": (
        "a course id is not a slug",
        "use lowercase letters, digits and single hyphens, e.g. `attention-from-scratch`",
    ),
    "content.E021": (
        "the course's levels are not a non-empty list of distinct names",
        'list distinct names, e.g. levels = ["Beginner", "Expert"]',
    ),
    "content.E022": ("two courses have the same id", "give each course its own id"),
    "content.E023": ("a course has no lessons", "add a lesson folder with a lesson.toml"),
    "content.E025": (
        "a course's `order` is not a list of its lessons' ids, each once",
        "list every lesson id of the course once, in the order learners take them",
    ),
    "content.E026": (
        "a lesson is not in its course's `order`",
        "add its id to `order` in course.toml where learners should meet it",
    ),
    "content.E027": (
        "a course's `ideas` are not a table of idea names and their words",
        'write [ideas] with one line per idea, e.g. softmax = "a stable softmax"',
    ),
    "content.E024": (
        "no course found at a path",
        "point at a course folder (with course.toml) or a folder of course folders",
    ),
    # lessons
    "content.E030": (
        "a lesson id is not a slug",
        "use lowercase letters, digits and single hyphens, e.g. `query-key-value`",
    ),
    "content.E031": (
        "a lesson uuid is not a UUID",
        'make one with: python -c "import uuid; print(uuid.uuid4())"',
    ),
    "content.E032": ("a lesson's level is not one of its course's levels", "use a course level"),
    "content.E033": (
        "two lessons have the same id (ids are unique across all courses)",
        "give each lesson its own id",
    ),
    "content.E034": (
        "two lessons have the same uuid",
        "give the newer lesson a fresh uuid (never change one learners have used)",
    ),
    "content.E035": (
        "the exercise file name is not a plain `name.py`",
        'use a plain Python file name, e.g. file = "model.py"',
    ),
    "content.E036": (
        "a lesson's level is below the level of the lesson before it on the course's path",
        "raise its level, or move it in `order` to where its level fits: levels never go down",
    ),
    "content.E037": (
        "a lesson teaches or uses an idea its course does not list",
        "add the idea to [ideas] in course.toml (and its tr/course.toml), or correct its name",
    ),
    "content.E038": (
        "a lesson uses an idea that no earlier lesson on the path teaches",
        "move the lesson after one that teaches the idea, or teach the idea in this lesson",
    ),
    # grading settings
    "content.E040": (
        "a grading input is not a top-level assignment in starter.py and solution.py",
        "assign the input at the top level of both files, e.g. `X = np.eye(4)`",
    ),
    "content.E041": ("Python code does not parse", "fix the syntax error"),
    "content.E042": (
        "a variant sets a name that is not a declared input",
        "add the name to [grading] inputs or remove it from the variant",
    ),
    "content.E043": (
        "a variant value is not a Python expression",
        'write an expression, e.g. X = "np.ones((5, 4))"',
    ),
    "content.E044": ("a mistake file does not exist", "create the file or correct `file`"),
    "content.E045": ("two variants have the same name", "give each variant its own name"),
    "content.E046": ("a number is out of range", "use a finite number in the allowed range"),
    "content.E047": (
        "a compared value is never assigned at the top level of solution.py",
        "assign it in solution.py or remove it from [grading] values",
    ),
    # questions
    "content.E050": ("a question has an unknown kind", 'use kind = "choice", "blank" or "match"'),
    "content.E051": ("two questions of a lesson have the same id", "give each question its own id"),
    "content.E052": (
        "a question id is not a slug",
        "use lowercase letters, digits and single hyphens",
    ),
    "content.E053": (
        "a choice answer is not one of its options",
        "make `answer` the exact text of the one correct option",
    ),
    "content.E054": ("a choice question repeats an option", "make every option different"),
    "content.E055": ("a choice question has fewer than two options", "give at least two options"),
    "content.E056": (
        "a blank's code does not contain exactly one `____`",
        "mark the one blank with four underscores: `____`",
    ),
    "content.E057": ("a blank's check is unknown", 'use check = "value", "exact" or "regex"'),
    "content.E058": ("a blank's regex does not compile", "fix the regular expression"),
    "content.E059": (
        "a blank's code with the answer filled in is not valid Python",
        "make `code` with `answer` in place of `____` a valid line",
    ),
    "content.E060": ("a match question has fewer than two pairs", "give at least two pairs"),
    "content.E061": ("a match question repeats a term", "make every term different"),
    "content.E062": ("a match question repeats a meaning", "make every meaning different"),
    # names that become URLs or identifiers (E070-E079)
    "content.E070": (
        "a level's name does not make a web address",
        "name levels with ASCII letters, digits, single spaces and hyphens (`Getting started`)",
    ),
    "content.E071": (
        "two levels make the same web address (they differ only in case or spaces)",
        "give each level a name that differs in its letters or digits",
    ),
    # hints, nudges and blanks that cannot be gamed
    "content.E080": ("a `hints` list is empty", "write at least one hint, or remove `hints`"),
    "content.E081": ("a hint repeats an earlier hint", "make each hint say something new"),
    "content.E082": (
        "a mistake's `nudge` is the same as its `message`",
        "make the nudge a smaller first step (a question, a pointer), and keep the explanation "
        "for `message`",
    ),
    "content.E083": (
        "`forbid` or `variants` on a blank that is not checked by value",
        'use them with check = "value", or remove them',
    ),
    "content.E084": (
        "a `forbid` item is not one Python token",
        'forbid one literal, name or operator per item, e.g. forbid = ["4", "d_k"]',
    ),
    "content.E085": (
        "a blank's own answer uses a token it forbids",
        "remove the token from `forbid` or change `answer`",
    ),
    # function exercises
    "content.E086": (
        "tests.py declares no test",
        'decorate each test function with @test("name") (from lessontest import test)',
    ),
    "content.E087": (
        'a test is not declared as @test("name", hidden=..., rtol=..., atol=..., exact=..., '
        "unordered=...) with literal values",
        'write the name and options as literals, e.g. @test("empty input", hidden=True)',
    ),
    "content.E088": ("two tests have the same name", "give each test its own name"),
    # tolerance and heuristics that fit the data
    "content.E089": (
        "a tolerance or a distribution names a value that is not compared",
        "add the name to [grading] values, or correct it",
    ),
    "content.E090": ("an output mode is unknown", 'use output = "exact" or "numbers"'),
    "content.E110": (
        "a task rule names something the grader cannot check",
        "require or forbid dotted names (`np.einsum`), `@`, `for`, `while`, `comprehension` or "
        "`loop`; count a declared input",
    ),
    "content.E111": (
        "a mistake's `must_fail` names no hidden case",
        "name a variant of [grading] or a hidden test of tests.py, exactly as written",
    ),
    "content.E112": (
        "a ```heatmap block of an explanation is not a 2-D list of numbers",
        "write an optional `title: ...` line, then rows of equal length, e.g. [[1, 0], [0, 1]]; "
        'infinities and NaN as "inf", "-inf", "nan"',
    ),
    "content.E115": (
        "a program's standard input (`stdin`) is longer than 16 KiB",
        "give the program the few lines it reads; a program that needs data at length makes it "
        "itself or is given it as an input",
    ),
    # characters a renderer cannot show
    "content.E113": (
        "a text holds a control character (often an escape gone wrong: `\\t` of `\\text`)",
        "write the characters you meant; in TOML or Python strings double the backslash",
    ),
    "content.E114": (
        "a backslash sequence no renderer knows, in maths or prose",
        "correct the TeX command, or add it to TEX_COMMANDS in content/prose.py if it is meant",
    ),
    # translations (a lesson's tr/ folder, a course's languages)
    "content.E100": (
        "a translation is missing a part of the original",
        "translate the part the message names (docs/authoring.md, Translating a lesson)",
    ),
    "content.E101": (
        "a translation has a part the original does not have",
        "remove it, or correct the name it is filed under",
    ),
    "content.E102": (
        "a translated question does not ask what the original asks",
        "keep the original's options and pairs, in the same order",
    ),
    "content.E103": (
        "a course's languages are not a list of distinct two-letter codes",
        'write languages = ["en", "tr"], the lessons\' own language first',
    ),
    # warnings: `codeblanks check` prints them and still passes; the lesson loads
    "content.W001": (
        "a TODO from the scaffold is still in a lesson file",
        "write the text the TODO asks for, then delete the TODO",
    ),
    "content.W002": (
        "a translation is out of date: its original changed after it was translated",
        "update the translation, then run `codeblanks translate LESSON --lang xx --stamp`",
    ),
    "content.W003": (
        "a lesson has no translation into one of its course's languages",
        "translate it: `codeblanks translate LESSON --lang xx` starts one",
    ),
    "content.W004": (
        "more than 40 % of a course's choice answers are in one position (A, B, ...)",
        "move the answers so that each position holds about as many; the learner's page "
        "shuffles the options, but the files are the order everyone else reads",
    ),
    "content.W005": (
        "in more than 40 % of a course's choice questions the answer is the longest option",
        "keep the options parallel: move the justification into `explanation`, and make a "
        "wrong option the longest now and then",
    ),
    "content.W006": (
        "an explanation holds more than two thirds of the lines the exercise asks for, "
        "word for word",
        "show the idea on other names, sizes or data, so that the exercise asks for more "
        "than copying",
    ),
}


def problem(
    code: str, path: Path, line: int | None, message: str, fix: str | None = None
) -> Problem:
    """A ``Problem`` with ``code``'s usual fix unless ``fix`` is given. Unknown codes are a bug."""
    meaning, default_fix = CODES[code]
    return Problem(code, path, line, message or meaning, default_fix if fix is None else fix)
