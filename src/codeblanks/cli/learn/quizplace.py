"""Where the terminal quiz stands in a lesson folder: the questions answered right there, kept in
``.codeblanks-quiz.json`` beside the lesson's files, so the next ``codeblanks learn quiz`` goes
on from the first question not answered right instead of from question 1."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from codeblanks.cli.learn.workspace import write

PLACE = ".codeblanks-quiz.json"


@dataclass
class QuizPlace:
    path: Path
    lesson: str
    right: set[str] = field(default_factory=set)

    def mark(self, question_id: str) -> None:
        """``question_id`` is answered right: kept at once (the quiz may stop at any prompt)."""
        self.right.add(question_id)
        data = {"lesson": self.lesson, "right": sorted(self.right)}
        write(self.path, json.dumps(data, indent=2) + "\n")

    def clear(self) -> None:
        self.right.clear()
        if self.path.is_file() and not self.path.is_symlink():
            self.path.unlink()


def load(folder: Path, lesson: str) -> QuizPlace:
    """The folder's place in ``lesson``'s quiz; nothing kept (or a file that is not ours, or for
    another lesson) is a fresh start, never an error."""
    path = folder / PLACE
    place = QuizPlace(path, lesson)
    try:
        if path.is_symlink():
            return place
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return place
    if isinstance(data, dict) and data.get("lesson") == lesson:
        ids = data.get("right")
        if isinstance(ids, list):
            place.right = {i for i in ids if isinstance(i, str)}
    return place
