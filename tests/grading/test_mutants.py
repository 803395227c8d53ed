"""The validator's own mutants of a solution."""

from __future__ import annotations

import ast

from codeblanks.grading.mutants import mutants

SOLUTION = """import numpy as np

np.set_printoptions(precision=3)
X = np.ones((3, 4))
W = np.ones((4, 2)) / 2
Q = X @ W
S = np.dot(Q, Q.T) / np.sqrt(2)
E = np.exp(S - S.max(axis=-1, keepdims=True))
A = E / E.sum(axis=1, keepdims=True)
print(np.round(A, 3), A.round(2), np.transpose(A))
"""


def test_each_kind_of_mutant_is_made_once_per_place():
    made = list(mutants(SOLUTION, "expected\n"))
    kinds = [m.kind for m in made]
    assert kinds[0] == "constant-output"
    assert kinds.count("drop-rounding") == 2
    assert kinds.count("drop-printoptions") == 1
    assert kinds.count("swap-matmul") == 2  # X @ W and np.dot(Q, Q.T)
    assert kinds.count("change-axis") == 2
    assert kinds.count("drop-keepdims") == 2
    assert kinds.count("drop-transpose") == 2  # Q.T and np.transpose(A)
    assert kinds.count("drop-division") == 3
    for m in made:
        ast.parse(m.code)
        assert ast.unparse(ast.parse(m.code)) != ast.unparse(ast.parse(SOLUTION))
    axis = [m for m in made if m.kind == "change-axis"]
    assert "axis=0" in axis[0].code and axis[0].line == 8
    assert axis[0].description == "another `axis=` (line 8: `axis=-1`)"
    swap = next(m for m in made if m.kind == "swap-matmul")
    assert "W @ X" in swap.code


def test_the_constant_mutant_computes_everything_but_prints_a_constant():
    (constant,) = [m for m in mutants(SOLUTION, "[[1. 2.]]\n") if m.kind == "constant-output"]
    assert "A = E / E.sum(axis=1, keepdims=True)" in constant.code
    assert constant.code.count("print(") == 1
    assert constant.code.rstrip().endswith("print('[[1. 2.]]\\n', end='')")


def test_tolerant_lessons_get_no_rounding_mutants():
    kinds = {m.kind for m in mutants(SOLUTION, "", tolerant=True)}
    assert "drop-rounding" not in kinds and "drop-printoptions" not in kinds
    assert list(mutants("x = (", "")) == []
