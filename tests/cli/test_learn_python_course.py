"""``codeblanks learn`` on this machine with the second course, "Python from the first line":
the lesson list shows each course under its own title with its own next lesson, and a learner
solves a beginner's lesson in English and in Turkish through the real sandbox and grader,
wrong first (and told what is wrong in their language), then right, then the questions."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from codeblanks.cli.learn.backends import LocalBackend
from codeblanks.cli.main import main
from codeblanks.content import catalog
from codeblanks.content.model import BlankQuestion, ChoiceQuestion
from codeblanks.content.public import meaning_order, option_order

pytestmark = pytest.mark.usefixtures("learner_home")  # a learner of its own, every test

STRINGS = "py-strings"
TICKET = "py-if-and-else"


def lesson(lesson_id: str, language: str = "en"):
    return catalog().lesson(lesson_id).in_language(language)


def test_the_list_shows_each_course_under_its_title_with_its_next_lesson(capsys):
    assert main(["learn", "lessons"]) == 0
    out = capsys.readouterr().out
    attention, python = (
        out.index("Attention from scratch\n"),
        out.index("Python from the first line\n"),
    )
    assert attention < out.index("arrays-and-shapes") < python < out.index("py-print-and-variables")
    assert "Next in Attention from scratch: codeblanks learn start arrays-and-shapes" in out
    assert (
        "Next in Python from the first line: codeblanks learn start py-print-and-variables" in out
    )

    assert main(["learn", "lessons", "--lang", "tr"]) == 0
    out = capsys.readouterr().out
    assert "İlk satırdan Python\n" in out and "Yazdırma ve değişkenler" in out
    assert (
        "İlk satırdan Python kursunda sırada: codeblanks learn start py-print-and-variables" in out
    )


def _quiz_lines(lesson_id: str, language: str) -> str:
    """Right answers to every question, as a person would type them at the prompts."""
    seed = LocalBackend().seed
    lines = []
    for q in lesson(lesson_id, language).questions:
        if isinstance(q, ChoiceQuestion):
            lines.append(str(option_order(q, seed).index(q.answer) + 1))
        elif isinstance(q, BlankQuestion):
            lines.append(q.answer)
        else:
            order = meaning_order(q)
            lines.append(" ".join("abcdefghij"[order.index(i)] for i in range(len(q.pairs))))
    return "\n".join(lines) + "\n"


def _quiz(folder: str, lesson_id: str, language: str, cwd) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "codeblanks.cli.main", "learn", "quiz", folder, "--lang", language],
        input=_quiz_lines(lesson_id, language),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_a_learner_solves_the_strings_lesson_in_english(learner_home, capsys):
    assert main(["learn", "start", STRINGS, "s"]) == 0
    code = learner_home / "s" / "names.py"
    assert code.read_text() == lesson(STRINGS).exercise.starter
    assert "## Your task" in (learner_home / "s" / "README.md").read_text()
    capsys.readouterr()

    code.write_text(lesson(STRINGS).exercise.solution.replace('first + " " + last', "first + last"))
    assert main(["learn", "test", "s"]) == 1
    out = capsys.readouterr().out
    assert "Not quite" in out and "where does the first name end and the last name begin?" in out

    code.write_text(lesson(STRINGS).exercise.solution)
    assert main(["learn", "test", "s"]) == 0
    assert "Correct" in capsys.readouterr().out

    n = len(lesson(STRINGS).questions)
    assert f"{n} of {n} right." in _quiz("s", STRINGS, "en", learner_home)
    assert main(["learn", "lessons", "--json"]) == 0
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)}
    progress = {"solved": True, "tried": False, "questions_right": n, "questions": n}
    assert rows[STRINGS]["progress"] == progress
    assert rows[STRINGS]["course_title"] == "Python from the first line"
    assert [key for key, row in rows.items() if row["progress"]["solved"]] == [STRINGS]


def test_a_learner_solves_the_strings_lesson_in_turkish(learner_home, capsys):
    turkish = lesson(STRINGS, "tr")
    assert turkish.language == "tr"
    assert main(["learn", "start", STRINGS, "m", "--lang", "tr"]) == 0
    code = learner_home / "m" / "names.py"
    assert code.read_text() == turkish.exercise.starter and "# Tam ad" in code.read_text()
    assert "Metinler: yazıyla çalışmak" in (learner_home / "m" / "README.md").read_text()
    capsys.readouterr()

    code.write_text(
        turkish.exercise.solution.replace("(first[0] + last[0]).upper()", "first[0] + last[0]")
    )
    assert main(["learn", "test", "m", "--lang", "tr"]) == 1
    out = capsys.readouterr().out
    assert (
        "Tam doğru değil" in out and "Görev baş harflerin büyük harfle yazılmasını istiyor." in out
    )

    code.write_text(turkish.exercise.solution)
    assert main(["learn", "test", "m", "--lang", "tr"]) == 0
    assert "Doğru" in capsys.readouterr().out

    n = len(turkish.questions)
    assert f"{n} sorudan {n} tanesi doğru." in _quiz("m", STRINGS, "tr", learner_home)
    assert main(["learn", "lessons", "--json", "--lang", "tr"]) == 0
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)}
    progress = {"solved": True, "tried": False, "questions_right": n, "questions": n}
    assert rows[STRINGS]["progress"] == progress
    assert rows[STRINGS]["course_title"] == "İlk satırdan Python"


def test_a_function_exercise_is_solved_in_turkish_with_its_tests_named_in_turkish(
    learner_home, capsys
):
    turkish = lesson(TICKET, "tr")
    assert main(["learn", "start", TICKET, "b", "--lang", "tr"]) == 0
    code = learner_home / "b" / "ticket.py"
    code.write_text(turkish.exercise.solution.replace("age >= 65", "age > 65"))
    capsys.readouterr()
    assert main(["learn", "test", "b", "--lang", "tr"]) == 1
    out = capsys.readouterr().out
    assert "tam 65 yaş" in out and "tam 65 yaşındaki birinden" in out

    code.write_text(turkish.exercise.solution)
    assert main(["learn", "test", "b", "--lang", "tr"]) == 0
    assert "Doğru" in capsys.readouterr().out
