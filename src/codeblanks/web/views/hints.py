"""Hints on the lesson page, one at a time ("Hint 2 of 3"), for the exercise and for each
question; every reveal is recorded like the solution reveal (``learning.Tutor.next_hint``).

Every form works without JavaScript (the page comes back at the hints); with htmx the same URL
answers with the hints partial.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from codeblanks.learning.answers import question_get
from codeblanks.web.learner import store
from codeblanks.web.learner.learners import learner_started
from codeblanks.web.learner.progress import progress_get
from codeblanks.web.pages import selectors
from codeblanks.web.views.common import lesson_or_404, new_learner_limited

HINTS = "codeblanks/partials/hints.html"


@require_POST
@new_learner_limited
async def lesson_hint(request, lesson_id: str):
    """Reveal the next hint of the exercise (the count only grows; past the last, nothing)."""
    lesson = lesson_or_404(lesson_id)
    learner = await sync_to_async(learner_started)(request)
    await store.tutor_for(learner).next_hint(lesson)
    if request.htmx:
        progress = await sync_to_async(progress_get)(learner, lesson)
        view = selectors.exercise_hints(lesson, progress)
        return await sync_to_async(render)(request, HINTS, {"hints": view})
    return redirect(reverse("lesson", args=[lesson.id]) + "#hints")


@require_POST
@new_learner_limited
async def question_hint(request, lesson_id: str, question_id: str):
    """Reveal the next hint of one question."""
    lesson = lesson_or_404(lesson_id)
    question = question_get(lesson.questions, question_id)
    if question is None:
        raise Http404(f"No question {question_id!r} in this lesson.")
    learner = await sync_to_async(learner_started)(request)
    await store.tutor_for(learner).next_hint(lesson, question)
    if request.htmx:
        progress = await sync_to_async(progress_get)(learner, lesson)
        view = selectors.question_hints(lesson, question, progress)
        return await sync_to_async(render)(request, HINTS, {"hints": view})
    return redirect(reverse("lesson", args=[lesson.id]) + f"#hints-{question.id}")
