"""What the commands share: printing problems and JSON, reading the learner's file, errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from codeblanks.content.problems import Problem


class UsageError(Exception):
    """The command line cannot be carried out (bad argument, missing file): exit 2."""


def error(message: str, code: int) -> int:
    print(f"codeblanks: error: {message}", file=sys.stderr)
    return code


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


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


def read_program(name: str) -> str:
    """The text of the program file ``name``; a missing or non-text file is a usage error."""
    path = Path(name)
    if not path.is_file():
        raise UsageError(f"{name}: no such file")
    try:
        return path.read_bytes().decode("utf-8")
    except OSError as problem:
        raise UsageError(f"{name}: cannot be read ({problem.strerror})") from None
    except UnicodeDecodeError:
        raise UsageError(f"{name}: not UTF-8 text") from None


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
