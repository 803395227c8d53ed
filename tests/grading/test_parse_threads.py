"""The web process grades in several threads at once; on CPython 3.11 two threads building AST
trees together can fail with "SystemError: AST constructor recursion depth mismatch" (four
threads and a garbage collector running finalizers reproduce it within a second). Every tree
the trusted side builds goes through ``pysource.parse_tree``, which builds one at a time."""

from __future__ import annotations

import re
import threading
from pathlib import Path

from codeblanks.content import catalog
from codeblanks.content.pysource import parse_tree

SRC = Path(__file__).resolve().parents[2] / "src" / "codeblanks"


class _Cycle:
    """Garbage that needs the collector, whose finalizer runs Python code (a thread switch)."""

    def __del__(self):
        sum(range(50))


def test_trees_built_in_many_threads_at_once_never_fail():
    source = catalog().lesson("tiny-gpt").exercise.solution * 3
    errors: list[str] = []

    def work():
        for _ in range(40):
            try:
                parse_tree(source)
            except SystemError as error:
                errors.append(str(error))
            for _ in range(100):
                junk = _Cycle()
                junk.me = junk

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_no_module_of_the_trusted_side_calls_ast_parse_itself():
    calls = [
        f"{path.relative_to(SRC)}:{n}"
        for path in SRC.rglob("*.py")
        if "inside" not in path.parts and path.name != "pysource.py"
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"\bast\.parse\(", line)
    ]
    assert calls == [], "use codeblanks.content.pysource.parse_tree: " + ", ".join(calls)


# Given a node of a tree already built, ``ast.literal_eval`` builds none: these pass nodes.
LITERALS_OF_NODES = {"functests.py", "linecards.py"}


def test_no_module_of_the_trusted_side_builds_a_tree_behind_the_lock():
    """``ast.literal_eval`` of text and ``np.load`` (which reads each header with it) build trees
    outside the lock: under a crowd a web worker's ``np.load`` failed a Run so (sandbox/remote.py
    reads arrays with ``execute.decode_npy``, a heatmap block's rows use ``literal_value``)."""
    calls = [
        f"{path.relative_to(SRC)}:{n}"
        for path in SRC.rglob("*.py")
        if "inside" not in path.parts and path.name not in {"pysource.py", *LITERALS_OF_NODES}
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"\bliteral_eval\(|\b(np|numpy)\.load\(", line)
    ]
    assert calls == [], "use codeblanks.content.pysource.literal_value: " + ", ".join(calls)
