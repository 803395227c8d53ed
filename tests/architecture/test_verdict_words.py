"""No verdict is spelled as a string literal outside its vocabulary: the doors (``web/``,
``cli/``), the learning core and the grader itself compare and key verdicts by ``Verdict``
members (grading/verdicts.py, the one place that spells them), so renaming or adding one is one
edit there, and a typo is an AttributeError, not a silent mismatch. JSON fields that happen to
share a verdict's word ("error", "correct") are fields, not verdicts; a comparison or a table
keyed on verdicts is what this finds. The sandbox states of /healthz ("ok", "busy") and a
function test's status ("error": ``functests.RAISED``) are not verdicts."""

from __future__ import annotations

import ast
from pathlib import Path

from codeblanks.grading.verdicts import Verdict
from codeblanks.sandbox.result import VERDICTS

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "codeblanks"
WORDS = {v.value for v in Verdict} | set(VERDICTS)
NOT_VERDICTS = {
    "web/views/health.py",  # the database's and the sandbox's states
    "grading/verdicts.py",  # the vocabulary: where the words are spelled, once
}
LAYERS = ("web", "cli", "learning", "grading")


def _literals(node: ast.expr) -> list[ast.Constant]:
    elts = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
    return [c for c in elts if isinstance(c, ast.Constant) and c.value in WORDS]


def spelled_verdicts(source: str) -> list[tuple[int, str]]:
    """Where ``source`` compares with a verdict's word, or keys a table on three or more."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                found += [(c.lineno, f"compared with {c.value!r}") for c in _literals(side)]
        elif isinstance(node, ast.Dict):
            keys = [k for k in node.keys if k is not None and _literals(k)]
            if len(keys) >= 3:
                found.append((node.lineno, "a table keyed on verdict words"))
        elif isinstance(node, ast.match_case) and isinstance(node.pattern, ast.MatchValue):
            found += [(c.lineno, f"matched on {c.value!r}") for c in _literals(node.pattern.value)]
    return found


def test_the_rule_finds_what_it_forbids():
    bad = 'if g.verdict == "busy": pass\nT = {"correct": 1, "incorrect": 2, "error": 3}\n'
    assert [line for line, _ in spelled_verdicts(bad)] == [1, 2]
    fine = 'body = {"error": code, "message": m}\nok = result.get("correct")\n'
    assert spelled_verdicts(fine) == []


def test_no_verdict_is_spelled_outside_the_vocabulary():
    wrong = []
    for layer in LAYERS:
        for path in sorted((PACKAGE / layer).rglob("*.py")):
            rel = path.relative_to(PACKAGE).as_posix()
            if "migrations" in path.parts or rel in NOT_VERDICTS:
                continue
            wrong += [f"{rel}:{n}: {what}" for n, what in spelled_verdicts(path.read_text())]
    assert not wrong, "use Verdict members (grading/verdicts.py):\n" + "\n".join(wrong)
