"""Questions in solve mode: each kind answered, judged at once, kept, and retried."""

import re

import pytest

from codeblanks.content.public import meaning_order, option_order
from codeblanks.web.learner.learners import SESSION_KEY
from codeblanks.web.models import QuestionAnswer

from .conftest import CHOICE, MATCH

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
URL = "/lessons/first-steps/questions/"


def test_choice_wrong_then_right(client):
    html = client.post(URL + "pick", {"choice": "0"}, **HTMX).content.decode()
    assert "Not right yet" in html and 'id="q-pick"' in html and "is-wrong" in html
    html = client.post(URL + "pick", {"choice": "1"}, **HTMX).content.decode()
    assert "Right." in html and "Two is 2." in html and "is-right" in html
    saved = QuestionAnswer.objects.get()
    assert saved.answer == 1 and saved.correct and saved.tries == 2


def test_blank_is_judged_by_the_grader(client, blank_checker):
    html = client.post(URL + "fill", {"blank": " 1 "}, **HTMX).content.decode()
    assert "Right." in html and blank_checker == ["1"]
    html = client.post(URL + "fill", {"blank": "2"}, **HTMX).content.decode()
    assert "Not right yet" in html and "2 gives a value" in html and 'value="2"' in html


def test_matching_by_select_marks_each_term(client):
    order = meaning_order(MATCH)
    assert order != [0, 1, 2] and sorted(order) == [0, 1, 2]
    html = client.post(
        URL + "pairs", {"match-0": "0", "match-1": "2", "match-2": "1"}, **HTMX
    ).content.decode()
    assert (
        "Not right yet" in html and html.count("term-right") == 1 and html.count("term-wrong") == 2
    )
    html = client.post(
        URL + "pairs", {"match-0": "0", "match-1": "1", "match-2": "2"}, **HTMX
    ).content.decode()
    assert "Right." in html and "Q, K, V." in html


@pytest.mark.parametrize(
    "qid,data",
    [
        ("pick", {}),
        ("pick", {"choice": "7"}),
        ("pick", {"choice": "-1"}),
        ("fill", {"blank": "  "}),
        ("fill", {"blank": "x" * 501}),
        ("pairs", {"match-0": "0"}),
        ("pairs", {"match-0": "a"}),
    ],
)
def test_incomplete_answers_are_422_not_500(client, qid, data):
    r = client.post(URL + qid, data, **HTMX)
    assert r.status_code == 422 and b'class="feedback-line warn"' in r.content
    assert not QuestionAnswer.objects.exists()


def test_unknown_question_is_404(client):
    assert client.post(URL + "nope", {"choice": "1"}).status_code == 404


def test_without_javascript_the_answer_redirects_back_to_the_question(client):
    r = client.post(URL + "pick", {"choice": "1"})
    assert r.status_code == 302 and r.url == "/lessons/first-steps/#q-pick"
    page = client.get("/lessons/first-steps/").content.decode()
    assert "Right." in page and 'value="1" checked' in page


def test_all_questions_right_shows_on_home(client, blank_checker):
    client.post(URL + "pick", {"choice": "1"})
    client.post(URL + "fill", {"blank": "1"})
    client.post(URL + "pairs", {"match-0": "0", "match-1": "1", "match-2": "2"})
    home = client.get("/").content.decode()
    assert "map-stop state-tried" in home and "Questions 3/3" in home  # the course map


def test_a_blank_the_platform_could_not_judge_is_not_recorded(client, monkeypatch):
    from codeblanks.grading import BlankVerdict
    from codeblanks.grading.verdicts import Verdict
    from codeblanks.learning import tutor

    async def busy(lesson, question, answer, sandbox=None, client=None):
        return BlankVerdict(False, "The server is busy; try again.", verdict=Verdict.BUSY)

    monkeypatch.setattr(tutor, "acheck_blank", busy)
    r = client.post(URL + "fill", {"blank": "1"}, **HTMX)
    assert r.status_code == 503 and "try again" in r.content.decode()
    assert not QuestionAnswer.objects.exists()


def _shown(html: str) -> list[str]:
    """The choice's option values in the order the page shows them."""
    part = html[html.index('id="q-pick"') :]
    return re.findall(r'name="choice" value="(\d+)"', part[: part.index("</fieldset>")])


def test_choices_come_in_the_learners_own_order_kept_across_reloads(client):
    # reading makes no learner: a keyless visitor sees the keyless order, the same on a reload
    keyless = [str(i) for i in option_order(CHOICE, "")]
    assert _shown(client.get("/lessons/first-steps/").content.decode()) == keyless
    assert client.session.get(SESSION_KEY) is None
    assert _shown(client.get("/lessons/first-steps/").content.decode()) == keyless
    html = client.post(URL + "pick", {"choice": "1"}, **HTMX).content.decode()
    assert "Right." in html  # the answer names the option, not a place
    key = client.session.get(SESSION_KEY)  # made by the first answer
    order = [str(i) for i in option_order(CHOICE, f"anon:{key}")]
    assert _shown(html) == order
    assert _shown(client.get("/lessons/first-steps/").content.decode()) == order
    assert _shown(client.get("/lessons/first-steps/").content.decode()) == order
