"""What a learner may see of a lesson, as plain data: the same dicts in the JSON API and in the
terminal's local mode (``codeblanks learn``). Never the solution, never a question's answer —
those come only from ``question_review`` (review mode) and the solution reveal, both recorded."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from codeblanks.content.model import (
    BlankQuestion,
    ChoiceQuestion,
    Course,
    Lesson,
    MatchQuestion,
    Question,
)


def meaning_order(question: MatchQuestion) -> list[int]:
    """Indexes of the meanings in the order they are offered: shuffled, so the answer is not the
    author's order, but the same on every page load, every server and every terminal."""

    def key(i: int) -> str:
        return hashlib.sha256(f"{question.id}\0{question.pairs[i][1]}".encode()).hexdigest()

    order = sorted(range(len(question.pairs)), key=key)
    if len(order) > 1 and order == list(range(len(order))):
        order = order[1:] + order[:1]  # never offer the answers in the right order
    return order


def option_order(question: ChoiceQuestion, seed: str) -> list[int]:
    """Indexes of a choice's options in the order this learner is shown them: shuffled per
    learner (``seed`` names them: their account or anonymous key, a terminal's own seed), so
    neither the author's order nor a habit of putting the answer first gives it away, and the
    same for that learner on every page load, server and terminal."""

    def key(i: int) -> str:
        text = f"{seed}\0{question.id}\0{question.options[i]}"
        return hashlib.sha256(text.encode()).hexdigest()

    return sorted(range(len(question.options)), key=key)


def choice_pick(question: ChoiceQuestion, seed: str, offered: int) -> int:
    """The option chosen as an index into ``question.options``, from its index in the order
    ``option_order`` showed (out of range: -1, a wrong answer, not an error)."""
    order = option_order(question, seed)
    return order[offered] if 0 <= offered < len(order) else -1


def lesson_entry(lesson: Lesson) -> dict[str, Any]:
    """A lesson as the catalogue lists it."""
    return {
        "id": lesson.id,
        "uuid": lesson.uuid,
        "course": lesson.course_id,
        "level": lesson.level,
        "level_name": lesson.level_name,  # the level as the lesson's language calls it
        "title": lesson.title,
        "summary": lesson.summary,
        "language": lesson.language,  # of its texts and code: the caller's, where translated
    }


def reading_next(courses: Iterable[Course]) -> dict[str, str | None]:
    """Each lesson's id -> the id of the lesson after it in its course's reading order (the
    course's levels in turn, as the web's "Next lesson"); None after the last."""
    following: dict[str, str | None] = {}
    for course in courses:
        ids = [lesson.id for _level, lessons in course.filled_levels for lesson in lessons]
        following.update(zip(ids, [*ids[1:], None], strict=True))
    return following


def lesson_public(lesson: Lesson, seed: str = "", course: Course | None = None) -> dict[str, Any]:
    """Everything a learner needs to do the lesson elsewhere than in the browser (choices in
    ``option_order`` for ``seed``; ``course``, in the lesson's language, names the course and
    the earlier lessons it builds on)."""
    ex = lesson.exercise
    return {
        **lesson_entry(lesson),
        "course_title": course.title if course is not None else lesson.course_id,
        "filename": ex.filename,
        "explanation": lesson.explanation_md,
        "task": ex.task_md,
        "starter": ex.starter,
        "expected_output": ex.expected_output if ex.output_graded else None,  # None: not graded
        "stdin": ex.stdin or None,  # what the program reads with input(); None: nothing
        "hints": len(ex.hints),
        "builds_on": builds_on(lesson, course),
        "questions": [question_public(q, seed) for q in lesson.questions],
    }


def builds_on(lesson: Lesson, course: Course | None) -> list[dict[str, str]]:
    """What the lesson builds on, as its page says it: each idea it uses, in words, with the
    earlier lesson that teaches it (``Course.builds_on``)."""
    if course is None:
        return []
    return [
        {"id": earlier.id, "title": earlier.title, "idea": words}
        for words, earlier in course.builds_on(lesson)
    ]


def question_public(question: Question, seed: str = "") -> dict[str, Any]:
    """A question to answer: a choice's options (in ``option_order`` for ``seed``; a choice
    answer is the index in ``options`` as shown), a blank's line, a match's terms and meanings
    (meanings in ``meaning_order``; a match answer gives, per term, the index in ``meanings``
    of the meaning chosen)."""
    common = {"id": question.id, "kind": question.kind, "prompt": question.prompt}
    if isinstance(question, ChoiceQuestion):
        return {**common, "options": [question.options[i] for i in option_order(question, seed)]}
    if isinstance(question, BlankQuestion):
        return {**common, "code": question.code}
    if isinstance(question, MatchQuestion):
        order = meaning_order(question)
        return {
            **common,
            "terms": [term for term, _ in question.pairs],
            "meanings": [question.pairs[i][1] for i in order],
        }
    raise TypeError(f"unknown question kind {question.kind!r}")


def question_review(question: Question, seed: str = "") -> dict[str, Any]:
    """The question with its answer and explanation (review mode)."""
    shown = question_public(question, seed)
    if isinstance(question, ChoiceQuestion):
        answer: Any = question.options[question.answer]
    elif isinstance(question, BlankQuestion):
        answer = question.code.replace("____", question.answer, 1)
    else:
        answer = [[term, meaning] for term, meaning in question.pairs]
    return {**shown, "answer": answer, "explanation": question.explanation}


def match_picks(question: MatchQuestion, offered: list[int]) -> list[int]:
    """Per term, the meaning chosen as an index into ``question.pairs``, from indexes into the
    offered (shuffled) ``meanings`` list; out-of-range picks become -1 (wrong, not an error)."""
    order = meaning_order(question)
    return [order[i] if 0 <= i < len(order) else -1 for i in offered]
