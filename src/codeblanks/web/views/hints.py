"""Hints on the lesson page, one at a time ("Hint 2 of 3"), for the exercise and for each
question; every reveal is recorded like the solution reveal. And a mistake's nudge: its
explanation is shown on request, or at once when the learner's next run makes the same mistake.

Every form works without JavaScript (the page comes back at the hints); with htmx the same URL
answers with the hints partial.
"""

from __future__ import annotations

import dataclasses

from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from codeblanks.content.model import Lesson
from codeblanks.grading import Grade
from codeblanks.web import selectors, services
from codeblanks.web.learners import learner_from_request
from codeblanks.web.questions import question_get
from codeblanks.web.views.common import lesson_or_404, new_learner_limited

HINTS = "codeblanks/partials/hints.html"


@require_POST
@new_learner_limited
def lesson_hint(request, lesson_id: str):
    """Reveal the next hint of the exercise (the count only grows)."""
    lesson = lesson_or_404(lesson_id)
    learner = learner_from_request(request, create=True)
    progress = selectors.progress_get(learner, lesson)
    count = min(progress.hints + 1, len(lesson.exercise.hints))
    if count:
        services.hint_reveal(learner=learner, lesson=lesson, count=count)
    view = selectors.exercise_hints(lesson, dataclasses.replace(progress, hints=count))
    if request.htmx:
        return render(request, HINTS, {"hints": view})
    return redirect(reverse("lesson", args=[lesson.id]) + "#hints")


@require_POST
@new_learner_limited
def question_hint(request, lesson_id: str, question_id: str):
    """Reveal the next hint of one question."""
    lesson = lesson_or_404(lesson_id)
    question = question_get(lesson.questions, question_id)
    if question is None:
        raise Http404(f"No question {question_id!r} in this lesson.")
    learner = learner_from_request(request, create=True)
    progress = selectors.progress_get(learner, lesson)
    count = min(int(progress.question_hints.get(question.id, 0)) + 1, len(question.hints))
    if count:
        services.question_hint_reveal(
            learner=learner, lesson=lesson, question_id=question.id, count=count
        )
    shown = {**progress.question_hints, question.id: count}
    view = selectors.question_hints(
        lesson, question, dataclasses.replace(progress, question_hints=shown)
    )
    if request.htmx:
        return render(request, HINTS, {"hints": view})
    return redirect(reverse("lesson", args=[lesson.id]) + f"#hints-{question.id}")


def escalate(session, lesson: Lesson, grade: Grade) -> Grade:
    """A nudge first; the explanation at once when the previous run of this lesson made the
    same mistake (kept in the session, per lesson)."""
    key = f"codeblanks-mistake-{lesson.uuid}"
    last = session.get(key)
    if grade.mistake:
        session[key] = grade.mistake
    elif last is not None:
        del session[key]
    if grade.more and grade.mistake == last:
        return dataclasses.replace(grade, feedback=(grade.more, *grade.feedback[1:]), more="")
    return grade
