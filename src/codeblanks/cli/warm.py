"""``codeblanks grade``, ``run`` and local ``learn test`` answered by a warm server of the user's
(the socket and its safety are ``warm_socket``'s).

The first call starts ``python -m codeblanks.cli.warm SOCKET``: a process that keeps Python's
imports, the courses and a running sandbox, and runs each forwarded command line exactly as
``main()`` would, in the caller's folder, returning its exit code and output. Later calls cost
a connection instead of a cold start. One server per environment: its socket is named by a hash
of the interpreter, CodeBlanks' own files and the environment, so a changed setting, an
upgrade or an edit of CodeBlanks gets a fresh server; course files are looked at again on every
call. ``CODEBLANKS_WARM=0`` turns it off; ``CODEBLANKS_WARM_IDLE_S`` is how long it stays.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import os
import signal
import sys
from pathlib import Path

from codeblanks.cli import warm_socket

# Set per call from the caller's terminal; everything else of the environment is the server's.
TERMINAL_ENV = ("TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES")
# Differ between two shells of the same user without changing what a command does.
VOLATILE_ENV = {"PWD", "OLDPWD", "SHLVL", "_", "WINDOWID", "TERM_SESSION_ID", "PS1", "PS2"}
PACKAGE = Path(__file__).resolve().parents[1]


def wanted(argv: list[str]) -> bool:
    """Whether this command line may go to the warm server: a grade, a run, or ``learn test``
    graded on this machine; never with isolation turned off (an option before the command, or
    the setting). Decided from the words alone: the server parses them, errors included."""
    if os.environ.get("CODEBLANKS_WARM", "1") == "0":
        return False
    # sandbox.config.unsafe_no_sandbox's test, read here by hand: importing it loads
    # codeblanks.sandbox (dataclasses, typing), ~10-25 ms on every forwarded command.
    if os.environ.get("CODEBLANKS_UNSAFE_NO_SANDBOX") == "1" or not argv:
        return False
    if argv[0] in ("grade", "run"):
        return True
    if argv[:2] != ["learn", "test"]:
        return False
    try:  # a server's grade goes over HTTP anyway: nothing to keep warm
        import argparse

        from codeblanks.cli.learn import workspace
        from codeblanks.cli.learn.backends import read_credentials

        words = argparse.ArgumentParser(add_help=False)
        words.add_argument("dir", nargs="?")
        words.add_argument("--server")
        args, _ = words.parse_known_args(argv[2:])
        space = workspace.load(args.dir)
        chosen = args.server or space.server or os.environ.get("CODEBLANKS_SERVER")
        return not (chosen or read_credentials().get("server"))
    except BaseException:  # the command itself says what is wrong, in the caller's process
        return False


def forward_if_wanted(argv: list[str]) -> int | None:
    """The warm server's exit code for ``argv``, or None to run the command here."""
    try:
        return forward(argv) if wanted(argv) else None
    except KeyboardInterrupt:  # the run goes on to its limits in the server; we stop waiting
        from codeblanks.cli.console import error
        from codeblanks.i18n import gettext as _

        return error(_("interrupted"), 130)


COURSES = PACKAGE / "courses"


def fingerprint() -> str:
    digest = hashlib.sha256(sys.executable.encode())
    for name in sorted(os.environ):
        if name not in VOLATILE_ENV and name not in TERMINAL_ENV:
            digest.update(f"\0{name}={os.environ[name]}".encode("utf-8", "surrogateescape"))
    for path in sorted(PACKAGE.rglob("*.py")):
        if COURSES in path.parents:
            continue  # content, not code: the warm server reads the courses again on every call
        with contextlib.suppress(OSError):
            info = path.stat()
            digest.update(f"\0{path}:{info.st_size}:{info.st_mtime_ns}".encode())
    return digest.hexdigest()[:20]


def forward(argv: list[str]) -> int | None:
    """Have the warm server run ``argv``; its exit code, or None to run it here instead."""
    request = {
        "argv": argv,
        "cwd": os.getcwd(),
        "env": {name: os.environ[name] for name in TERMINAL_ENV if name in os.environ},
        "tty": [sys.stdout.isatty(), sys.stderr.isatty()],
    }
    server = [sys.executable, "-m", "codeblanks.cli.warm"]
    try:
        answer = warm_socket.call(f"w-{fingerprint()}.sock", request, server)
    except warm_socket.UnsafeFolder as unsafe:
        _say_unsafe(unsafe)
        return None
    if not answer or not isinstance(answer.get("code"), int):
        return None
    sys.stdout.flush()
    sys.stdout.buffer.write(base64.b64decode(answer.get("stdout", "")))
    sys.stdout.flush()
    sys.stderr.flush()
    sys.stderr.buffer.write(base64.b64decode(answer.get("stderr", "")))
    sys.stderr.flush()
    return answer["code"]


def _say_unsafe(unsafe: warm_socket.UnsafeFolder) -> None:
    from codeblanks.i18n import gettext as _

    folder = str(unsafe.folder)
    if unsafe.kind == "not-folder":
        why = _("{folder} is not a folder").format(folder=folder)
    elif unsafe.kind == "owner":
        why = _("{folder} belongs to another user").format(folder=folder)
    else:
        why = _("{folder} may be entered by others (mode {mode})").format(
            folder=folder, mode=f"{unsafe.mode:o}"
        )
    message = _("not using the warm sandbox: {reason}").format(reason=why)
    print(f"codeblanks: {message}", file=sys.stderr)


class _Captured(io.TextIOWrapper):
    """A captured stream that says whether the caller's is a terminal (for colours)."""

    def __init__(self, tty: bool) -> None:
        self._bytes = io.BytesIO()
        super().__init__(self._bytes, encoding="utf-8", errors="surrogateescape",
                         line_buffering=False)  # fmt: skip
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty

    def value(self) -> str:
        self.flush()
        return base64.b64encode(self._bytes.getvalue()).decode()


class _Server:
    def __init__(self) -> None:
        from codeblanks.content import catalog

        self.catalog = catalog
        self.courses = self._courses()

    def _courses(self) -> tuple:
        from codeblanks.content.catalog import _signature

        return _signature()

    def handle(self, request: dict) -> dict:
        from codeblanks.cli.main import main

        argv, cwd = request.get("argv"), request.get("cwd")
        if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
            return {"error": "bad request"}
        now = self._courses()
        if now != self.courses:  # an author edited a course: load it again
            self.catalog.cache_clear()  # type: ignore[attr-defined]  # content/catalog.py sets it
            self.courses = now
        tty = request.get("tty") or [False, False]
        out, err = _Captured(bool(tty[0])), _Captured(bool(tty[1]))
        saved_env = {name: os.environ.get(name) for name in TERMINAL_ENV}
        for name in TERMINAL_ENV:
            os.environ.pop(name, None)
        env = request.get("env")
        if not isinstance(env, dict):
            env = {}
        os.environ.update({k: str(v) for k, v in env.items() if k in TERMINAL_ENV})
        try:
            os.chdir(cwd if isinstance(cwd, str) else "/")
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(argv)
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
        except Exception as problem:  # never take the server down; say it like main() would
            err.write(f"codeblanks: error: {problem}\n")
            code = 1
        finally:
            os.chdir("/")
            for name, value in saved_env.items():
                os.environ.pop(name, None)
                if value is not None:
                    os.environ[name] = value
        return {"code": code, "stdout": out.value(), "stderr": err.value(), "pid": os.getpid()}


def serve(path: str) -> None:
    # SIGTERM ends it cleanly: the sandbox closed, the socket removed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    server = _Server()
    try:
        warm_socket.serve(path, server.handle)
    finally:
        from codeblanks.sandbox.service import close_shared

        close_shared()


if __name__ == "__main__":
    serve(sys.argv[1])
