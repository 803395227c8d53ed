"""docs/api.md promises that no input produces a 500; this tries to make one. Hypothesis sends
hostile values (control characters, Unicode digits, huge numbers, deep nesting, markup, format
strings) to every form and every API endpoint, through the real views, grader and sandbox, and
asserts that each answer is below 500 (and JSON under /api). Bounded; derandomized in CI."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from .conftest import BLANK, CHOICE, FIRST, MATCH
from .test_run import _config

pytestmark = pytest.mark.django_db

NASTY = [
    "",
    " ",
    "0",
    "-1",
    "1.0",
    "1e9",
    "²",
    "٣",
    "１",
    "9" * 5000,
    "[" * 5000,
    "{" * 5000,
    "\x00",
    "\x1b[2J",
    "\u202e",
    "\r\n",
    "%s%n",
    "{0}",
    "{{ x }}",
    "<script>alert(1)</script>",
    "[log in](https://evil.example/l)",
    "../../etc/passwd",
    "a" * 20_000,
    "import os; os._exit(1)",
    "raise SystemExit('Traceback (most recent call last):')",
    "__import__('sys').stderr.write('File \"model.py\", line " + "9" * 5000 + "\\n')",
]
# Text a browser could send: any character but lone surrogates (a form is UTF-8).
TEXT = st.one_of(
    st.sampled_from(NASTY),
    st.text(st.characters(exclude_categories=("Cs",)), max_size=60),
)
JSON_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


def _deep(depth: int) -> bytes:
    return b'{"code": ' + b"[" * depth + b"]" * depth + b"}"


BODY = st.one_of(
    st.binary(max_size=200),
    JSON_VALUE.map(lambda v: json.dumps(v).encode()),
    st.builds(lambda code: json.dumps({"code": code}).encode(), TEXT),
    st.sampled_from([_deep(50_000), b"[" * 100_000 + b"]" * 100_000, b'{"code": 1' + b"0" * 5000]),
)
# The real sandbox runs many of these: few examples, and no rate limit to hide behind.
FUZZ = settings(
    max_examples=40,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
HTMX = ({}, {"HTTP_HX_REQUEST": "true"})


@pytest.fixture(autouse=True)
def no_rate_limit():
    with override_settings(CODEBLANKS=_config(run_rate=0)):
        yield


def _fine(response, api: bool = False) -> None:
    assert response.status_code < 500, response.content[:300]
    if api:
        assert response["Content-Type"] == "application/json", response.content[:300]
        json.loads(response.content)


@FUZZ
@given(body=BODY, path=st.sampled_from(["/api/run", f"/api/lessons/{FIRST.id}/grade"]))
@example(body=_deep(50_000), path="/api/run")
@example(body=b"[" * 100_000 + b"]" * 100_000, path=f"/api/lessons/{FIRST.id}/grade")
def test_api_bodies(client, body, path):
    _fine(client.post(path, body, content_type="application/json"), api=True)


LEARNER_PATHS = [
    f"/api/lessons/{FIRST.id}/hint",
    f"/api/lessons/{FIRST.id}/solution",
    f"/api/lessons/{FIRST.id}/questions/{CHOICE.id}",
    f"/api/lessons/{FIRST.id}/questions/{BLANK.id}",
    f"/api/lessons/{FIRST.id}/questions/{MATCH.id}",
]
AUTH = st.one_of(
    st.just(""),
    TEXT.map(lambda t: "Bearer " + t),
    TEXT.map(lambda t: "Bearer cbt_" + t),
    TEXT.map(lambda t: t.replace("\n", " ").replace("\r", " ")),
)


@FUZZ
@given(
    body=st.one_of(BODY, JSON_VALUE.map(lambda v: json.dumps({"answer": v, "number": v}).encode())),
    path=st.sampled_from(LEARNER_PATHS),
    auth=AUTH,
)
@example(body=b'{"number": 1}', path=LEARNER_PATHS[0], auth="Bearer cbt_" + "9" * 5000)
@example(body=b'{"answer": [' + b"1," * 5000 + b"1]}", path=LEARNER_PATHS[4], auth="")
def test_learner_endpoints_with_any_body_and_token(client, body, path, auth):
    """The terminal learner's endpoints (docs/api.md), with hostile bodies and tokens."""
    extra = {"HTTP_AUTHORIZATION": auth} if auth else {}
    _fine(client.post(path, body, content_type="application/json", **extra), api=True)


# JSON can spell what no form can: lone surrogates (U+D800 to U+DFFF), which no UTF-8 column
# holds. Sent with a token, so the endpoints try to keep them.
SURROGATE_TEXT = st.one_of(
    TEXT,
    st.text(
        st.one_of(
            st.characters(exclude_categories=("Cs",)),
            st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
        ),
        min_size=1,
        max_size=40,
    ),
)
TOKEN_PATHS = [f"/api/lessons/{FIRST.id}/grade", *LEARNER_PATHS]


@pytest.fixture
def token_header(django_user_model):
    from codeblanks.web.learner.api_tokens import token_create

    user = django_user_model.objects.create_user("fuzz", password="a-long-passphrase-1")
    return {"HTTP_AUTHORIZATION": "Bearer " + token_create(user_id=user.pk, name="fuzz")[1]}


@FUZZ
@given(
    text=SURROGATE_TEXT,
    path=st.sampled_from(TOKEN_PATHS),
    spelled=st.sampled_from(["escaped", "raw"]),
)
@example(text="x = '\ud800'", path=TOKEN_PATHS[0], spelled="escaped")
@example(text="1\udfff", path=f"/api/lessons/{FIRST.id}/questions/{BLANK.id}", spelled="escaped")
def test_token_endpoints_with_lone_surrogates(client, token_header, text, path, spelled):
    """With a valid token the grade saves the code and an answer is kept: text that cannot be
    kept is a 4xx in words, never a 500 from the database."""
    fields = {"code": text, "answer": text, "number": 1}
    if spelled == "escaped":  # as JSON spells them: \ud800
        body = json.dumps(fields).encode()
    else:  # the surrogate's bytes themselves: no UTF-8 at all
        body = json.dumps(fields, ensure_ascii=False).encode("utf-8", "surrogatepass")
    _fine(client.post(path, body, content_type="application/json", **token_header), api=True)


@FUZZ
@given(
    path=st.one_of(
        TEXT.map(lambda t: "/api/lessons/" + t.replace("?", "").replace("#", "") + "/grade"),
        TEXT.map(lambda t: "/api/" + t.replace("?", "").replace("#", "")),
        st.sampled_from(["/api", "/api/", "/api/lessons", "/api/run"]),
    ),
    method=st.sampled_from(["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"]),
)
def test_api_paths(client, path, method):
    response = client.generic(method, path, b'{"code": "print(1)"}', "application/json")
    _fine(response, api=method != "HEAD")


@FUZZ
@given(code=TEXT, htmx=st.sampled_from(HTMX))
def test_lesson_run_form(client, code, htmx):
    _fine(client.post(f"/lessons/{FIRST.id}/run", {"code": code}, **htmx))


ANSWER_FIELDS = st.one_of(
    st.builds(lambda v: {"choice": v}, TEXT),
    st.builds(lambda v: {"blank": v}, TEXT),
    st.builds(lambda a, b, c: {"match-0": a, "match-1": b, "match-2": c}, TEXT, TEXT, TEXT),
    st.dictionaries(st.sampled_from(["choice", "blank", "match-0", "match-9", "x"]), TEXT),
)


@settings(
    max_examples=80,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    question=st.sampled_from([CHOICE.id, BLANK.id, MATCH.id]),
    fields=ANSWER_FIELDS,
    htmx=st.sampled_from(HTMX),
)
# the hostile-input findings, always tried
@example(question=CHOICE.id, fields={"choice": "²"}, htmx={})
@example(question=CHOICE.id, fields={"choice": "9" * 5000}, htmx={})
@example(question=MATCH.id, fields={"match-0": "²", "match-1": "0", "match-2": "1"}, htmx={})
@example(question=BLANK.id, fields={"blank": NASTY[-1]}, htmx={"HTTP_HX_REQUEST": "true"})
def test_question_forms(client, question, fields, htmx):
    _fine(client.post(f"/lessons/{FIRST.id}/questions/{question}", fields, **htmx))


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    form=st.sampled_from(["/accounts/login/", "/accounts/signup/", "/admin/login/"]),
    fields=st.dictionaries(
        st.sampled_from(["username", "password", "password1", "password2", "next"]), TEXT
    ),
)
def test_account_forms(client, form, fields):
    _fine(client.post(form, fields))


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    # No leading "/": "//[" would be read by the test client itself as a host (not a path), and
    # fail in urlsplit before any request is made.
    part=TEXT.map(lambda t: t.replace("?", "").replace("#", "").lstrip("/")),
    query=st.dictionaries(TEXT, TEXT, max_size=3),
    page=st.sampled_from(
        [
            "/courses/test-course/{}/",
            "/lessons/{}/",
            "/lessons/{}/review/",
            "/lessons/{}/solution",
            "/lessons/first-steps/questions/{}",
            "/progress/",
            "/{}",
        ]
    ),
)
def test_pages_and_their_query_strings(client, part, query, page):
    _fine(client.get(page.format(part), query))
    _fine(client.post(page.format(part), query))


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    length=st.one_of(
        st.none(),
        st.sampled_from([b"-1", b"abc", b"1" * 40, b"\xb2", b" 5 ", b"0", b"1048577"]),
        st.integers(0, 1 << 40).map(lambda n: str(n).encode()),
    ),
    body=st.binary(max_size=300),
    path=st.sampled_from(["/api/run", "/lessons/first-steps/run", "/accounts/login/", "/api"]),
)
def test_the_asgi_app_with_any_content_length(sandbox, grader, length, body, path):
    """Through ``codeblanks.web.door.asgi.application`` (what uvicorn calls), where bodies are
    bounded: whatever Content-Length says, a 4xx or an answer, never a 500."""
    from .test_api_fast_path import call

    headers = [(b"content-type", b"application/json")]
    if length is not None:
        headers.append((b"content-length", length))
    answer = call("POST", path, body, headers=headers)
    assert answer.status < 500, answer.body[:300]
    assert "content-security-policy" in answer.headers
