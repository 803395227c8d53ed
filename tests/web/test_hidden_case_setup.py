"""The lesson page's verdict on a failing hidden case: the case's code behind a closed "How
this case is built", escaped as any text a lesson or a server sends (the learner trial's F7)."""

from __future__ import annotations

import dataclasses

from django.template.loader import render_to_string

from codeblanks.grading import Grade
from codeblanks.learning.present import present

HOSTILE = "X = '</pre><script>alert(1)</script>'"


def _html(grade: Grade) -> str:
    return render_to_string("codeblanks/partials/run_result.html", {"run": present(grade)})


def test_the_setup_is_closed_and_escaped():
    grade = Grade("incorrect", "", "", "", ("In words.",), "big rows", setup=HOSTILE)
    html = _html(grade)
    assert '<details class="explain setup"><summary>How this case is built</summary>' in html
    assert '<details class="explain setup" open' not in html
    assert "<script>" not in html and "&lt;script&gt;" in html and "</pre><script" not in html
    assert html.index("In words.") < html.index("How this case is built")


def test_no_setup_no_details():
    grade = Grade("incorrect", "", "", "", ("In words.",), "visible")
    assert "How this case is built" not in _html(grade)
    assert "How this case is built" not in _html(dataclasses.replace(grade, verdict="correct"))
