"""A declared mistake is matched by what a program does, not by its text. A
program that does what the mistake does on the visible case and fails like it on every hidden
case (the same values wrong) gets its nudge; one that is wrong elsewhere too does not. Through
the real sandbox, on the built-in QKV lesson."""

from __future__ import annotations

import pytest

from codeblanks.grading import grade

SCALED = "mistakes/scaled-scores.py"


@pytest.fixture(scope="module")
def scaled(qkv) -> str:
    mistake = next(m for m in qkv.exercise.grading.mistakes if m.file == SCALED)
    assert "np.sqrt(K.shape[1])" in mistake.code
    return mistake.code


def test_the_mistake_itself_is_matched(qkv, scaled):
    assert grade(qkv, scaled).mistake == SCALED


def test_the_same_division_written_with_a_number_gets_the_same_nudge(qkv, scaled):
    # the keys are 2 wide on the visible case: the same numbers; 3 wide on one hidden case, where
    # both are wrong in the same values (A and Y), with other numbers
    g = grade(qkv, scaled.replace("np.sqrt(K.shape[1])", "np.sqrt(2)"))
    assert g.verdict == "incorrect" and g.mistake == SCALED
    assert g.feedback[0].startswith("Look again at how this exercise asks you to compute")


def test_other_numbers_on_the_visible_case_are_another_mistake(qkv, scaled):
    g = grade(qkv, scaled.replace("np.sqrt(K.shape[1])", "np.sqrt(3)"))
    assert g.verdict == "incorrect" and g.mistake is None


def test_wrong_in_other_values_on_a_hidden_case_is_another_mistake(qkv, scaled):
    code = scaled.replace("np.sqrt(K.shape[1])", "np.sqrt(2)")
    code = code.replace("K = X @ W_k", "K = X @ W_k if X.shape[0] == 3 else X @ W_k + 1", 1)
    assert code.count("if X.shape[0] == 3") == 1
    g = grade(qkv, code)
    assert g.verdict == "incorrect" and g.mistake is None


def test_an_error_on_a_hidden_case_where_the_mistake_runs_is_another_mistake(qkv, scaled):
    code = scaled.replace("np.sqrt(K.shape[1])", "np.sqrt(2)")
    code = code.replace("Y = A @ V", "Y = A @ V[:3]", 1)  # fine on 3 tokens, not on 5
    g = grade(qkv, code)  # the visible case decides the verdict; the error is on a hidden one
    assert g.verdict == "incorrect" and g.case == "visible" and g.mistake is None
