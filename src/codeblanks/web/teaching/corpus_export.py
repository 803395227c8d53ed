"""The site's graded programs of a lesson, written out as its corpus (``codeblanks corpus
export``): every distinct program learners ran, right or wrong, with the verdict it got last,
so that an author can review them and commit them for ``check`` to hold (content/corpus.py).

Nothing names a learner: no user, no key, no date goes into a file; comments are taken out
(a learner may sign their work there); file names are the verdict and a hash of the program.
String literals stay, as the program needs them: the author reads each file before committing.
"""

from __future__ import annotations

import io
import tokenize
from dataclasses import dataclass
from pathlib import Path

from django.db.models import QuerySet

from codeblanks.content.corpus import as_file, digest, normalise, programs_in
from codeblanks.content.model import Lesson
from codeblanks.grading.verdicts import Verdict
from codeblanks.web.models import Attempt

PLATFORM = [v.value for v in Verdict if v.platform]


@dataclass(frozen=True)
class Exported:
    written: tuple[Path, ...]  # the new files, in the order of their names
    known: int  # distinct programs already in the corpus (under any name)


def without_comments(code: str) -> str:
    """``code`` with its comments removed, and the lines that held only a comment; a program
    Python cannot tokenise loses only its lines that start with ``#``."""
    lines = code.split("\n")
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return "\n".join(line for line in lines if not line.lstrip().startswith("#"))
    dropped = set()
    for token in tokens:
        if token.type != tokenize.COMMENT:
            continue
        row, col = token.start
        before = lines[row - 1][:col]
        if before.strip():
            lines[row - 1] = before.rstrip()
        else:
            dropped.add(row - 1)
    return "\n".join(line for i, line in enumerate(lines) if i not in dropped)


def distinct_programs(lesson: Lesson) -> dict[str, str]:
    """Each distinct program graded in ``lesson`` (comments out, normalised) -> the verdict of
    its latest grade, newest first. Older rows kept only a wrong program that matched no mistake
    (``wrong_code``): those count too."""
    rows = (
        Attempt.objects.filter(lesson_uuid=lesson.uuid)
        .exclude(verdict__in=PLATFORM)
        .order_by("-created_at", "-id")
        .values_list("program", "wrong_code", "verdict")
    )
    found: dict[str, str] = {}
    for program, wrong, verdict in rows.iterator():
        if program or wrong:
            found.setdefault(normalise(without_comments(program or wrong)), verdict)
    return found


def wrong_runs(lesson: Lesson, users: list[int] | None = None) -> QuerySet[Attempt]:
    """The runs of ``lesson`` judged wrong by the learner's doing, by these users (a class) or
    by everyone (``None``)."""
    rows = Attempt.objects.filter(lesson_uuid=lesson.uuid).exclude(
        verdict__in=[*PLATFORM, Verdict.CORRECT]
    )
    return rows if users is None else rows.filter(user_id__in=users)


def wrong_programs(lesson: Lesson, users: list[int] | None = None) -> list[str]:
    """Each distinct program of ``wrong_runs`` (comments out, normalised): what ``mistakes
    suggest --db`` and the item analysis page group, so that both show the same groups."""
    rows = wrong_runs(lesson, users).values_list("program", "wrong_code").distinct()
    found = {
        normalise(without_comments(program or wrong))
        for program, wrong in rows.iterator()
        if program or wrong
    }
    return sorted(found)


def export(lesson: Lesson, folder: Path) -> Exported:
    """Write into ``folder`` each distinct program of ``lesson`` it does not hold yet, as
    ``<verdict>-<hash>.py`` with its ``# expect:`` line; the files already there are left as
    the author made them (renamed, their verdict changed)."""
    held = {normalise(without_comments(p.code)) for p in programs_in(folder)}
    written, known = [], 0
    for code, verdict in distinct_programs(lesson).items():
        if code in held:
            known += 1
            continue
        path = folder / f"{verdict}-{digest(code)}.py"
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(as_file(code, verdict), encoding="utf-8")
        written.append(path)
    return Exported(tuple(sorted(written)), known)
