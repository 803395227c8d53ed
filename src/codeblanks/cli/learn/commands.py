"""The ``codeblanks learn`` commands: each reads its folder, asks its backend, prints."""

from __future__ import annotations

import getpass
import sys
from pathlib import Path

from codeblanks.cli.console import UsageError, print_json


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
        print_json(rows)
    else:
        show.lessons(rows, backend.where)
    return 0


def start(args) -> int:
    from codeblanks.cli.learn import show, workspace
    from codeblanks.cli.learn.backends import ServerBackend

    backend = _backend(args)
    lesson = backend.lesson(args.lesson)
    folder = Path(args.dir or lesson["id"])
    server = backend.server if isinstance(backend, ServerBackend) else None
    space, fresh = workspace.create(folder, lesson, server)
    kept = "written" if fresh else "kept as it was (starting again never overwrites your code)"
    show.say(f"{lesson['title']} ({lesson['level']}), from {backend.where}", "bold")
    show.say(f"  {folder / 'README.md'}: the explanation and your task")
    show.say(f"  {space.code_path}: your exercise file, {kept}")
    show.say(
        f"Next: read README.md, edit {space.filename}, then: cd {folder} && codeblanks learn test"
    )
    return 0


def test(args) -> int:
    from codeblanks.cli.learn import show

    space = _space(args)
    code = space.read_code()
    result = _backend(args, space).grade(space.lesson, code)
    if args.json:
        print_json(result)
    else:
        show.grade(result)
    return 0 if result.get("verdict") == "correct" else 1


def hint(args) -> int:
    from codeblanks.cli.learn import show

    space = _space(args)
    result = _backend(args, space).hint(space.lesson, space.hints_seen + 1)
    if not result.get("text"):
        if not result.get("of"):
            show.say("This lesson has no hints.")
        else:
            show.say(f"That was the last of {result['of']} hints.")
        show.say("`codeblanks learn solution` shows the sample solution.")
        return 0
    space.hints_seen = result["number"]
    space.save()
    show.say(f"Hint {result['number']} of {result['of']}:", "bold")
    show.say(result["text"])
    return 0


def solution(args) -> int:
    from codeblanks.cli.learn import show

    space = _space(args)
    if not args.yes:
        if not sys.stdin.isatty():
            raise UsageError("showing the solution asks first: answer at a terminal, or --yes")
        sure = input("Show the sample solution? It is recorded as seen. [y/N] ").strip().lower()
        if not sure.startswith("y"):
            show.say("Not shown.")
            return 0
    result = _backend(args, space).solution(space.lesson)
    show.say(f"Sample solution ({result['filename']}); your file is left as it is:", "bold")
    show.say(result["solution"].rstrip("\n"))
    return 0


def quiz(args) -> int:
    from codeblanks.cli.learn import quiz as questions

    space = _space(args)
    backend = _backend(args, space)
    if args.review:
        questions.review(backend.review(space.lesson))
        return 0
    asked = backend.lesson(space.lesson)["questions"]
    right = questions.solve(asked, lambda qid, answer: backend.answer(space.lesson, qid, answer))
    return 0 if right == len(asked) else 1


def login(args) -> int:
    from codeblanks.cli.learn import show
    from codeblanks.cli.learn.backends import DEFAULT_SERVER, ServerBackend, write_credentials

    server = (args.server or DEFAULT_SERVER).rstrip("/")
    token = args.token
    if not token:
        if sys.stdin.isatty():
            token = getpass.getpass(f"Personal token for {server} (from your progress page): ")
        else:
            token = sys.stdin.readline()
    token = token.strip()
    if not token:
        raise UsageError("no token given: create one on your progress page on the server")
    me = ServerBackend(server, token).whoami()
    path = write_credentials(server, token)
    show.say(f"Logged in to {server} as {me.get('username', '?')}; token stored in {path}.")
    return 0
