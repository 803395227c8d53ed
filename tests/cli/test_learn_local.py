"""``codeblanks learn`` on this machine (no server): the built-in courses, the real sandbox and
grader, progress in the learner's own data folder."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from codeblanks.cli.main import main
from codeblanks.content import catalog

pytestmark = pytest.mark.usefixtures("learner_home")  # a learner of its own, every test

QKV = "query-key-value"


def lesson():
    return catalog().lesson(QKV)


def test_start_writes_the_folder_and_never_overwrites_the_code(learner_home, capsys):
    assert main(["learn", "start", QKV]) == 0
    folder = learner_home / QKV
    code = folder / "model.py"
    assert code.read_text() == lesson().exercise.starter
    readme = (folder / "README.md").read_text()
    assert lesson().title in readme and "## Your task" in readme
    assert json.loads((folder / ".codeblanks.json").read_text())["lesson"] == QKV

    code.write_text("# my work\n")
    assert main(["learn", "start", QKV]) == 0
    assert code.read_text() == "# my work\n"
    assert "never overwrites" in capsys.readouterr().out


def test_the_starter_fails_and_the_solution_passes_with_progress_kept(learner_home, capsys):
    main(["learn", "start", QKV, "work"])
    capsys.readouterr()
    assert main(["learn", "test", "work"]) == 1
    out = capsys.readouterr().out
    assert "Your program stopped with an error  (case: the visible data)" in out and "line" in out

    (learner_home / "work" / "model.py").write_text(lesson().exercise.solution)
    assert main(["learn", "test", "work", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "correct"

    assert main(["learn", "lessons", "--json"]) == 0
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)}
    assert rows[QKV]["progress"]["solved"] is True
    assert not any(row["progress"]["solved"] for key, row in rows.items() if key != QKV)


def test_a_wrong_program_shows_what_is_wrong(learner_home, capsys):
    main(["learn", "start", QKV, "w"])
    wrong = lesson().exercise.solution.replace("A = softmax(scores, axis=1)", "A = scores")
    (learner_home / "w" / "model.py").write_text(wrong)
    capsys.readouterr()
    assert main(["learn", "test", "w"]) == 1
    out = capsys.readouterr().out
    assert "Not quite  (case: " in out and "Expected (-) and your output (+):" in out


def test_hints_come_one_at_a_time_and_end(learner_home, capsys):
    hints = lesson().exercise.hints
    main(["learn", "start", QKV, "h"])
    capsys.readouterr()
    for number, hint in enumerate(hints, 1):
        assert main(["learn", "hint", "h"]) == 0
        out = capsys.readouterr().out
        assert f"Hint {number} of {len(hints)}" in out and hint.split()[0] in out
    assert main(["learn", "hint", "h"]) == 0
    assert "solution" in capsys.readouterr().out


def test_the_quiz_takes_answers_from_standard_input(learner_home):
    """As a person would at a prompt (here through a pipe): right answers to every question."""
    main(["learn", "start", QKV, "q"])
    from codeblanks.cli.learn.backends import LocalBackend
    from codeblanks.content.model import BlankQuestion, ChoiceQuestion
    from codeblanks.content.public import meaning_order, option_order

    seed = LocalBackend().seed  # this machine's, as the quiz below reads it
    lines = []
    for q in lesson().questions:
        if isinstance(q, ChoiceQuestion):
            lines.append(str(option_order(q, seed).index(q.answer) + 1))
        elif isinstance(q, BlankQuestion):
            lines.append(q.answer)
        else:
            order = meaning_order(q)
            lines.append(" ".join("abcdefghij"[order.index(i)] for i in range(len(q.pairs))))
    done = subprocess.run(
        [sys.executable, "-m", "codeblanks.cli.main", "learn", "quiz", "q"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=learner_home,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    n = len(lesson().questions)
    assert f"{n} of {n} right." in done.stdout


def test_review_shows_every_answer(learner_home, capsys):
    main(["learn", "start", QKV, "r"])
    capsys.readouterr()
    assert main(["learn", "quiz", "r", "--review"]) == 0
    out = capsys.readouterr().out
    assert out.count("Why:") == len(lesson().questions)


def test_outside_a_lesson_folder_is_a_usage_error(learner_home, capsys):
    assert main(["learn", "test"]) == 2
    assert "not a lesson folder" in capsys.readouterr().err


def test_an_unknown_lesson_is_a_usage_error(capsys):
    assert main(["learn", "start", "query-key-valu"]) == 2
    assert "did you mean query-key-value" in capsys.readouterr().err


def test_a_program_cannot_drive_the_terminal(learner_home, capsys):
    main(["learn", "start", QKV, "e"])
    (learner_home / "e" / "model.py").write_text('print("\\x1b[2J\\x1b]0;owned\\x07 hi")\n')
    capsys.readouterr()
    main(["learn", "test", "e"])
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\x1b[2J" in out


def test_solution_asks_first(learner_home, capsys):
    main(["learn", "start", QKV, "s"])
    capsys.readouterr()
    assert main(["learn", "solution", "s", "--yes"]) == 0
    assert "Q = X @ W_q" in capsys.readouterr().out
    assert (learner_home / "s" / "model.py").read_text() == lesson().exercise.starter
    data = json.loads((learner_home / "data" / "codeblanks" / "progress.json").read_text())
    assert data[lesson().uuid]["solution_seen"] is True


def test_learn_help_imports_nothing_heavy():
    """`codeblanks learn --help` must stay instant: no NumPy, grader or Django behind it."""
    probe = (
        "import sys; from codeblanks.cli.main import main\n"
        "try:\n    main(['learn', '--help'])\nexcept SystemExit:\n    pass\n"
        "names = ('numpy', 'django', 'codeblanks.grading', 'rich')\n"
        "heavy = [m for m in names if m in sys.modules]\n"
        "print('HEAVY', heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert "HEAVY []" in done.stdout, done.stdout + done.stderr


def test_the_quiz_shows_choices_in_this_machines_own_order(learner_home):
    """Not the author's order: a seed made once on this machine shuffles them, the same at
    every quiz, and an answer typed as the number shown is judged as that option."""
    from codeblanks.cli.learn.backends import LocalBackend
    from codeblanks.content.model import ChoiceQuestion

    backend = LocalBackend()
    seed = backend.seed
    assert seed and LocalBackend().seed == seed  # kept, not made again
    choices = [q for q in lesson().questions if isinstance(q, ChoiceQuestion)]
    shown = {q["id"]: q.get("options") for q in backend.lesson(QKV)["questions"]}
    assert all(sorted(shown[q.id]) == sorted(q.options) for q in choices)
    assert shown == {q["id"]: q.get("options") for q in backend.lesson(QKV)["questions"]}
    for q in choices:
        right = shown[q.id].index(q.options[q.answer])
        assert backend.answer(QKV, q.id, right)["correct"] is True
        wrong = next(i for i in range(len(q.options)) if i != right)
        assert backend.answer(QKV, q.id, wrong)["correct"] is False


def test_an_answer_that_is_not_judged_is_said_and_asked_again(learner_home, capsys):
    """Too long (or met by a busy sandbox): the quiz says why and asks the same question again,
    as the lesson page does; nothing is recorded for it."""
    from codeblanks.cli.learn import quiz
    from codeblanks.cli.learn.backends import LocalBackend
    from codeblanks.content.model import BlankQuestion

    backend = LocalBackend()
    blank = next(q for q in lesson().questions if isinstance(q, BlankQuestion))
    shown = next(q for q in backend.lesson(QKV)["questions"] if q["id"] == blank.id)
    typed = iter(["x" * 501, blank.answer])
    right = quiz.solve(
        [shown], lambda qid, answer: backend.answer(QKV, qid, answer), ask=lambda _: next(typed)
    )
    assert right == 1
    assert "Keep the answer under 500 characters." in capsys.readouterr().out
    assert backend.progress.of(lesson())["questions"] == {blank.id: True}
