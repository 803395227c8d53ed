"""The ``codeblanks`` console script: parse the arguments, call one command, return its exit code.

Exit codes (docs/cli.md): 0 success, 1 the answer is "no" (problems found, program failed, not
correct), 2 usage error (bad arguments, missing file, unknown lesson), 3 the sandbox cannot run
on this machine.

Each command lives in its own module with ``add_parser(subparsers)`` (which sets ``func``) and a
``run(args) -> int``; this module only wires them together.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

UNSAFE_WARNING = """\
*******************************************************************************
WARNING: --unsafe-no-sandbox: programs run WITHOUT isolation, with your user's
rights. Only for development on a machine without the sandbox's kernel features.
Never on a server, never with code you have not read.
*******************************************************************************"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="codeblanks",
        description="CodeBlanks: lessons, a sandbox to run code, and a grader. See docs/cli.md.",
    )
    parser.add_argument(
        "--unsafe-no-sandbox",
        action="store_true",
        help="run programs without isolation (development only; prints a warning)",
    )
    from codeblanks.cli import (
        check,
        corpus,
        grade,
        learn,
        lessons,
        manage,
        mistakes,
        new,
        report,
        run,
        serve,
        translate,
    )

    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    every = (
        lessons,
        check,
        run,
        grade,
        learn,
        serve,
        manage,
        new,
        translate,
        report,
        corpus,
        mistakes,
    )
    for command in every:
        command.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``) and return the exit code."""
    if argv is None:  # a real command line (not a test's, nor the warm server's own call)
        from codeblanks.cli import warm  # before anything heavy is imported

        if (code := warm.forward_if_wanted(sys.argv[1:])) is not None:
            return code
    from codeblanks import i18n
    from codeblanks.cli.console import UsageError, error, language_of
    from codeblanks.i18n import gettext as _

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse has printed the usage message
        return exit_.code if isinstance(exit_.code, int) else 2
    if args.unsafe_no_sandbox:
        from codeblanks.sandbox.config import UNSAFE_ENV

        os.environ[UNSAFE_ENV] = "1"  # read by the sandbox when it starts (unsafe_no_sandbox)
        print(UNSAFE_WARNING, file=sys.stderr)
    # A learner's command (lessons, grade, learn) speaks the learner's language (--lang, else
    # the environment's); an author's command speaks English.
    with i18n.language(language_of(args)):
        try:
            return args.func(args)
        except UsageError as problem:
            return error(str(problem), 2)
        except KeyboardInterrupt:
            return error(_("interrupted"), 130)


if __name__ == "__main__":
    sys.exit(main())
