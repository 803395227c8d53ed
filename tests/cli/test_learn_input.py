"""``codeblanks learn`` and a lesson whose program reads input, on this machine: ``start`` says
what the lesson builds on (as its page does) and writes the input into the README, ``test``
gives the program that input. What a server sends for them is checked and escaped."""

from __future__ import annotations

import pytest

from codeblanks.cli.console import UsageError
from codeblanks.cli.learn import untrusted
from codeblanks.cli.learn.workspace import builds_on_line, readme
from codeblanks.cli.main import main
from codeblanks.content import catalog

pytestmark = pytest.mark.usefixtures("learner_home")

LESSON = "py-input"
EARLIER = (
    "Builds on: printing and variables (py-print-and-variables), strings (py-strings), "
    "numbers and arithmetic (py-numbers-and-arithmetic), choices with if and else "
    "(py-if-and-else)"
)


def test_start_says_what_the_lesson_builds_on_and_writes_its_input(learner_home, capsys):
    assert main(["learn", "start", LESSON]) == 0
    assert EARLIER in capsys.readouterr().out
    text = (learner_home / LESSON / "README.md").read_text()
    assert EARLIER in text
    assert "The input your program reads" in text and "```text\n12\n30\n```" in text


def test_a_lesson_that_builds_on_nothing_says_nothing(learner_home, capsys):
    assert main(["learn", "start", "py-print-and-variables"]) == 0
    assert "Builds on" not in capsys.readouterr().out
    assert (
        "The input your program reads"
        not in (learner_home / "py-print-and-variables" / "README.md").read_text()
    )


def test_learn_test_gives_the_program_its_input(learner_home, capsys):
    main(["learn", "start", LESSON, "work"])
    solution = catalog().lesson(LESSON).exercise.solution
    code = learner_home / "work" / "compare.py"
    code.write_text(solution)
    capsys.readouterr()
    assert main(["learn", "test", "work"]) == 0
    code.write_text(solution.replace("b = input()\n", "b = input()\nc = input()\n"))
    capsys.readouterr()
    assert main(["learn", "test", "work"]) == 1
    assert "asked for more input than this case gives" in capsys.readouterr().out


GOOD = {
    "id": "x", "title": "X", "level": "Beginner", "course": "c", "summary": "s",
    "filename": "x.py", "explanation": "e", "task": "t", "starter": "s",
    "expected_output": "o\n", "questions": [],
}  # fmt: skip


def test_an_older_server_without_input_or_builds_on_is_fine():
    assert untrusted.lesson(dict(GOOD), "server", "GET") == GOOD
    assert builds_on_line(GOOD) == ""


@pytest.mark.parametrize(
    "bad",
    [
        {"builds_on": "ideas"},
        {"builds_on": [{"id": "a", "title": "A"}]},
        {"builds_on": [{"id": "a", "title": "A", "idea": 3}]},
        {"stdin": ["12", "30"]},
    ],
)
def test_a_malformed_builds_on_or_input_is_refused_in_words(bad):
    with pytest.raises(UsageError, match="malformed"):
        untrusted.lesson({**GOOD, **bad}, "server", "GET")


def test_what_a_server_sends_is_escaped():
    sent = {
        **GOOD,
        "stdin": "\x1b[2J12\n",
        "builds_on": [{"id": "a\x1b[31m", "title": "A", "idea": "idea\x07\nnext line"}],
    }
    line = builds_on_line(sent)
    assert "\x1b" not in line and "\x07" not in line and "\n" not in line
    text = readme(sent)
    assert "\x1b" not in text and "\x07" not in text
