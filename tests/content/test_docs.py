"""docs/authoring.md stays true: it lists every problem code (the loader's and the proofs'), and
its complete examples are the valid and function fixtures (and a lesson of the ported course
tests/grading/pycourse), file for file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from codeblanks.content.codes import CODES
from codeblanks.grading.codes import CODES as GRADING_CODES

ROOT = Path(__file__).parents[2]
AUTHORING = (ROOT / "docs" / "authoring.md").read_text()
FIXTURES = Path(__file__).parent / "fixtures"
VALID = FIXTURES / "valid"


def test_every_problem_code_is_documented_with_its_fix():
    for code, (meaning, fix) in {**CODES, **GRADING_CODES}.items():
        assert f"| `{code}` | {meaning} | {fix} |" in AUTHORING, code
    listed = set(re.findall(r"^\| `((?:content|grading)\.[EW]\d+)` \|", AUTHORING, re.M))
    assert listed == set(CODES) | set(GRADING_CODES)  # and no code the program does not know


def translation_files(name: str) -> bool:
    """What the translated fixture adds to the valid one (and its course.toml, which changes)."""
    return name == "course.toml" or name.startswith("tr/") or "/tr/" in name


@pytest.mark.parametrize(
    ("heading", "folder", "keep"),
    [
        ("## A complete example", VALID, None),
        ("## A complete function exercise", FIXTURES / "function", None),
        ("## A complete translation", FIXTURES / "translated", translation_files),
        (
            "## Porting an exercise with unittest tests",
            Path(__file__).parents[1] / "grading" / "pycourse" / "04-parse-age",
            lambda name: not name.startswith("programs/"),
        ),
    ],
)
def test_a_complete_example_is_its_fixture(heading: str, folder: Path, keep):
    example = AUTHORING[AUTHORING.index(heading) :]
    example = example[: example.find("\n## ", 1) if "\n## " in example[1:] else None]
    blocks = re.findall(r"#### `([^`]+)`\n\n(```+)\w*\n(.*?)\n\2\n", example, re.S)
    shown = {name: body for name, _fence, body in blocks}
    files = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    files = {name for name in files if keep is None or keep(name)}
    assert set(shown) == files
    for name, body in shown.items():
        assert body + "\n" == (folder / name).read_text(), name
