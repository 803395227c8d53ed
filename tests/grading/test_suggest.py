"""`codeblanks mistakes suggest` groups a lesson's real wrong programs that no
declared mistake matches by what they do, and writes one candidate mistake per group with its
count and a draft message. Through the real sandbox, on stable-softmax's corpus (two programs
written independently that keep integer weights: `np.zeros_like`, `np.empty_like`)."""

from __future__ import annotations

import pytest

from codeblanks.cli.main import main
from codeblanks.content import catalog
from codeblanks.grading.suggest import suggest_into, wrong_in_corpus

from .grading_helpers import with_grading


@pytest.fixture(scope="module")
def softmax():
    lesson = catalog().lesson("stable-softmax")
    assert lesson is not None
    return lesson


@pytest.fixture(scope="module")
def undeclared(softmax):
    """The lesson as it was before the zeros_like mistake was declared."""
    kept = tuple(m for m in softmax.exercise.grading.mistakes if m.file != "mistakes/zeros-like.py")
    assert len(kept) == len(softmax.exercise.grading.mistakes) - 1
    return with_grading(softmax, mistakes=kept)


def test_the_zeros_like_programs_are_proposed_as_one_mistake(undeclared, sandbox, tmp_path):
    programs = wrong_in_corpus(undeclared)
    assert len(programs) == 2
    candidates, written = suggest_into(undeclared, programs, tmp_path, sandbox)
    assert [c.count for c in candidates] == [2]
    [(candidate, path)] = written
    assert path.parent == tmp_path and path.name.startswith("candidate-2x-")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# candidate mistake: 2 real programs of this lesson behave like")
    assert "# fails on visible: whole-number scores" in text
    assert '# message = "1 of 3 tests fails: The hidden test “whole-number scores”' in text
    assert candidate.code in text and ("zeros_like" in text or "empty_like" in text)
    assert len(candidate.code) <= min(len(p) for p in programs)  # the shortest, to read


def test_programs_a_declared_mistake_matches_are_no_candidates(softmax, sandbox, tmp_path):
    candidates, written = suggest_into(softmax, wrong_in_corpus(softmax), tmp_path, sandbox)
    assert candidates == [] and written == []


def test_the_command_writes_into_the_folder_given(tmp_path, capsys):
    assert main(["mistakes", "suggest", "stable-softmax", "--to", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "0 candidate mistake files written to" in out
    assert list(tmp_path.iterdir()) == []
