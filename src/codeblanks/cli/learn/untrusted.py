"""What ``codeblanks learn`` is told by others is not trusted: a server may be any address a
learner typed, and a lesson folder (its ``.codeblanks.json``) may come from anyone. So a name
becomes a file only when it is one plain name, text is shown and written with its control
characters escaped, and an answer of the wrong shape is an error in words, never a traceback.
(docs/learners.md, "What the client trusts".)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from codeblanks.cli.console import UsageError, visible
from codeblanks.i18n import gettext as _

NAME_MAX = 100  # longer than any lesson id or file name a course may have
SEPARATORS = "/\\:"  # a path on Linux, Windows or macOS' old one


def plain_name(value: Any, field: str, source: str) -> str:
    """``value`` when it can name a file or folder inside another and nothing else: text of 1 to
    ``NAME_MAX`` characters, no separators, no control characters, not hidden (a dot-file such
    as ``.bash_profile``, ``.`` or ``..``), no spaces around it. Else a usage error naming
    ``source`` (a server, a file) and the ``field`` it came in."""
    if (
        isinstance(value, str)
        and 0 < len(value) <= NAME_MAX
        and not value.startswith(".")
        and value == value.strip()
        and not any(c in value for c in SEPARATORS + "\n\t")
        and visible(value) == value
    ):
        return value
    raise UsageError(
        _(
            "{source}: {field} {value} is not a plain file name (one name, not starting with a "
            "dot, without / \\ : or control characters); refused"
        ).format(source=visible(source), field=field, value=shown(value))
    )


def inside(path: Path, folder: Path) -> bool:
    """Whether ``path``, its symbolic links followed, is ``folder`` or in it."""
    try:
        path.resolve().relative_to(folder.resolve())
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a loop of links
        return False
    return True


def shown(value: Any, limit: int = 80) -> str:
    """One value quoted for a message, its control characters escaped, cut at ``limit``."""
    text = repr(value)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return visible(text)


def one_line(value: Any) -> str:
    """Text for one line of a message or a heading: control characters escaped, a line break
    shown as a space, so a server's title cannot add lines of its own."""
    return visible(str(value)).replace("\n", " ").replace("\t", " ")


def json_text(data: Any) -> str:
    """JSON for ``--json``, every character beyond ASCII escaped (as the server's API writes
    it), so none of them can reach the terminal as a control character."""
    return json.dumps(data, indent=2, ensure_ascii=True)


# ---- the shape of an answer -----------------------------------------------------------------

TEXT, NUMBER, YES_NO, OBJECT = str, int, bool, dict
MAYBE_TEXT = (str, type(None))


class ListOf:
    """A list whose items are all of one kind."""

    def __init__(self, item) -> None:
        self.item = item


def _fits(value: Any, kind) -> bool:
    if isinstance(kind, tuple):  # one of several kinds
        return any(_fits(value, one) for one in kind)
    if isinstance(kind, ListOf):
        return isinstance(value, list) and all(_fits(v, kind.item) for v in value)
    if kind is NUMBER and isinstance(value, bool):
        return False  # JSON's true is not a number
    return isinstance(value, kind)


def check(data: Any, fields: dict[str, Any], source: str, request: str) -> dict[str, Any]:
    """``data`` when it is an object with every one of ``fields`` (name → kind; an optional one
    allows ``None``, given as missing); else a usage error naming the server and the field."""
    if not isinstance(data, dict):
        raise malformed(source, request, _("not a JSON object"))
    for name, kind in fields.items():
        optional = isinstance(kind, tuple) and type(None) in kind
        if not _fits(data.get(name) if optional else data.get(name, ...), kind):
            raise malformed(source, request, name)
    return data


def malformed(source: str, request: str, what: str) -> UsageError:
    return UsageError(
        _("{server} sent a malformed answer to {request} ({what}): is it CodeBlanks?").format(
            server=visible(source), request=request, what=visible(what)
        )
    )


LESSON_ENTRY = {"id": TEXT, "title": TEXT, "level": TEXT}
LISTED = {**LESSON_ENTRY, "next": MAYBE_TEXT}  # "next": missing from an older server
PROGRESS = {"solved": YES_NO, "questions_right": NUMBER, "questions": NUMBER,
            "tried": (YES_NO, type(None))}  # fmt: skip
LESSON = {
    **LESSON_ENTRY,
    "course": TEXT,
    "summary": TEXT,
    "filename": TEXT,
    "explanation": TEXT,
    "task": TEXT,
    "starter": TEXT,
    "expected_output": MAYBE_TEXT,  # none for a function exercise: its prints are not graded
    "stdin": MAYBE_TEXT,  # what the program reads; missing from an older server
    "builds_on": (ListOf(OBJECT), type(None)),  # missing from an older server
    "questions": ListOf(OBJECT),
}
EARLIER = {"id": TEXT, "title": TEXT, "idea": TEXT}  # a lesson's "builds_on" item
QUESTION = {"id": TEXT, "kind": TEXT, "prompt": TEXT}
QUESTION_KINDS: dict[str, dict[str, Any]] = {
    "choice": {"options": ListOf(TEXT)},
    "blank": {"code": TEXT},
    "match": {"terms": ListOf(TEXT), "meanings": ListOf(TEXT)},
}
REVIEW_ANSWER = {"choice": TEXT, "blank": TEXT, "match": ListOf(ListOf(TEXT))}
GRADE = {
    "verdict": TEXT,
    "feedback": (ListOf(TEXT), type(None)),
    "diff": (ListOf(TEXT), type(None)),
    "stderr": MAYBE_TEXT,
    "case": MAYBE_TEXT,
    "setup": MAYBE_TEXT,  # a failing hidden case's code (missing from an older server)
}
HINT = {"number": NUMBER, "of": NUMBER, "text": MAYBE_TEXT}
SOLUTION = {"filename": TEXT, "solution": TEXT}
ANSWER = {"correct": YES_NO, "message": MAYBE_TEXT, "explanation": MAYBE_TEXT, "error": MAYBE_TEXT}
WHO = {"username": TEXT}
CARD = {"id": NUMBER, "lesson": TEXT, "kind": TEXT, "prompt": TEXT, "due": TEXT, "due_now": YES_NO}
REVIEWED = {**ANSWER, "due": TEXT}


def lessons(data: Any, source: str, request: str) -> list[dict[str, Any]]:
    rows = check(data, {"lessons": ListOf(OBJECT)}, source, request)["lessons"]
    for row in rows:
        check(row, LISTED, source, request)
        if row.get("progress") is not None:
            check(row["progress"], PROGRESS, source, request)
    return rows


def lesson(data: Any, source: str, request: str) -> dict[str, Any]:
    check(data, LESSON, source, request)
    for question in data["questions"]:
        _question(question, source, request)
    for earlier in data.get("builds_on") or ():
        check(earlier, EARLIER, source, request)
    return data


def review(data: Any, source: str, request: str) -> list[dict[str, Any]]:
    questions = check(data, {"questions": ListOf(OBJECT)}, source, request)["questions"]
    for question in questions:
        _question(question, source, request)
        answer = REVIEW_ANSWER[question["kind"]]
        check(question, {"answer": answer, "explanation": TEXT}, source, request)
        if question["kind"] == "match" and any(len(pair) != 2 for pair in question["answer"]):
            raise malformed(source, request, "answer")
    return questions


def _question(question: dict[str, Any], source: str, request: str) -> None:
    check(question, QUESTION, source, request)
    if question["kind"] not in QUESTION_KINDS:
        raise malformed(source, request, "kind")
    check(question, QUESTION_KINDS[question["kind"]], source, request)


def review_queue(data: Any, source: str, request: str) -> list[dict[str, Any]]:
    """``GET /api/review``'s cards, each a question of a known kind with its card id."""
    cards = check(data, {"due": NUMBER, "cards": ListOf(OBJECT)}, source, request)["cards"]
    for card in cards:
        check(card, CARD, source, request)
        if card["kind"] not in QUESTION_KINDS:
            raise malformed(source, request, "kind")
        check(card, QUESTION_KINDS[card["kind"]], source, request)
    return cards
