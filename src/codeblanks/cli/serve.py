"""``codeblanks serve [--host] [--port] [--reload] [--workers N]``: start the web app (Django is
imported only here). It lists the content problems first (the lessons they concern are not
served); with ``--reload`` edited lesson files show at the next page load, without a restart
(in one web process: the edits are watched in it)."""

from __future__ import annotations

import argparse
import sys

from codeblanks.cli.console import UsageError, error, plural, problem_line


def add_parser(commands) -> None:
    parser = commands.add_parser("serve", help="serve the web app")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    parser.add_argument(
        "--reload", action="store_true", help="show edited lesson files without a restart"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="web processes sharing the port (CODEBLANKS_WEB_WORKERS; one per core but one)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from codeblanks.sandbox import (  # here, not above: `codeblanks --help` stays instant
        SandboxUnavailable,
        get_sandbox,
    )

    if not 0 < args.port < 65536:
        raise UsageError(f"--port {args.port} is not a port number (1-65535)")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers {args.workers}: at least 1")
    workers = 1 if args.reload else args.workers  # edits are watched in this process
    try:
        from codeblanks.web.door.serve import serve
    except ModuleNotFoundError as missing:
        if missing.name not in ("codeblanks.web", "codeblanks.web.door.serve"):
            raise
        raise UsageError(
            "the web app is not installed (codeblanks.web.door.serve is missing)"
        ) from None
    try:
        # Started now, not at the first learner's Run: a machine that cannot isolate programs is
        # told so at once, and the first run finds the zygote warm.
        get_sandbox()
    except SandboxUnavailable as reason:
        return error(f"the sandbox cannot run programs on this machine: {reason}", 3)
    from codeblanks.content.catalog import catalog, watch

    if args.reload:
        watch()
    loaded = catalog()
    for problem in loaded.problems:
        print(problem_line(problem), file=sys.stderr, flush=True)
    warnings = sum(1 for problem in loaded.problems if problem.warning)
    errors = len(loaded.problems) - warnings
    if errors:
        print(
            f"{plural(errors, 'content problem')}: the lessons they concern are not "
            "served (`codeblanks check` says more)",
            file=sys.stderr,
            flush=True,
        )
    if warnings:
        print(
            f"{plural(warnings, 'content warning')}: served all the same "
            "(a translation out of date or missing is served in the original language)",
            file=sys.stderr,
            flush=True,
        )
    serve(host=args.host, port=args.port, workers=workers)
    return 0
