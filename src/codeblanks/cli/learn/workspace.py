"""A lesson folder on the learner's disk: ``README.md`` (explanation and task), the exercise file
under its own name, and ``.codeblanks.json`` (which lesson, which server, hints seen). Starting
a lesson again refreshes the README and never touches the learner's code.

What a server or a folder's ``.codeblanks.json`` names is checked (``untrusted``): a plain name
each, files in the folder only, never written through a symbolic link."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from codeblanks import i18n
from codeblanks.cli.console import UsageError, visible
from codeblanks.cli.learn.untrusted import inside, one_line, plain_name
from codeblanks.i18n import gettext as _

META = ".codeblanks.json"


@dataclass
class Workspace:
    folder: Path
    lesson: str
    filename: str
    server: str | None = None  # None: the built-in courses on this machine
    hints_seen: int = 0
    language: str | None = None  # the language it was started in; later commands speak it

    @property
    def code_path(self) -> Path:
        return self.folder / self.filename

    def read_code(self) -> str:
        """The exercise file, which is sent to be graded: only a file in the lesson folder."""
        path = self.code_path
        if not inside(path, self.folder):
            raise UsageError(
                _(
                    "{file} leads out of the lesson folder (a symbolic link?): only a file in "
                    "the folder is sent to be graded"
                ).format(file=visible(str(path)))
            )
        try:
            if not path.is_file():  # nor a folder, nor a pipe that would never end
                raise FileNotFoundError(path)
            return path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise UsageError(
                _("{file}: no such file (your exercise file)").format(file=visible(str(path)))
            ) from None
        except UnicodeDecodeError:
            raise UsageError(_("{file}: not UTF-8 text").format(file=visible(str(path)))) from None

    def save(self) -> None:
        data = {k: v for k, v in asdict(self).items() if k != "folder"}
        write(self.folder / META, json.dumps(data, indent=2) + "\n")


def write(path: Path, text: str, fresh: bool = False) -> None:
    """Write ``path`` itself, never the file a symbolic link there points to (a link may lead
    anywhere); ``fresh``: only when there is nothing at ``path`` yet."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | (os.O_EXCL if fresh else os.O_TRUNC)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as problem:
        if os.path.islink(path):
            raise UsageError(
                _("{file} is a symbolic link: not written through").format(file=visible(str(path)))
            ) from None
        raise UsageError(
            _("{file}: cannot be written ({reason})").format(
                file=visible(str(path)), reason=problem.strerror
            )
        ) from None
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)


def saved_language(folder: str | None) -> str | None:
    """The language the lesson folder was started in, if ``folder`` is one (None otherwise)."""
    try:
        data = json.loads((Path(folder or ".") / META).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    found = data.get("language") if isinstance(data, dict) else None
    return found if isinstance(found, str) and found else None


def load(folder: str | None) -> Workspace:
    """The workspace in ``folder`` (default: the working folder); a folder that is not one is a
    usage error that says how to make one."""
    path = Path(folder or ".")
    meta = path / META
    try:
        data = json.loads(meta.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(
            _(
                "{folder} is not a lesson folder (no {meta}): start one with "
                "`codeblanks learn start LESSON [DIR]`"
            ).format(folder=path, meta=META)
        ) from None
    except (ValueError, RecursionError, OSError):  # not UTF-8, not JSON, unreadable
        raise damaged(meta) from None
    if not isinstance(data, dict):
        raise damaged(meta)
    # anyone may have written it: its names must be plain ones, its file in the folder
    lesson = plain_name(data.get("lesson"), '"lesson"', str(meta))
    filename = plain_name(data.get("filename"), '"filename"', str(meta))
    server, hints = data.get("server") or None, data.get("hints_seen", 0)
    language = data.get("language") or None
    if (
        not isinstance(server, str | None)
        or not isinstance(language, str | None)
        or type(hints) is not int
        or hints < 0
    ):
        raise damaged(meta)
    return Workspace(
        folder=path,
        lesson=lesson,
        filename=filename,
        server=server,
        hints_seen=hints,
        language=language,
    )


def damaged(meta: Path) -> UsageError:
    return UsageError(
        _("{file} is damaged: start the lesson again in it").format(file=visible(str(meta)))
    )


def place(named: str | None, lesson_id: str, source: str) -> Path:
    """The lesson folder: the one the learner named, else one named for the lesson in the
    working folder, and never outside it (``lesson_id`` comes from ``source``, a server)."""
    if named:
        return Path(named)
    folder = Path(plain_name(lesson_id, '"id"', source))
    if not inside(folder, Path.cwd()):
        raise UsageError(
            _(
                "{folder} leads out of the working folder (a symbolic link?): name the lesson "
                "folder with DIR"
            ).format(folder=visible(str(folder)))
        )
    return folder


def create(
    folder: Path, lesson: dict[str, Any], server: str | None, source: str
) -> tuple[Workspace, bool]:
    """Write the lesson folder; returns it and whether the exercise file was written now (False:
    it was already there and is kept as it is). ``source`` names where the lesson came from."""
    lesson_id = plain_name(lesson["id"], '"id"', source)
    name = plain_name(lesson["filename"], '"filename"', source)  # never a path out of the folder
    folder.mkdir(parents=True, exist_ok=True)
    space = Workspace(
        folder=folder, lesson=lesson_id, filename=name, server=server, language=i18n.current()
    )
    try:
        previous = load(str(folder))
        space.hints_seen = previous.hints_seen if previous.lesson == lesson_id else 0
    except UsageError:
        pass
    write(folder / "README.md", readme(lesson))
    fresh = not space.code_path.exists() and not space.code_path.is_symlink()
    if fresh:
        write(space.code_path, lesson["starter"], fresh=True)
    space.save()
    return space, fresh


def _without_title(explanation: str, title: str) -> str:
    """The explanation without its first heading when that is the lesson's title, which the
    README already opens with (the learner trial's F14: the title twice)."""
    text = explanation.strip()
    first, _sep, rest = text.partition("\n")
    if first.startswith("# ") and " ".join(first[2:].split()) == " ".join(str(title).split()):
        return rest.strip()
    return text


def builds_on_line(lesson: dict[str, Any]) -> str:
    """The line "Builds on: ..." as the lesson page words it, each idea with the id of the
    earlier lesson that teaches it; "" when the lesson builds on nothing (or an older server
    does not say)."""
    found = [
        _("{idea} ({lesson})").format(idea=one_line(item["idea"]), lesson=one_line(item["id"]))
        for item in lesson.get("builds_on") or ()
    ]
    return _("Builds on: {ideas}").format(ideas=", ".join(found)) if found else ""


def readme(lesson: dict[str, Any]) -> str:
    """The lesson folder's README.md, its headings and instructions in the current language; the
    lesson's texts with their control characters escaped (``cat README.md`` is safe)."""
    title, summary = one_line(lesson["title"]), one_line(lesson["summary"])
    level = one_line(lesson.get("level_name") or lesson["level"])
    course = one_line(lesson.get("course_title") or lesson["course"])
    printed = lesson.get("expected_output")  # None: a function exercise whose prints are free
    expected = (
        ""
        if printed is None
        else "\n\n"
        + _("Expected output on the given data:")
        + f"\n\n```text\n{visible(printed.rstrip())}\n```"
    )
    given = lesson.get("stdin")  # None: the program reads no input
    if given:
        expected = (
            "\n\n"
            + _(
                "The input your program reads (`codeblanks learn test` gives it these lines; "
                "you do not type them):"
            )
            + f"\n\n```text\n{visible(given.rstrip())}\n```"
            + expected
        )
    earlier = builds_on_line(lesson)
    return (
        f"# {title}\n\n"
        f"*{level} · {course}* — {summary}\n\n"
        + (f"{earlier}\n\n" if earlier else "")
        + f"{visible(_without_title(lesson['explanation'], lesson['title']))}\n\n"
        + "## "
        + _("Your task")
        + f"\n\n{visible(lesson['task'].strip())}\n\n"
        + "## "
        + _("What to do")
        + "\n\n"
        + _(
            "Edit `{file}`, then `codeblanks learn test` in this folder. Stuck? "
            "`codeblanks learn hint` gives a hint at a time; `codeblanks learn solution` shows "
            "the sample solution. `codeblanks learn quiz` asks the lesson's questions."
        ).format(file=lesson["filename"])
        + expected
        + "\n"
    )
