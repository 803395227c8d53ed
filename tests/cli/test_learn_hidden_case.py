"""``codeblanks learn test`` on a failing hidden case (the learner trial's F7), on this machine
with the real sandbox: the case named and its inputs in words; its code only with ``--setup``
(without it, one line says how to see it); ``--json`` carries the code as ``setup``."""

from __future__ import annotations

import json

import pytest

from codeblanks.cli.main import main
from codeblanks.content import catalog

pytestmark = pytest.mark.usefixtures("learner_home")
LESSON = "arrays-and-shapes"
CODE = "E = np.random.default_rng(21).integers(-5, 6, size=(10, 4))"
ASK = "`codeblanks learn test --setup` shows how this case is built."


def _wrong(learner_home, language: str = "en") -> None:
    """The lesson started in ``w``, holding the trial's `X[3:]`: right on the visible data."""
    lesson = catalog().in_language(language).lesson(LESSON)
    mistake = next(m for m in lesson.exercise.grading.mistakes if "counted" in str(m.path))
    assert main(["learn", "start", LESSON, "w", "--lang", language]) == 0
    (learner_home / "w" / lesson.exercise.filename).write_text(mistake.code)


def test_the_case_is_told_in_words_and_its_code_only_on_request(learner_home, capsys):
    _wrong(learner_home)
    capsys.readouterr()
    assert main(["learn", "test", "w"]) == 1
    out = capsys.readouterr().out
    assert "(case: ten tokens with four features, a sentence of seven)" in out
    assert "`E`: a 10×4 array of whole numbers; `ids`: an array of 7 whole numbers" in out
    assert ASK in out
    assert "default_rng" not in out and "How this case is built:" not in out

    assert main(["learn", "test", "w", "--setup"]) == 1
    out = capsys.readouterr().out
    assert "How this case is built:" in out and CODE in out
    assert "ids = np.random.default_rng(22).integers(0, 10, size=7)" in out
    assert ASK not in out
    assert out.index("`E`: a 10×4 array") < out.index("How this case is built:")

    assert main(["learn", "test", "w", "--json"]) == 1
    grade = json.loads(capsys.readouterr().out)
    assert grade["setup"].startswith(CODE + "\n")
    assert not any("default_rng" in sentence for sentence in grade["feedback"])


def test_in_turkish(learner_home, capsys):
    _wrong(learner_home, "tr")
    capsys.readouterr()
    assert main(["learn", "test", "w", "--lang", "tr"]) == 1
    out = capsys.readouterr().out
    assert "`E`: 10×4 boyutlu bir tam sayı dizisi" in out, out
    assert "Bu durumun nasıl kurulduğunu `codeblanks learn test --setup` gösterir." in out
    assert "default_rng" not in out
    assert main(["learn", "test", "w", "--lang", "tr", "--setup"]) == 1
    out = capsys.readouterr().out
    assert "Bu durum nasıl kuruluyor:" in out and CODE in out


def test_a_right_program_says_nothing_of_a_setup(learner_home, capsys):
    _wrong(learner_home)
    solution = catalog().lesson(LESSON).exercise.solution
    (learner_home / "w" / "lookup.py").write_text(solution)
    capsys.readouterr()
    assert main(["learn", "test", "w", "--setup"]) == 0
    out = capsys.readouterr().out
    assert "Correct" in out and "How this case is built" not in out and ASK not in out
