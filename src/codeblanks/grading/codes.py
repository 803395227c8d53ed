"""Every problem code the runtime proofs (``codeblanks check``) can report, what it means and
the usual fix: declared once, here, as ``content/codes.py`` does for the loader. docs/authoring.md
lists every code with these words (a test keeps the two the same)."""

from __future__ import annotations

from pathlib import Path

from codeblanks.content.problems import Problem

# code: (what is wrong, how to fix it)
CODES: dict[str, tuple[str, str]] = {
    "grading.E001": (
        "the sample solution is not judged correct",
        "make `expected.txt` the solution's exact output on the visible data",
    ),
    "grading.E002": ("the starter already passes", "leave a real blank in it"),
    "grading.E003": (
        "an anticipated mistake is judged correct",
        "add a variant, a compared value or a test on which it differs from the solution",
    ),
    "grading.E004": (
        "a mistake is rejected, but the learner would see another message",
        "make it differ from the mistakes listed before it on some case",
    ),
    "grading.E005": (
        "a mutant of the solution is judged correct: the checks cannot tell them apart",
        "add a variant, a compared value or a test on which they differ; with no variants, "
        "declare `inputs` and `variants`",
    ),
    "grading.E006": (
        "the solution fails to run on a case",
        "fix the solution or the variant's expressions",
    ),
    "grading.E007": (
        "a program has no top-level `X = ...` for a declared input",
        "assign each input at the top level in every program",
    ),
    "grading.E008": (
        "a blank question does not accept its own answer",
        "make `answer` valid for the line after `setup` (and after each variant's setup); a "
        "`regex` must compile and match every `accept` text",
    ),
    "grading.E009": (
        "a name in `values` is not defined by the solution",
        "name only top-level variables the solution assigns",
    ),
    "grading.E010": ("the sandbox failed while proving", "run the check again"),
    "grading.E011": (
        "a function test fails against the sample solution",
        "fix the test or the solution: every test must pass against solution.py",
    ),
    "grading.E020": (
        "a hidden case does not do what its name promises: the mistake it must fail passes it",
        "change the case's data so that the mistake fails on it (or rename the case), and "
        "keep the mistake passing the visible case",
    ),
    "grading.E040": (
        "a corpus program is judged otherwise than the verdict its `# expect:` line records",
        "if the lesson change is wrong, undo it (a case removed, a tolerance widened); if the "
        "new verdict is right, write it on the program's `# expect:` line",
    ),
    "grading.E041": (
        "a corpus program's first line names no verdict",
        "start the file with `# expect: correct` (or incorrect, error, timeout, memory-limit, "
        "output-limit)",
    ),
    "grading.E030": (
        "a code block of the explanation does not run",
        "fix the code, or fence it as ```python skip if it is meant to fail",
    ),
    "grading.E031": (
        "a code block of the explanation prints something else than the text block after it",
        "copy the block's real output into the text block, or fix the code",
    ),
    # warnings: printed by `codeblanks check`, which still passes
    "grading.W001": (
        "a value blank accepts its value typed in as a bare literal",
        "forbid the literal (`forbid = [...]`) or add `[[question.variants]]` on which the "
        "value changes",
    ),
    "grading.W010": (
        "a hidden case refuses no anticipated mistake, mutant or corpus program that the "
        "visible case lets through: it checks nothing more",
        "give it data on which a likely mistake goes wrong, and declare that mistake with "
        '`must_fail = ["<the case\'s name>"]`; or remove the case',
    ),
}


def problem(
    code: str,
    path: Path,
    line: int | None,
    message: str,
    fix: str | None = None,
    *,
    detail: str = "",
) -> Problem:
    """A ``Problem`` with ``code``'s usual fix unless ``fix`` is given. Unknown codes are a bug."""
    meaning, default_fix = CODES[code]
    fix = default_fix if fix is None else fix
    return Problem(code, path, line, message or meaning, fix, detail)
