"""A template sees a ``Verdict`` member as the word it always saw: printed in an attribute and
compared with a literal in ``{% if %}``, as the templates and any author's override do."""

from __future__ import annotations

from django.template import Context, Template
from django.template.loader import render_to_string

from codeblanks.grading import Grade
from codeblanks.grading.verdicts import Verdict
from codeblanks.learning.present import present


def test_a_member_prints_and_compares_as_its_word():
    run = present(Grade(Verdict.TIMEOUT, "", "", ""))
    assert run.verdict is Verdict.TIMEOUT
    html = render_to_string("codeblanks/partials/run_result.html", {"run": run})
    assert 'data-verdict="timeout"' in html and "Verdict." not in html
    said = Template('{% if run.verdict == "timeout" %}yes{% else %}no{% endif %}')
    assert said.render(Context({"run": run})) == "yes"
    other = present(Grade(Verdict.ERROR, "", "", ""))
    assert said.render(Context({"run": other})) == "no"
