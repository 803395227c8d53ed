"""What the commands share: printing problems and JSON, reading the learner's file, errors, and
the learner's language (``--lang``, else the environment's)."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from codeblanks import i18n
from codeblanks.content.problems import Problem
from codeblanks.i18n import gettext as _

# Where a terminal says its language, in gettext's order (LANGUAGE may list several: "tr:en").
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


class UsageError(Exception):
    """The command line cannot be carried out (bad argument, missing file): exit 2."""


def error(message: str, code: int) -> int:
    print(f"codeblanks: error: {message}", file=sys.stderr)
    return code


def environment_language(environ=None) -> str:
    """The interface language the environment asks for: the first supported one named by
    LANGUAGE, LC_ALL, LC_MESSAGES or LANG (``tr_TR.UTF-8`` → ``tr``), else English."""
    environ = os.environ if environ is None else environ
    for variable in LANGUAGE_VARIABLES:
        value = environ.get(variable, "")
        if not value:
            continue
        for code in value.split(":"):
            code = code.split(".")[0].split("@")[0]
            if i18n.supported(code):
                return i18n.normalize(code)
        if variable != "LANGUAGE":
            break  # the first locale variable that is set decides, as for gettext
    return i18n.DEFAULT


def _language_code(value: str) -> str:
    if not i18n.supported(value):
        known = ", ".join(sorted(i18n.LANGUAGES))
        raise argparse.ArgumentTypeError(f"unknown language {value!r} (one of: {known})")
    return i18n.normalize(value)


def add_language(parser: argparse.ArgumentParser) -> None:
    """``--lang CODE``: the learner's language for a learner's command."""
    parser.add_argument(
        "--lang",
        metavar="CODE",
        type=_language_code,
        default=None,
        help="the language to speak and take lessons in: "
        + ", ".join(sorted(i18n.LANGUAGES))
        + " (default: from LANGUAGE, LC_ALL or LANG; else en)",
    )


def language_of(args: argparse.Namespace) -> str:
    """The language a command speaks: ``--lang`` when it has one, else the environment's; an
    author's command (no ``--lang``) speaks English."""
    if not hasattr(args, "lang"):
        return i18n.DEFAULT
    if args.lang:
        return args.lang
    if getattr(args, "learn_command", None) not in (None, "start"):  # a lesson folder's own
        from codeblanks.cli.learn.workspace import saved_language

        return saved_language(getattr(args, "dir", None)) or environment_language()
    return environment_language()


def shown(path: Path) -> str:
    """``path`` relative to the working folder when it is inside it, else as it is."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


def problem_line(problem: Problem) -> str:
    """``code path:line: message (fix)``, the path shown relative when possible."""
    where = shown(problem.path) + (f":{problem.line}" if problem.line else "")
    text = f"{problem.code} {where}: {problem.message}"
    text = f"{text} ({problem.fix})" if problem.fix else text
    if problem.detail:
        text += "".join(f"\n    {line}" for line in problem.detail.splitlines())
    # file names may hold bytes that are not UTF-8 (surrogates): show them escaped
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


# C0 controls but newline and tab, DEL, C1 controls, the Unicode marks that reorder text
# (bidirectional overrides and isolates) and the invisible ones that hide it (zero-width space,
# word joiner and invisible operators, the zero-width no-break space); the zero-width joiners,
# which some scripts and emoji need, aside.
_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064"
    "\u2066-\u2069\ufeff]"
)


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    if code == 0x0D:
        return "\\r"  # a carriage return, as Python would write it
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """A program's output made safe for a terminal: each control character (but newline and
    tab) shown as an escape, ``\\x1b`` for ESC, so escape sequences cannot clear the screen,
    retitle the window or hide text. ``codeblanks run --raw`` skips this."""
    return _CONTROL.sub(_escape, text)


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


def read_program(name: str) -> str:
    """The text of the program file ``name``; a missing or non-text file is a usage error."""
    path = Path(name)
    if not path.is_file():
        raise UsageError(_("{file}: no such file").format(file=name))
    try:
        return path.read_bytes().decode("utf-8")
    except OSError as problem:
        raise UsageError(
            _("{file}: cannot be read ({reason})").format(file=name, reason=problem.strerror)
        ) from None
    except UnicodeDecodeError:
        raise UsageError(_("{file}: not UTF-8 text").format(file=name)) from None


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
