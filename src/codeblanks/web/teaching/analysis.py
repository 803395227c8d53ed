"""Item analysis, for teachers (one class) and authors (the whole site): per lesson, the most
common wrong answers to each question, the cases that fail most, the anticipated mistakes most
often matched, and the wrong programs that matched none (candidates for a new mistake). Names
never appear: only answers, programs and counts. The same ``LessonAnalysis`` feeds the class's
page, the site's page and ``codeblanks report``."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Count

from codeblanks.content import corpus
from codeblanks.content.model import BlankQuestion, ChoiceQuestion, Lesson, MatchQuestion, Question
from codeblanks.grading import Grade
from codeblanks.grading.grade import mistake_id
from codeblanks.grading.verdicts import Verdict
from codeblanks.web.models import Attempt
from codeblanks.web.teaching.models import AnswerEvent

WRONG_CODE_CHARS = 20_000  # a longer wrong program is counted, not kept
TOP = 5


def attempt_fields(grade: Grade, code: str) -> dict:
    """What an ``Attempt`` row keeps for item analysis and for the lesson's corpus (see its
    fields)."""
    verdict = grade.verdict
    if verdict.platform:
        return {}
    program = corpus.normalise(code)
    kept = {"program": program if len(program) <= WRONG_CODE_CHARS else ""}
    if verdict is Verdict.CORRECT:
        return kept
    if grade.mistake:
        return {**kept, "mistake": grade.mistake[:200]}
    normal = "\n".join(line.rstrip() for line in code.strip().splitlines())
    digest = hashlib.sha256(normal.encode("utf-8", "replace")).hexdigest()[:16]
    wrong = normal if len(normal) <= WRONG_CODE_CHARS else ""
    return {**kept, "wrong_code": wrong, "code_digest": digest}


@dataclass(frozen=True)
class QuestionStats:
    question: Question
    answers: int  # answers given (every try)
    right: int
    wrong: list[tuple[str, int]]  # the most common wrong answers, as the learner saw them


@dataclass(frozen=True)
class LessonAnalysis:
    lesson: Lesson
    runs: int
    solved_by: int
    learners: int  # who ran or answered anything in the lesson
    questions: list[QuestionStats] = field(default_factory=list)
    cases: list[tuple[str, int]] = field(default_factory=list)  # failing runs per case
    mistakes: list[tuple[str, str, int]] = field(default_factory=list)  # (file, nudge, runs)
    unmatched: list[tuple[str, int]] = field(default_factory=list)  # (program, runs)
    unmatched_runs: int = 0


def answer_text(question: Question, answer) -> str:
    """An answer as the learner saw it: the option's text, the typed text, the pairs chosen."""
    if isinstance(question, ChoiceQuestion) and type(answer) is int:
        return question.options[answer] if 0 <= answer < len(question.options) else "?"
    if isinstance(question, BlankQuestion):
        return str(answer)
    if isinstance(question, MatchQuestion) and isinstance(answer, list):
        meanings = [m for _, m in question.pairs]
        return "; ".join(
            f"{term} → {meanings[i] if type(i) is int and 0 <= i < len(meanings) else '?'}"
            for (term, _), i in zip(question.pairs, answer, strict=False)
        )
    return str(answer)


def _owned(queryset, users, prefix=""):
    """Rows of these users only (a class), or everyone's (the site: ``users`` None)."""
    return queryset if users is None else queryset.filter(**{f"{prefix}user_id__in": users})


def _questions(lesson: Lesson, users) -> list[QuestionStats]:
    events = _owned(
        AnswerEvent.objects.filter(progress__lesson_uuid=lesson.uuid), users, "progress__"
    )
    by_question: dict[str, list] = {}
    for question_id, answer, correct in events.values_list("question_id", "answer", "correct"):
        by_question.setdefault(question_id, []).append((answer, correct))
    stats = []
    for q in lesson.questions:
        given = by_question.get(q.id, [])
        wrong = Counter(answer_text(q, a) for a, ok in given if not ok)
        stats.append(
            QuestionStats(q, len(given), sum(ok for _, ok in given), wrong.most_common(TOP))
        )
    return stats


def lesson_analysis(lesson: Lesson, users: list[int] | None = None) -> LessonAnalysis:
    runs = _owned(Attempt.objects.filter(lesson_uuid=lesson.uuid), users)
    failing = runs.exclude(verdict__in=[v for v in Verdict if v is Verdict.CORRECT or v.platform])
    cases = failing.exclude(case="").values("case").annotate(n=Count("id")).order_by("-n", "case")
    matched = dict(
        failing.exclude(mistake="")
        .values("mistake")
        .annotate(n=Count("id"))
        .values_list("mistake", "n")
    )
    anticipated = lesson.exercise.grading.mistakes
    mistakes = sorted(
        (
            (
                _mistake_file(lesson, m),
                m.nudge or m.message,
                matched.get(_mistake_file(lesson, m), 0),
            )
            for m in anticipated
        ),
        key=lambda row: -row[2],
    )
    unmatched = failing.exclude(code_digest="")
    groups = unmatched.values("code_digest").annotate(n=Count("id")).order_by("-n")[:TOP]
    samples = []
    for group in groups:
        code = unmatched.filter(code_digest=group["code_digest"]).values_list(
            "wrong_code", flat=True
        )
        samples.append((code.first() or "", group["n"]))
    people = {(u, a) for u, a in runs.values_list("user_id", "anon_key").distinct()}
    return LessonAnalysis(
        lesson=lesson,
        runs=runs.count(),
        solved_by=len(
            {
                (u, a)
                for u, a in runs.filter(verdict=Verdict.CORRECT).values_list("user_id", "anon_key")
            }
        ),
        learners=len(people),
        questions=_questions(lesson, users),
        cases=[(c["case"], c["n"]) for c in cases[:10]],
        mistakes=mistakes,
        unmatched=samples,
        unmatched_runs=unmatched.count(),
    )


def _mistake_file(lesson: Lesson, mistake) -> str:
    return mistake_id(lesson, mistake)
