"""docs/authoring.md stays true: it lists every problem code, and its complete example is the
valid fixture, file for file."""

from __future__ import annotations

import re
from pathlib import Path

from codeblanks.content.codes import CODES

ROOT = Path(__file__).parents[2]
AUTHORING = (ROOT / "docs" / "authoring.md").read_text()
VALID = Path(__file__).parent / "fixtures" / "valid"


def test_every_problem_code_is_documented_with_its_fix():
    for code, (meaning, fix) in CODES.items():
        assert f"| `{code}` | {meaning} | {fix} |" in AUTHORING, code


def test_the_complete_example_is_the_valid_fixture():
    example = AUTHORING[AUTHORING.index("## A complete example") :]
    blocks = re.findall(r"#### `([^`]+)`\n\n(```+)\w*\n(.*?)\n\2\n", example, re.S)
    shown = {name: body for name, _fence, body in blocks}
    files = {p.relative_to(VALID).as_posix() for p in VALID.rglob("*") if p.is_file()}
    assert set(shown) == files
    for name, body in shown.items():
        assert body + "\n" == (VALID / name).read_text(), name
