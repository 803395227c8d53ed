"""What gives an answer away without the learner knowing it, found by reading the course:
the right option of the choice questions sitting mostly in one place, or mostly being the
longest (content.W004, content.W005), and an explanation that already holds the lines the
exercise asks the learner to write (content.W006). Warnings: ``codeblanks check`` prints them,
the course still loads. docs/authoring.md, "What gives an answer away", defines each one."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from codeblanks.content.checks import register
from codeblanks.content.codes import problem
from codeblanks.content.model import ChoiceQuestion, Course, Lesson
from codeblanks.content.problems import Problem

MOST = 0.40  # a share of a course's choice answers above this is a pattern a learner can use
FEWEST = 5  # with fewer choice questions than this, any share is chance
COPIED = 2 / 3  # an explanation holding more than this share of the written lines gives it away
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_TRIVIAL = re.compile(r"(import\s.*|from\s.*|pass|return(\s+\w+)?|print\(\w*\))")
_SHORTEST = 6  # characters, spaces left out: `y = a + b` and shorter prove nothing


@register
def giveaways(course: Course) -> list[Problem]:
    """Every warning of this module for ``course``, its translations' explanations included."""
    found = _choice_patterns(course)
    for lesson in course.lessons:
        for version in (lesson, *lesson.translations.values()):
            found += _copied_solution(version)
    return found


def _choice_patterns(course: Course) -> list[Problem]:
    questions = [
        (lesson, q)
        for lesson in course.lessons
        for q in lesson.questions
        if isinstance(q, ChoiceQuestion)
    ]
    if len(questions) < FEWEST:
        return []
    found = []
    where = course.path / "course.toml"
    positions = Counter(q.answer for _, q in questions)
    position, count = positions.most_common(1)[0]
    if count / len(questions) > MOST:
        found.append(
            problem(
                "content.W004",
                where,
                None,
                f"{count} of the course's {len(questions)} choice answers are option "
                f"{chr(ord('A') + position)} (more than {MOST:.0%}): "
                f"{_names(q for _, q in questions if q.answer == position)}",
            )
        )
    longest = [q for _, q in questions if _longest(q)]
    if len(longest) / len(questions) > MOST:
        found.append(
            problem(
                "content.W005",
                where,
                None,
                f"in {len(longest)} of the course's {len(questions)} choice questions the answer "
                f"is the longest option (more than {MOST:.0%}): {_names(longest)}",
            )
        )
    return found


def _longest(q: ChoiceQuestion) -> bool:
    """The answer is longer than every other option (a tie gives nothing away)."""
    size = len(q.options[q.answer])
    return all(len(o) < size for i, o in enumerate(q.options) if i != q.answer)


def _names(questions: Iterable[ChoiceQuestion]) -> str:
    names = [q.id for q in questions]
    shown = ", ".join(names[:6])
    return shown + (f" and {len(names) - 6} more" if len(names) > 6 else "")


def _code_part(line: str) -> str:
    """``line`` without its comment (a ``#`` outside quotes)."""
    quote = ""
    for i, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#":
            return line[:i]
    return line


def _squeeze(line: str) -> str:
    """A line as compared: its comment and every space left out."""
    return re.sub(r"\s+", "", _code_part(line))


def written_lines(lesson: Lesson) -> list[str]:
    """The lines of the solution that the learner writes: not in the starter, and not trivial
    (blank, a comment, an import, ``pass``, ``return name``, a bare ``print(name)``, or under
    six characters without spaces)."""
    starter = {_squeeze(line) for line in lesson.exercise.starter.splitlines()}
    written = []
    for line in lesson.exercise.solution.splitlines():
        code = _squeeze(line)
        bare = _code_part(line).strip()
        if code in starter or len(code) < _SHORTEST or _TRIVIAL.fullmatch(bare):
            continue
        written.append(line.strip())
    return written


def _explanation_code(markdown: str) -> set[str]:
    """Every line inside the explanation's fenced code blocks, as compared."""
    lines, inside = set(), False
    for line in markdown.splitlines():
        if _FENCE.match(line):
            inside = not inside
        elif inside:
            lines.add(_squeeze(line))
    return lines


def _copied_solution(lesson: Lesson) -> list[Problem]:
    written = written_lines(lesson)
    if len(written) < 2:
        return []
    shown = _explanation_code(lesson.explanation_md)
    copied = [line for line in written if _squeeze(line) in shown]
    if len(copied) / len(written) <= COPIED:
        return []
    return [
        problem(
            "content.W006",
            lesson.path / "explanation.md",  # a translation's path is its own folder (tr/)
            None,
            f"the explanation of {lesson.id!r} holds {len(copied)} of the {len(written)} lines "
            f"the exercise asks for, word for word: {'; '.join(copied[:3])}",
        )
    ]
