"""``codeblanks run FILE [--json] [--raw]``: run any program in the sandbox and show what it
printed, control characters made visible unless ``--raw``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from codeblanks.cli.console import add_language, error, print_json, read_program, visible
from codeblanks.i18n import gettext as _


def add_parser(commands) -> None:
    parser = commands.add_parser("run", help="run a program in the sandbox")
    parser.add_argument("file", metavar="FILE", help="the Python file to run")
    parser.add_argument("--json", action="store_true", help="print the run result as JSON")
    parser.add_argument(
        "--raw",
        action="store_true",
        help="write the program's output as it is, terminal escape sequences included",
    )
    add_language(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from codeblanks.sandbox import (  # here, not above: `codeblanks --help` stays instant
        SandboxUnavailable,
        get_sandbox,
    )

    code = read_program(args.file)
    try:
        result = get_sandbox().run(code, filename=Path(args.file).name)
    except SandboxUnavailable as reason:
        return error(_("the sandbox cannot run here: {reason}").format(reason=reason), 3)
    if args.json:
        print_json(result.to_json())
    else:
        shown = (lambda text: text) if args.raw else visible
        sys.stdout.write(shown(result.stdout))
        sys.stdout.flush()
        sys.stderr.write(shown(result.stderr))
        if not result.ok:
            ms = f"{result.duration_ms:.0f}"
            print(
                "codeblanks: " + _("{verdict} ({ms} ms)").format(verdict=result.verdict, ms=ms),
                file=sys.stderr,
            )
    return 0 if result.ok else 1
