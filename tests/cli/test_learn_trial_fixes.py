"""The learner trial's terminal findings (F14), on this machine's courses, grader and
sandbox, in English and Turkish: a lesson folder's README says its title once; a solved lesson
names the next one and how to start it; a wrong match marks each term; a lesson begun but not
solved is marked tried in `learn lessons`."""

from __future__ import annotations

import io

import pytest

from codeblanks.cli.main import main
from codeblanks.content import catalog
from codeblanks.content.model import BlankQuestion, ChoiceQuestion, MatchQuestion
from codeblanks.content.public import meaning_order, option_order, reading_next

pytestmark = pytest.mark.usefixtures("learner_home")
QKV = "query-key-value"


@pytest.fixture(params=["en", "tr"])
def lang(request, monkeypatch):
    monkeypatch.setenv("LANG", "tr_TR.UTF-8" if request.param == "tr" else "C.UTF-8")
    return request.param


def _lesson(lesson_id, lang):
    return catalog().in_language(lang).lesson(lesson_id)


def test_the_readme_says_the_title_once(learner_home, lang):
    lesson = _lesson("py-strings", lang)
    assert lesson.explanation_md.lstrip().startswith(f"# {lesson.title}")  # the trial's case
    assert main(["learn", "start", "py-strings", "s"]) == 0
    readme = (learner_home / "s" / "README.md").read_text()
    assert readme.startswith(f"# {lesson.title}\n") and readme.count(lesson.title) == 1


def test_a_solved_lesson_names_the_next_one(learner_home, lang, capsys):
    following = reading_next(catalog().courses)
    after = _lesson(following[QKV], lang)
    main(["learn", "start", QKV, "w"])
    (learner_home / "w" / "model.py").write_text(_lesson(QKV, lang).exercise.solution)
    capsys.readouterr()
    assert main(["learn", "test", "w"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"“{after.title}”" in out and f"codeblanks learn start {after.id}" in out

    last = next(x for x, nxt in following.items() if nxt is None)
    main(["learn", "start", last, "z"])
    (learner_home / "z" / _lesson(last, lang).exercise.filename).write_text(
        _lesson(last, lang).exercise.solution
    )
    capsys.readouterr()
    assert main(["learn", "test", "z"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "codeblanks learn start" not in said
    assert ("last lesson" in said) if lang == "en" else ("son dersi" in said)


def test_a_wrong_match_marks_each_term(learner_home, lang, monkeypatch, capsys):
    from codeblanks.cli.learn.backends import LocalBackend

    seed = LocalBackend().seed
    lines = []
    match = None
    for q in _lesson(QKV, lang).questions:
        if isinstance(q, ChoiceQuestion):
            lines.append(str(option_order(q, seed).index(q.answer) + 1))
        elif isinstance(q, BlankQuestion):
            lines.append(q.answer)
        elif isinstance(q, MatchQuestion):
            match = q
            order = meaning_order(q)
            right = [order.index(i) for i in range(len(q.pairs))]
            wrong = [right[1], right[0], *right[2:]]  # the first two swapped
            lines.append(" ".join("abcdefghij"[i] for i in wrong))
            break
    assert match is not None and len(match.pairs) >= 3
    main(["learn", "start", QKV, "q"])
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    main(["learn", "quiz", "q"])
    out = capsys.readouterr().out
    term = [t for t, _m in match.pairs]
    assert f"✗ 1. {term[0]}" in out and f"✗ 2. {term[1]}" in out and f"✓ 3. {term[2]}" in out
    assert ("2 terms are matched wrong." if lang == "en" else "2 terim yanlış eşleşti.") in out


def test_a_lesson_begun_but_not_solved_is_marked_tried(learner_home, lang, capsys):
    main(["learn", "start", QKV, "t"])
    assert main(["learn", "test", "t"]) == 1  # the starter: tried, not solved
    capsys.readouterr()
    assert main(["learn", "lessons"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if f" {QKV} " in f" {line} ")
    assert row.lstrip().startswith("◐"), row
    assert "◐" in next(line for line in out.splitlines() if "✓" in line and "→" in line)
