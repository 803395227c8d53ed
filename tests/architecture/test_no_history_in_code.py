"""History stays in docs/changelog.md: no docstring or comment of the package, the benchmarks,
the deployment scripts or the tests points at one of our issues ("issue 25"), which says where a
change came from, not what the code does now. Another project's issue (NumPy's, firejail's) is a
reference and may stay."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# "issue 25", "Issue 40", "issue #8": our tracker, unless another project's name comes first.
OURS = re.compile(r"(?<![\w-])(?<!numpy )(?<!firejail )(?<!kafel )issue #?\d+", re.IGNORECASE)


def test_no_issue_numbers_in_the_code():
    found = []
    for folder in ("src/codeblanks", "benchmarks", "deploy", "tests"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == Path(__file__).resolve():
                continue  # its own examples
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if OURS.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "history belongs in docs/changelog.md:\n" + "\n".join(found)
