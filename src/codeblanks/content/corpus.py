"""A lesson's corpus: real programs kept in its ``corpus/`` folder, each with the verdict it
must get, so that ``codeblanks check`` notices when a change to the lesson lets a real wrong
program through again (or refuses a real right one).

The format, one program a file (``corpus/<name>.py``), the verdict on its first line::

    # expect: incorrect
    votes = ["coffee", "tea", "coffee"]
    ...

The verdict is one a grade can have for the learner's doing: ``correct``, ``incorrect``,
``error``, ``timeout``, ``memory-limit`` or ``output-limit``. The ``# expect:`` line is not
part of the program: the grader sees the lines after it. Reading here only splits the files;
``grading/corpus.py`` checks the verdicts.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from codeblanks.content.model import CorpusProgram

FOLDER = "corpus"
EXPECT = re.compile(r"#\s*expect:\s*(?P<verdict>[a-z-]+)\s*")


def normalise(code: str) -> str:
    """A program as the corpus keeps it: Unix line endings, no trailing spaces on a line, no
    blank lines at its ends, one final newline; so that two submissions differing only there
    are one program."""
    text = code.replace("\r\n", "\n").replace("\r", "\n")
    lines = [line.rstrip() for line in text.split("\n")]
    return "\n".join(lines).strip("\n") + "\n"


def digest(code: str) -> str:
    """A short name for a normalised program: the same program always gets the same file."""
    return hashlib.sha256(normalise(code).encode("utf-8", "replace")).hexdigest()[:12]


def as_file(code: str, verdict: str) -> str:
    """The text of a corpus file: the ``# expect:`` line, then the normalised program."""
    return f"# expect: {verdict}\n{normalise(code)}"


def parse_file(text: str) -> tuple[str, str]:
    """(the verdict it expects, the program): ``""`` for a first line that names none."""
    first, _, rest = text.partition("\n")
    found = EXPECT.fullmatch(first.strip())
    if found is None:
        return "", text
    return found["verdict"], rest


def read_corpus(lesson_folder: Path) -> tuple[CorpusProgram, ...]:
    """The programs of ``lesson_folder/corpus/``, in the order of their names (none: ``()``)."""
    return programs_in(lesson_folder / FOLDER)


def programs_in(folder: Path) -> tuple[CorpusProgram, ...]:
    """The programs of a corpus folder. An unreadable file is kept with no verdict, so that
    ``check`` reports it by its name."""
    if not folder.is_dir():
        return ()
    found = []
    for path in sorted(folder.glob("*.py")):
        try:
            expect, code = parse_file(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            expect, code = "", ""
        found.append(CorpusProgram(path=path, code=code, expect=expect))
    return tuple(found)
