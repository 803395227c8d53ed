"""`codeblanks mistakes suggest LESSON --db`: wrong programs learners ran on
the site, graded by the real sandbox through the lesson's Run, join the lesson's corpus in the
groups of candidate mistakes: the same wrong output written three ways is one candidate of 3."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from codeblanks.content import catalog
from codeblanks.web.pages import selectors

from .conftest import HOST

pytestmark = pytest.mark.django_db
LESSON = "py-dictionaries"
COUNTING = """\
votes = ["coffee", "tea", "coffee", "water", "tea", "coffee"]
counts = {}
for drink in votes:
    counts[drink] = counts.get(drink, 0) + 1

"""


@pytest.fixture(autouse=True)
def real_course(monkeypatch):
    monkeypatch.setattr(selectors, "current_catalog", lambda: catalog().in_language("en"))


def test_the_sites_wrong_programs_and_the_corpus_are_grouped_by_what_they_do(tmp_path):
    lesson = catalog().lesson(LESSON)
    made = get_user_model().objects.create_user("ada", password="a-long-passphrase-1")
    ada = Client(HTTP_HOST=HOST)
    ada.force_login(made)
    # the corpus's colon-after-name.py prints f"{drink}: {count}"; two more ways to do the same
    for line in ('    print(drink + ":", count)', '    print(drink + ": " + str(count))'):
        ada.post(
            f"/lessons/{LESSON}/run",
            {"code": COUNTING + "for drink, count in counts.items():\n" + line},
        )
    ada.post(f"/lessons/{LESSON}/run", {"code": lesson.exercise.solution})  # right: left out

    out = io.StringIO()
    call_command("mistakes_suggest", LESSON, "--to", str(tmp_path), stdout=out)
    [written] = sorted(tmp_path.iterdir())
    assert written.name.startswith("candidate-3x-")
    text = written.read_text(encoding="utf-8")
    assert text.startswith("# candidate mistake: 3 real programs of this lesson behave like")
    assert "# fails on visible: output" in text
    assert "1 candidate mistake file written" in out.getvalue()
    assert "from 3 wrong programs" in out.getvalue()
