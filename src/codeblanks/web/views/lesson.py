"""The lesson page and the forms on it. Every form works without JavaScript (a full page comes
back); with htmx the same URLs answer with the named partial that replaces one part of the
page."""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from codeblanks import inline
from codeblanks.learning.answers import Form, question_get
from codeblanks.web.door.addresses import client_address
from codeblanks.web.learner import drafts, quotas, store
from codeblanks.web.learner.learners import learner_from_request, learner_started
from codeblanks.web.pages import selectors
from codeblanks.web.pages.question_display import question_view
from codeblanks.web.teaching.scores import counting_after_review
from codeblanks.web.views.common import lesson_or_404, new_learner_limited

LESSON = "codeblanks/lesson.html"
# htmx answers: the part that was asked for, plus the lesson's flow (what is left, the next
# lesson, the course's progress) swapped out of band, since a run or an answer can change it.
RUN_RESPONSE = "codeblanks/partials/run_response.html"
EDITOR = "codeblanks/partials/editor.html"
SOLUTION = "codeblanks/partials/solution.html"
QUESTION_RESPONSE = "codeblanks/partials/question_response.html"
CONFIRM = "codeblanks/solution_confirm.html"
REVIEW = "codeblanks/review.html"


def _page(request, the_lesson, **extra):
    """The full lesson page context for this request's learner."""
    learner = learner_from_request(request)
    page = selectors.lesson_page(learner, the_lesson)
    return {"page": page, "after_review": _after_review(learner, the_lesson), **extra}


def _confirm(request, lesson):
    """The solution's confirmation page, in one hand-off from the event loop."""
    after_review = _after_review(learner_from_request(request), lesson)
    return render(request, CONFIRM, {"lesson": lesson, "after_review": after_review})


def _after_review(learner, lesson) -> list[str]:
    """The learner's classes in which work done after seeing the answers still earns points
    (the pages' "earns no points" is true everywhere else)."""
    return counting_after_review(learner.user_id if learner else None, lesson)


@require_safe
def lesson_page(request, lesson_id: str):
    # Reading makes no learner (no row, no count against the address's share of new learners):
    # a visitor without a key sees the choices in the order every keyless visitor sees, and their
    # own order from their first answer on. Each option posts its own index, so an answer is
    # judged right whichever order it was read in.
    lesson = lesson_or_404(lesson_id)
    context = _page(request, lesson)
    # A draft newer than the last run's code is what the editor starts with (web/learner/drafts.py).
    context["shown"] = shown = drafts.shown(learner_from_request(request), lesson)
    if shown.draft:
        context["code"] = shown.code
    return render(request, LESSON, context)


@require_safe
def lesson_review(request, lesson_id: str):
    lesson = lesson_or_404(lesson_id)
    if (learner := learner_from_request(request)) is not None:
        # Answers given after this earn no points (teaching/scores.py): record it, GET or not.
        store.review_record(learner=learner, lesson=lesson)
    return render(request, REVIEW, _page(request, lesson))


@require_POST
@new_learner_limited
def lesson_run(request, lesson_id: str):
    """Sync on purpose: the whole Run happens on the request's thread. The tutor's run is driven
    here (``codeblanks.inline``): its writes, the reading, the sandbox's run and the judging
    are done in place, with no hand-off to the event loop and back (web/door/runpath.py)."""
    lesson = lesson_or_404(lesson_id)
    code = request.POST.get("code")
    if code is None:
        return HttpResponseBadRequest(_("The form has no code in it."))
    code = code.replace("\r\n", "\n")
    learner = learner_started(request)
    client = client_address(request)
    tutor = store.tutor_for(learner)
    outcome = inline.drive(tutor.run(lesson, code, client, quotas.run_limits(client)))
    context: dict[str, object] = {
        "run": outcome.view,
        "refusal": outcome.refusal,
        "lesson": lesson,
    }
    status = outcome.refusal.status if outcome.refusal else 200
    if request.htmx:
        # Only a right Run can change the lesson's flow or the course's counts (a wrong one never
        # unsolves, and answers send their own): after any other, the page shows them already.
        if outcome.grade is not None and outcome.grade.correct:
            context["flow"] = selectors.lesson_flow(learner, lesson)
        response = render(request, RUN_RESPONSE, context, status=status)
    else:
        ctx = _page(request, lesson, **context)
        ctx["code"] = code  # what was posted, even when it was too large to keep
        response = render(request, LESSON, ctx, status=status)
    if outcome.refusal:  # a 429 says when to try again
        for name, value in quotas.headers(outcome.refusal).items():
            response[name] = value
    return response


@require_POST
@new_learner_limited
def lesson_reset(request, lesson_id: str):
    lesson = lesson_or_404(lesson_id)
    store.code_reset(learner=learner_started(request), lesson=lesson)
    if request.htmx:
        # Saved now: a draft kept in the browser before the reset is older, and dropped.
        shown = drafts.Shown(lesson.exercise.starter, False, timezone.now())
        return render(request, EDITOR, {"lesson": lesson, "code": shown.code, "shown": shown})
    return redirect(reverse("lesson", args=[lesson.id]) + "#editor")


@require_http_methods(["GET", "HEAD", "POST"])
@new_learner_limited
async def lesson_solution(request, lesson_id: str):
    """GET asks for confirmation (the page without JavaScript); POST reveals and records it."""
    lesson = lesson_or_404(lesson_id)
    if request.method != "POST":
        return await sync_to_async(_confirm)(request, lesson)
    learner = await sync_to_async(learner_started)(request)
    await store.tutor_for(learner).reveal_solution(lesson)
    if request.htmx:
        return await sync_to_async(render)(request, SOLUTION, {"lesson": lesson})
    return redirect(reverse("lesson", args=[lesson.id]) + "#solution")


@require_POST
@new_learner_limited
@quotas.tells_when_to_retry
async def question_answer(request, lesson_id: str, question_id: str):
    lesson = lesson_or_404(lesson_id)
    question = question_get(lesson.questions, question_id)
    if question is None:
        raise Http404(f"No question {question_id!r} in this lesson.")
    number = lesson.questions.index(question) + 1
    status = 200
    learner = await sync_to_async(learner_started)(request)
    seed = learner.seed
    client = client_address(request)
    outcome = await store.tutor_for(learner).answer(
        lesson, question, Form(request.POST), client, store.answer_quota(client)
    )
    if outcome.bad:
        view = question_view(question, number, seed=seed, message=outcome.bad, error=True)
        status = 422
    elif outcome.refusal:
        view = question_view(
            question, number, seed=seed, message=outcome.refusal.message, error=True
        )
        status = outcome.refusal.status
    else:
        view = question_view(
            question,
            number,
            seed=seed,
            answer=outcome.answer,
            correct=outcome.correct,
            message=outcome.message,
        )
    if request.htmx:

        def answered():  # who, the flow and the answer rendered in one hop to the thread
            flow = selectors.lesson_flow(learner_from_request(request), lesson)
            ctx = {"lesson": lesson, "q": view, "flow": flow}
            return render(request, QUESTION_RESPONSE, ctx, status=status)

        return await sync_to_async(answered)()
    if status == 200:
        return redirect(reverse("lesson", args=[lesson.id]) + f"#{view.dom_id}")

    def full_page():
        ctx = _page(request, lesson)
        ctx["page"].questions[number - 1] = view
        return render(request, LESSON, ctx, status=status)

    return await sync_to_async(full_page)()
