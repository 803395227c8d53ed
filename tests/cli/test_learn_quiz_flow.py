"""The terminal quiz as the learner's trial met it: stopped half-way, the next
`codeblanks learn quiz` goes on at the first question not answered right; after a wrong answer
the next line typed is read as the next answer, not as a yes/no. This machine's courses and
grader, answers through standard input as at a prompt."""

from __future__ import annotations

import io
import json

import pytest

from codeblanks.cli.main import main
from codeblanks.content import catalog
from codeblanks.content.model import ChoiceQuestion

pytestmark = pytest.mark.usefixtures("learner_home")  # a learner of its own, every test

LESSON = "query-key-value"


def choices(lang: str = "en"):
    """The lesson's choice questions, each with its number in the quiz, and the number of its
    right and of a wrong option as this machine shows them."""
    from codeblanks.cli.learn.backends import LocalBackend
    from codeblanks.content.public import option_order

    seed = LocalBackend().seed
    found = []
    for number, q in enumerate(catalog().in_language(lang).lesson(LESSON).questions, 1):
        if isinstance(q, ChoiceQuestion):
            order = option_order(q, seed)
            right = order.index(q.answer) + 1
            wrong = next(i for i in range(1, len(order) + 1) if i != right)
            found.append((number, q, right, wrong))
    return found


def quiz(monkeypatch, capsys, *lines: str, restart: bool = False) -> tuple[int, str]:
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(["learn", "quiz", "q", *(["--restart"] if restart else [])])
    return code, capsys.readouterr().out


def test_the_quiz_goes_on_at_the_first_question_not_answered_right(
    learner_home, monkeypatch, capsys
):
    assert main(["learn", "start", LESSON, "q"]) == 0
    count = len(catalog().lesson(LESSON).questions)
    (first, _q, right, _wrong), *_ = choices()
    assert first == 1, "this test needs a choice question first"

    code, out = quiz(monkeypatch, capsys, str(right))  # question 1 right, then input ends
    assert code == 1 and "Right." in out and "(stopped)" in out
    assert f"1/{count}." in out and f"2/{count}." in out
    kept = json.loads((learner_home / "q" / ".codeblanks-quiz.json").read_text())
    assert kept == {"lesson": LESSON, "right": [catalog().lesson(LESSON).questions[0].id]}

    code, out = quiz(monkeypatch, capsys)  # the next quiz: question 1 is not asked again
    assert f"1/{count}." not in out and f"2/{count}." in out
    assert f"Going on at question 2: 1 of {count} answered right before" in out

    code, out = quiz(monkeypatch, capsys, restart=True)  # --restart asks from question 1
    assert f"1/{count}." in out
    assert not (learner_home / "q" / ".codeblanks-quiz.json").exists()


def test_an_answer_typed_after_a_wrong_one_is_read_as_the_answer(learner_home, monkeypatch, capsys):
    assert main(["learn", "start", LESSON, "q"]) == 0
    count = len(catalog().lesson(LESSON).questions)
    (_n, _q, right, wrong), *_ = choices()
    # wrong, then straight away the right number (the trial's learner typed `1` at "Try again?")
    code, out = quiz(monkeypatch, capsys, str(wrong), str(right))
    assert "[Y/n]" not in out
    again = out.index("Try again: type another answer, or press Enter to go on.")
    assert again < out.index("Right.")
    assert out.count(f"1/{count}.") == 1 and "Right." in out and f"2/{count}." in out

    # an empty line after a wrong answer goes on to the next question, which is asked
    code, out = quiz(monkeypatch, capsys, str(wrong), "", restart=True)
    assert "Right." not in out and f"2/{count}." in out and "(stopped)" in out
    assert not (learner_home / "q" / ".codeblanks-quiz.json").exists()


def test_the_quiz_says_it_in_turkish(learner_home, monkeypatch, capsys):
    monkeypatch.setenv("LANG", "tr_TR.UTF-8")
    assert main(["learn", "start", LESSON, "q"]) == 0
    count = len(catalog().lesson(LESSON).questions)
    (_n, _q, right, wrong), *_ = choices("tr")  # (the Turkish options have their own order)
    code, out = quiz(monkeypatch, capsys, str(wrong), str(right))
    assert "Yeniden dene: başka bir cevap yaz ya da geçmek için Enter'a bas." in out, out
    code, out = quiz(monkeypatch, capsys)
    assert f"2. sorudan devam ediyoruz: {count} sorudan 1 tanesini daha önce doğru" in out, out
