"""`codeblanks corpus export`: programs learners ran in the real built-in
lesson "py-dictionaries", graded by the real sandbox through the lesson's Run, come out as the
lesson's corpus: one file a distinct program, with the verdict it got, normalised, and nothing
that names the learner who wrote it."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from codeblanks.content import catalog
from codeblanks.content.corpus import programs_in
from codeblanks.web.models import Attempt
from codeblanks.web.pages import selectors
from codeblanks.web.teaching.corpus_export import without_comments

from .conftest import HOST

pytestmark = pytest.mark.django_db
LESSON = "py-dictionaries"
MOST_VOTED_FIRST = """\
# Ada Lovelace, group 7B
votes = ["coffee", "tea", "coffee", "water", "tea", "coffee"]
counts = {}
for drink in votes:
    counts[drink] = counts.get(drink, 0) + 1  # mine, by ada

for drink, count in sorted(counts.items(), key=lambda item: -item[1]):
    print(drink, count)
"""


@pytest.fixture(autouse=True)
def real_course(monkeypatch):
    monkeypatch.setattr(selectors, "current_catalog", lambda: catalog().in_language("en"))


def learner(name: str) -> Client:
    made = get_user_model().objects.create_user(name, password="a-long-passphrase-1")
    c = Client(HTTP_HOST=HOST)
    c.force_login(made)
    return c


def test_each_distinct_program_is_written_once_with_its_verdict_and_no_name(tmp_path):
    lesson = catalog().lesson(LESSON)
    ada, bob = learner("ada"), learner("bob")
    ada.post(f"/lessons/{LESSON}/run", {"code": MOST_VOTED_FIRST})
    reflowed = MOST_VOTED_FIRST.replace("\n", "  \r\n") + "\r\n\r\n"
    bob.post(f"/lessons/{LESSON}/run", {"code": reflowed})  # the same program, other whitespace
    bob.post(f"/lessons/{LESSON}/run", {"code": lesson.exercise.solution})
    bob.post(f"/lessons/{LESSON}/run", {"code": lesson.exercise.starter})
    assert Attempt.objects.filter(lesson_uuid=lesson.uuid).count() == 4

    out = io.StringIO()
    call_command("corpus_export", LESSON, "--to", str(tmp_path), stdout=out)
    assert "3 new programs" in out.getvalue() and "0 already" in out.getvalue()
    found = programs_in(tmp_path)
    assert sorted(p.expect for p in found) == ["correct", "error", "incorrect"]
    wrong = next(p for p in found if p.expect == "incorrect")
    assert wrong.path.name.startswith("incorrect-")
    assert "sorted(counts.items(), key=lambda item: -item[1])" in wrong.code
    for program in found:
        text = program.path.read_text(encoding="utf-8")
        assert text.startswith(f"# expect: {program.expect}\n")
        assert "ada" not in text.lower() and "bob" not in text and "7B" not in text
        assert "\r" not in text and all(line == line.rstrip() for line in text.splitlines())

    # Exported again, after an author renamed a file and a new run came in: only the new one.
    wrong.path.rename(tmp_path / "most-voted-first.py")
    ada.post(f"/lessons/{LESSON}/run", {"code": "print('coffee 3')\n"})
    out = io.StringIO()
    call_command("corpus_export", LESSON, "--to", str(tmp_path), stdout=out)
    assert "1 new program written" in out.getvalue() and "3 already in the corpus" in out.getvalue()
    assert len(programs_in(tmp_path)) == 4


def test_an_unknown_lesson_is_named():
    with pytest.raises(Exception, match="no lesson 'nope'"):
        call_command("corpus_export", "nope")


def test_comments_go_and_code_stays():
    code = '# by ada\nx = "# not a comment"  # ada\n    # indented note\nprint(x)\n'
    assert without_comments(code) == 'x = "# not a comment"\nprint(x)\n'
    # a program Python cannot tokenise loses its comment lines only
    assert without_comments('# ada\ny = 1  # z\ns = """open\n') == 'y = 1  # z\ns = """open\n'


def test_the_command_line_door_is_the_corpus_export_command(monkeypatch):
    """As `codeblanks report`: the command hands its arguments to Django's command (tested
    above on real rows) through ``manage``."""
    from codeblanks.cli import manage
    from codeblanks.cli.main import main

    handed = []
    monkeypatch.setattr(manage, "run", lambda args: handed.append(args.django_args) or 0)
    assert main(["corpus", "export", LESSON]) == 0
    assert main(["corpus", "export", LESSON, "--to", "somewhere"]) == 0
    assert handed == [["corpus_export", LESSON], ["corpus_export", LESSON, "--to", "somewhere"]]
