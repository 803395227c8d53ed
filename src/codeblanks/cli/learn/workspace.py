"""A lesson folder on the learner's disk: ``README.md`` (explanation and task), the exercise file
under its own name, and ``.codeblanks.json`` (which lesson, which server, hints seen). Starting
a lesson again refreshes the README and never touches the learner's code."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from codeblanks import i18n
from codeblanks.cli.console import UsageError
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
        try:
            return self.code_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise UsageError(
                _("{file}: no such file (your exercise file)").format(file=self.code_path)
            ) from None
        except UnicodeDecodeError:
            raise UsageError(_("{file}: not UTF-8 text").format(file=self.code_path)) from None

    def save(self) -> None:
        data = {k: v for k, v in asdict(self).items() if k != "folder"}
        (self.folder / META).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def saved_language(folder: str | None) -> str | None:
    """The language the lesson folder was started in, if ``folder`` is one (None otherwise)."""
    try:
        data = json.loads((Path(folder or ".") / META).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    found = data.get("language") if isinstance(data, dict) else None
    return found if isinstance(found, str) and found else None


def load(folder: str | None) -> Workspace:
    """The workspace in ``folder`` (default: the working folder); a folder that is not one is a
    usage error that says how to make one."""
    path = Path(folder or ".")
    try:
        data = json.loads((path / META).read_text(encoding="utf-8"))
        return Workspace(
            folder=path,
            lesson=str(data["lesson"]),
            filename=str(data["filename"]),
            server=data.get("server") or None,
            hints_seen=int(data.get("hints_seen", 0)),
            language=data.get("language") or None,
        )
    except FileNotFoundError:
        raise UsageError(
            _(
                "{folder} is not a lesson folder (no {meta}): start one with "
                "`codeblanks learn start LESSON [DIR]`"
            ).format(folder=path, meta=META)
        ) from None
    except (ValueError, KeyError, TypeError, OSError):
        raise UsageError(
            _("{file} is damaged: start the lesson again in it").format(file=path / META)
        ) from None


def create(folder: Path, lesson: dict[str, Any], server: str | None) -> tuple[Workspace, bool]:
    """Write the lesson folder; returns it and whether the exercise file was written now (False:
    it was already there and is kept as it is)."""
    folder.mkdir(parents=True, exist_ok=True)
    name = Path(lesson["filename"]).name  # never a path out of the folder
    space = Workspace(
        folder=folder, lesson=lesson["id"], filename=name, server=server, language=i18n.current()
    )
    try:
        previous = load(str(folder))
        space.hints_seen = previous.hints_seen if previous.lesson == lesson["id"] else 0
    except UsageError:
        pass
    (folder / "README.md").write_text(readme(lesson), encoding="utf-8")
    fresh = not space.code_path.exists()
    if fresh:
        space.code_path.write_text(lesson["starter"], encoding="utf-8")
    space.save()
    return space, fresh


def readme(lesson: dict[str, Any]) -> str:
    """The lesson folder's README.md, its headings and instructions in the current language."""
    printed = lesson.get("expected_output")  # None: a function exercise whose prints are free
    expected = (
        ""
        if printed is None
        else "\n\n"
        + _("Expected output on the given data:")
        + f"\n\n```text\n{printed.rstrip()}\n```"
    )
    return (
        f"# {lesson['title']}\n\n"
        f"*{lesson.get('level_name') or lesson['level']} · "
        f"{lesson.get('course_title') or lesson['course']}* — {lesson['summary']}\n\n"
        f"{lesson['explanation'].strip()}\n\n"
        + "## "
        + _("Your task")
        + f"\n\n{lesson['task'].strip()}\n\n"
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
