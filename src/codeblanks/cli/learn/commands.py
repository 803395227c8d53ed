"""The ``codeblanks learn`` commands: each reads its folder, asks its backend, prints."""

from __future__ import annotations

import getpass
import sys

from codeblanks.cli.console import UsageError
from codeblanks.cli.learn import untrusted
from codeblanks.i18n import gettext as _
from codeblanks.i18n import ngettext


def _backend(args, space=None):
    from codeblanks.cli.learn.backends import backend_for

    return backend_for(getattr(args, "server", None), space.server if space else None)


def _space(args):
    from codeblanks.cli.learn import workspace

    return workspace.load(args.dir)


def lessons(args) -> int:
    from codeblanks.cli.learn import show

    backend = _backend(args)
    rows = backend.lessons()
    if args.json:
        print(untrusted.json_text(rows))
    else:
        show.lessons(rows, backend.where)
    return 0


def start(args) -> int:
    from codeblanks.cli.learn import show, workspace
    from codeblanks.cli.learn.backends import ServerBackend

    backend = _backend(args)
    lesson = backend.lesson(args.lesson)
    # the folder is the learner's DIR, else the lesson's plain name in the working folder
    folder = workspace.place(args.dir, lesson["id"], backend.where)
    server = backend.server if isinstance(backend, ServerBackend) else None
    space, fresh = workspace.create(folder, lesson, server, backend.where)
    show.say(
        _("{title} ({level}), from {where}").format(
            title=untrusted.one_line(lesson["title"]),
            level=untrusted.one_line(lesson.get("level_name") or lesson["level"]),
            where=backend.where,
        ),
        "bold",
    )
    if earlier := workspace.builds_on_line(lesson):
        show.say(earlier)
    show.say("  " + _("{path}: the explanation and your task").format(path=folder / "README.md"))
    if fresh:
        show.say("  " + _("{path}: your exercise file, written").format(path=space.code_path))
    else:
        show.say(
            "  "
            + _(
                "{path}: your exercise file, kept as it was (starting again never overwrites "
                "your code)"
            ).format(path=space.code_path)
        )
    show.say(
        _("Next: read README.md, edit {file}, then: cd {folder} && codeblanks learn test").format(
            file=space.filename, folder=folder
        )
    )
    return 0


def test(args) -> int:
    from codeblanks.cli.learn import show
    from codeblanks.grading.verdicts import Verdict

    space = _space(args)
    code = space.read_code()
    backend = _backend(args, space)
    result = backend.grade(space.lesson, code)
    correct = result.get("verdict") == Verdict.CORRECT
    if args.json:
        print(untrusted.json_text(result))
    else:
        following = _following(backend, space.lesson) if correct else None
        show.grade(result, following, setup=args.setup)
    return 0 if correct else 1


def _following(backend, lesson_id: str) -> tuple[str, str] | None:
    """The lesson after ``lesson_id`` in its course's reading order, as (id, title); ("", "")
    after the course's last; None when the list cannot be had (the grade is said anyway)."""
    try:
        rows = backend.lessons()
    except UsageError:
        return None
    mine = next((row for row in rows if row["id"] == lesson_id), None)
    if mine is None or "next" not in mine:  # an older server: no order to go by
        return None
    if mine["next"] is None:
        return ("", "")
    return next(((row["id"], row["title"]) for row in rows if row["id"] == mine["next"]), None)


def hint(args) -> int:
    from codeblanks.cli.learn import show

    space = _space(args)
    result = _backend(args, space).hint(space.lesson, space.hints_seen + 1)
    if not result.get("text"):
        if not result.get("of"):
            show.say(_("This lesson has no hints."))
        else:
            count = result["of"]
            show.say(
                ngettext(
                    "That was the last of {count} hint.",
                    "That was the last of {count} hints.",
                    count,
                ).format(count=count)
            )
        show.say(_("`codeblanks learn solution` shows the sample solution."))
        return 0
    space.hints_seen = max(space.hints_seen, result["number"])  # a server's -1 is not kept
    space.save()
    show.say(
        _("Hint {number} of {count}:").format(number=result["number"], count=result["of"]), "bold"
    )
    show.say(result["text"])
    return 0


def solution(args) -> int:
    from codeblanks.cli.learn import show

    space = _space(args)
    if not args.yes:
        if not sys.stdin.isatty():
            raise UsageError(_("showing the solution asks first: answer at a terminal, or --yes"))
        sure = input(_("Show the sample solution? It is recorded as seen. [y/N] "))
        if not show.yes(sure, default=False):
            show.say(_("Not shown."))
            return 0
    result = _backend(args, space).solution(space.lesson)
    show.say(
        _("Sample solution ({file}); your file is left as it is:").format(file=result["filename"]),
        "bold",
    )
    show.say(result["solution"].rstrip("\n"))
    return 0


def quiz(args) -> int:
    from codeblanks.cli.learn import quiz as questions
    from codeblanks.cli.learn import quizplace

    space = _space(args)
    backend = _backend(args, space)
    if args.review:
        questions.review(backend.review(space.lesson))
        return 0
    asked = backend.lesson(space.lesson)["questions"]
    place = quizplace.load(space.folder, space.lesson)
    if args.restart:
        place.clear()
    right = questions.solve(
        asked, lambda qid, answer: backend.answer(space.lesson, qid, answer), place=place
    )
    return 0 if right == len(asked) else 1


def review(args) -> int:
    """The review queue (a server's, with a token): the cards due now, one answer each."""
    from codeblanks.cli.learn import quiz as questions
    from codeblanks.cli.learn.backends import ServerBackend

    backend = _backend(args)
    if not isinstance(backend, ServerBackend) or not backend.token:
        raise UsageError(
            _(
                "the review queue is kept on a server, for a signed-in learner: "
                "`codeblanks learn login --server URL` first"
            )
        )
    cards = backend.review_queue()
    right = questions.review_cards(cards, backend.review_answer)
    return 0 if right == len([c for c in cards if questions.due_now(c)]) else 1


def login(args) -> int:
    from codeblanks.cli.learn import show
    from codeblanks.cli.learn.backends import DEFAULT_SERVER, ServerBackend, write_credentials

    server = (args.server or DEFAULT_SERVER).rstrip("/")
    token = args.token
    if not token:
        if sys.stdin.isatty():
            token = getpass.getpass(
                _("Personal token for {server} (from your progress page): ").format(server=server)
            )
        else:
            token = sys.stdin.readline()
    token = token.strip()
    if not token:
        raise UsageError(_("no token given: create one on your progress page on the server"))
    me = ServerBackend(server, token).whoami()
    path = write_credentials(server, token)
    show.say(
        _("Logged in to {server} as {user}; token stored in {path}.").format(
            server=server, user=me.get("username", "?"), path=path
        )
    )
    return 0
