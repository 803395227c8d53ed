"""A built-in course read once and kept, parsed, beside the package's bytecode
(``codeblanks/__pycache__/course-<folder>.pickle``), so that a process that loads the catalogue
(every command, every web worker, every node) reads a file instead of parsing the two built-in
courses again: ~0.65 s of CPU each on a 2-core VM, against ~10 ms for the kept copy.

Only the courses inside the installed package are kept, and only there: that folder is exactly
as trusted as the code beside it (whoever can write to it can change the ``.pyc`` files Python
runs), so unpickling from it adds no way in, and nothing accumulates anywhere else. Like the
courses themselves, the copies (solutions and hidden cases included) are out of a run's sight:
the sandbox never shows the package's folder (``sandbox/layout.py``). An author's own courses
are read from their files every time, as before.

The copy is used only when its key matches: a hash of everything a course's reading depends on,
the folder's place, the name, size and modification time of every file under it, the package's
own source files the same way, Python's version and the libraries' versions. Any edit, upgrade or
move is a miss: the course is read again and the copy replaced (a file written whole, then
renamed over the old one). A copy that cannot be read or written is as if there were none.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.metadata
import os
import pickle
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import codeblanks
from codeblanks.content.files import stamps
from codeblanks.content.model import Course
from codeblanks.content.problems import Problem

PACKAGE = Path(codeblanks.__file__).resolve().parent
STORE = PACKAGE / "__pycache__"
FORMAT = b"codeblanks-course-1"
LIBRARIES = ("markdown-it-py", "mdit-py-plugins", "Pygments", "numpy")

Reader = Callable[[Path, list[Problem]], "Course | None"]


def read_kept(
    folder: Path, problems: list[Problem], read: Reader, store: Path | None = None
) -> Course | None:
    """``read(folder, problems)``, or the same answer kept from an earlier process. ``store`` is
    where copies live: ``STORE`` for a course inside the package, else nothing is kept (None)."""
    if store is None and not _in_package(folder):
        return read(folder, problems)
    where = (store or STORE) / f"course-{folder.name}.pickle"
    key = _key(folder)
    found = _load(where, key)
    if found is not None:
        course, its_problems = found
        problems.extend(its_problems)
        return course
    its_problems = []
    course = read(folder, its_problems)
    problems.extend(its_problems)
    _save(where, key, (course, its_problems))
    return course


def _in_package(folder: Path) -> bool:
    try:
        return folder.resolve().parent == PACKAGE / "courses"
    except OSError:
        return False


def _key(folder: Path) -> bytes:
    digest = hashlib.sha256(_code())
    resolved = folder.resolve()
    digest.update(str(resolved).encode())
    _files(digest, resolved, "*")
    return digest.hexdigest().encode()


@functools.cache
def _code() -> bytes:
    """What reading depends on besides the course: the same in a process's every load (the
    code it runs does not change under it)."""
    digest = hashlib.sha256(FORMAT)
    digest.update(repr(sys.version_info).encode())
    for name in LIBRARIES:
        try:
            version = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            version = "-"
        digest.update(f"{name}={version};".encode())
    _files(digest, PACKAGE, "*.py")
    return digest.digest()


def _files(digest: hashlib._Hash, root: Path, pattern: str) -> None:
    for path, size, mtime_ns in stamps(root, pattern):
        digest.update(f"{path}\0{size}\0{mtime_ns}\n".encode())


def _load(where: Path, key: bytes) -> tuple[Course | None, list[Problem]] | None:
    try:
        with open(where, "rb") as f:
            if f.readline().rstrip(b"\n") != key:
                return None
            found = pickle.load(f)
    except Exception:  # missing, unreadable, truncated, or made by other code: read again
        return None
    if not (isinstance(found, tuple) and len(found) == 2):
        return None
    course, its_problems = found
    if (course is not None and not isinstance(course, Course)) or not isinstance(
        its_problems, list
    ):
        return None
    return course, its_problems


def _save(where: Path, key: bytes, value: object) -> None:
    with contextlib.suppress(Exception):  # not kept (no room, no right, not picklable): no harm
        where.parent.mkdir(exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=where.parent, prefix=where.name, suffix=".partial")
        try:
            os.fchmod(fd, 0o644)  # readable as the .pyc files beside it are
            with os.fdopen(fd, "wb") as f:
                f.write(key + b"\n")
                pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, where)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
