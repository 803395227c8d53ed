"""`check` holds the corpus, through the real sandbox: each real program of a
lesson's corpus must keep the verdict its `# expect:` line records, and a hidden case that
refuses one has earned its place."""

from __future__ import annotations

import dataclasses

from codeblanks.content.corpus import as_file, normalise, parse_file, read_corpus
from codeblanks.content.model import CorpusProgram
from codeblanks.grading import prove

from .grading_helpers import AXIS_0, make_lesson

MISTAKES = make_lesson("softmax-rows").path / "mistakes"


def held(lesson, *programs: tuple[str, str, str]):
    """``lesson`` with a corpus of (file name, verdict expected, mistake file graded)."""
    corpus = tuple(
        CorpusProgram(lesson.path / "corpus" / name, (MISTAKES / source).read_text(), expect)
        for name, expect, source in programs
    )
    return dataclasses.replace(lesson, corpus=corpus, version="")


def test_a_case_that_refuses_a_real_program_earns_its_place(softmax_lesson):
    # Nothing declared refuses "wide rows" but a program that knows only three rows does.
    alone = [p.message for p in prove(softmax_lesson) if p.code == "grading.W010"]
    assert any("“wide rows”" in m for m in alone), alone
    kept = held(softmax_lesson, ("three-rows.py", "error", "three-rows.py"))
    assert prove(kept) == []


def test_a_program_graded_otherwise_than_it_expects_is_an_error_naming_it(softmax_lesson):
    lesson = held(
        softmax_lesson,
        ("columns-not-rows.py", "correct", "axis-0.py"),  # the author recorded it right: wrong
        ("three-rows.py", "error", "three-rows.py"),  # held
        ("unsure.py", "maybe", "same-as-solution.py"),
    )
    found = [p for p in prove(lesson) if p.code in ("grading.E040", "grading.E041")]
    assert [(p.code, p.path.name, p.line) for p in found] == [
        ("grading.E040", "columns-not-rows.py", 1),
        ("grading.E041", "unsure.py", 1),
    ]
    assert found[0].message.startswith(
        "this corpus program expects “correct” but is now judged “incorrect” on the case "
    )
    assert found[0].message.endswith(f": {AXIS_0}")  # what the learner would read first
    assert found[1].message == "its first line expects “maybe”; write `# expect: <verdict>`"
    assert not found[0].warning and not found[1].warning


def test_the_file_format_round_trips(tmp_path):
    code = "x = 1  \r\nprint(x)\r\n\r\n"
    text = as_file(code, "incorrect")
    assert text == "# expect: incorrect\nx = 1\nprint(x)\n"
    assert parse_file(text) == ("incorrect", "x = 1\nprint(x)\n")
    assert parse_file("x = 1\n") == ("", "x = 1\n")
    assert normalise("\n\nx = 1") == "x = 1\n"
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "b.py").write_text(text)
    (tmp_path / "corpus" / "a.py").write_text("#expect:correct\nprint(1)\n")
    (tmp_path / "corpus" / "notes.txt").write_text("not a program")
    found = read_corpus(tmp_path)
    assert [(p.path.name, p.expect, p.code) for p in found] == [
        ("a.py", "correct", "print(1)\n"),
        ("b.py", "incorrect", "x = 1\nprint(x)\n"),
    ]
    assert read_corpus(tmp_path / "nowhere") == ()
