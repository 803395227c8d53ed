"""Reading content files: any bytes on disk become text or problems, never an exception.

A folder's files are read only through ``read_text``: it refuses paths that leave the folder
(absolute names, ``..``, links pointing elsewhere), non-files, binary files and bytes that are
not UTF-8, each as a problem with its own code.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import tomllib
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any

from codeblanks.content.codes import problem
from codeblanks.content.problems import Problem

_TOML_LINE = re.compile(r"\(at line (\d+)")
SKIPPED_DIRS = {"__pycache__"}


def stamps(root: Path, pattern: str = "*") -> Iterator[tuple[str, int, int]]:
    """The path, size and modification time of each file matching ``pattern`` under ``root``
    (bytecode folders left out), in path order: what tells that a folder's files changed (the
    catalogue's reload, the kept courses' key)."""
    for path in sorted(root.rglob(pattern)):
        if "__pycache__" in path.parts:
            continue
        try:
            info = path.stat()
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            yield str(path), info.st_size, info.st_mtime_ns


def is_skipped(name: str) -> bool:
    """Folders and files the loader ignores: hidden ones, ``__pycache__``, ``_``-prefixed ones."""
    return name.startswith((".", "_")) or name in SKIPPED_DIRS


def inside(folder: Path, relative: str) -> Path | None:
    """``folder/relative`` if ``relative`` is a plain relative path that stays inside ``folder``
    once links are followed, else None."""
    pure = PurePosixPath(relative.replace("\\", "/"))
    if not relative or pure.is_absolute() or ".." in pure.parts or ":" in relative:
        return None
    if "\x00" in relative:
        return None
    path = folder.joinpath(*pure.parts)
    try:
        resolved = path.resolve()
        root = folder.resolve()
    except (OSError, RuntimeError):
        return None
    return path if resolved == root or resolved.is_relative_to(root) else None


def read_text(
    folder: Path,
    name: str,
    problems: list[Problem],
    *,
    required: bool = True,
    nonempty: bool = True,
) -> str | None:
    """The text of ``folder/name`` with ``\\r\\n`` made ``\\n``, or None after adding the
    problems that explain why not. A missing optional file is None without a problem."""
    path = inside(folder, name)
    shown = folder / name
    if path is None:
        problems.append(problem("content.E004", shown, None, f"{name} points outside its folder"))
        return None
    if not path.exists() and not path.is_symlink():
        if required:
            problems.append(problem("content.E001", shown, None, f"{name} is missing"))
        return None
    if not path.is_file():
        problems.append(
            problem("content.E001", shown, None, f"{name} is not a regular file", "make it a file")
        )
        return None
    try:
        data = path.read_bytes()
    except OSError as error:
        problems.append(
            problem("content.E001", shown, None, f"{name} cannot be read: {error.strerror}")
        )
        return None
    if b"\x00" in data:
        problems.append(
            problem(
                "content.E003",
                shown,
                _line_of(data, data.index(b"\x00")),
                f"{name} is binary (it contains NUL bytes)",
            )
        )
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        where = _line_of(data, error.start)
        problems.append(
            problem("content.E002", shown, where, f"{name} is not UTF-8 (byte {error.start})")
        )
        return None
    text = text.removeprefix("\ufeff").replace("\r\n", "\n")
    if nonempty and not text.strip():
        problems.append(problem("content.E006", shown, None, f"{name} is empty"))
        return None
    return text


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def read_toml(
    folder: Path, name: str, problems: list[Problem], *, required: bool = True
) -> tuple[dict[str, Any], str] | None:
    """The parsed table and the text of a TOML file, or None after adding problems."""
    text = read_text(folder, name, problems, required=required, nonempty=False)
    if text is None:
        return None
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as error:
        found = _TOML_LINE.search(str(error))
        line = int(found.group(1)) if found else None
        message = str(error).split(" (at ", 1)[0]
        problems.append(problem("content.E005", folder / name, line, f"{name}: {message}"))
    except RecursionError:
        problems.append(
            problem(
                "content.E005",
                folder / name,
                None,
                f"{name} nests arrays or tables too deeply",
                "nest less deeply",
            )
        )
    return None


def folder_version(folder: Path) -> str:
    """A short hash of every file under ``folder`` (names and bytes, skipped names left out):
    it changes whenever any file of the lesson changes."""
    digest = hashlib.sha256()
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not is_skipped(d))
        for name in sorted(files):
            if is_skipped(name) or name.endswith(".pyc"):
                continue
            path = Path(root, name)
            digest.update(path.relative_to(folder).as_posix().encode("utf-8", "replace") + b"\0")
            try:
                digest.update(path.read_bytes() if path.is_file() else b"")
            except OSError:
                digest.update(b"\1unreadable")
            digest.update(b"\0")
    return digest.hexdigest()[:16]
