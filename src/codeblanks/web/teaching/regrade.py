"""Regrading a class: after a lesson's check was fixed (a wrong expected output, a test case
too lenient), each learner's last program in each of the class's lessons runs again through
the real grader. Who changed is reported (learner, lesson, old verdict → new). A program now
right earns the solve it was refused, dated when it was run; a program now wrong loses a kept
solve only when asked (``lower``): a score never goes down behind the learner's back."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Max

from codeblanks.grading import grade
from codeblanks.grading.verdicts import Verdict
from codeblanks.web.models import Attempt, LessonProgress
from codeblanks.web.teaching import scores
from codeblanks.web.teaching.classes import class_lessons, display_name
from codeblanks.web.teaching.models import Classroom, Extension

CLIENT = "regrade"  # whom the sandbox counts the runs to


@dataclass(frozen=True)
class Change:
    username: str
    name: str
    lesson_id: str
    old: str  # the verdict the run had
    new: str  # the verdict it has now
    score_before: float | int
    score_after: float | int
    kept: bool = False  # now wrong, but the solve was kept (not ``lower``)

    @property
    def old_label(self) -> str:
        """The old verdict in the reader's language (the page; the API keeps the codes)."""
        return Verdict.label_of(self.old)

    @property
    def new_label(self) -> str:
        return Verdict.label_of(self.new)


@dataclass(frozen=True)
class Report:
    programs: int  # how many were run again
    changes: list[Change]
    failed: int  # runs the platform could not do (sandbox busy, ...): left as they were


def _last_programs(room: Classroom, uuids: list[str]) -> list[Attempt]:
    members = room.members.values_list("user_id", flat=True)
    last = (
        Attempt.objects.filter(user_id__in=members, lesson_uuid__in=uuids)
        .exclude(program="")
        .values("user_id", "lesson_uuid")
        .annotate(last=Max("id"))
        .values_list("last", flat=True)
    )
    return list(Attempt.objects.filter(id__in=list(last)).select_related("user").order_by("id"))


def _apply(attempt: Attempt, new: str, case: str, *, lower: bool) -> bool:
    """The new verdict on the run and, where it changes the solve, on the progress row (saved
    through the model: its signal sends the new score to an LMS). True when a solve the new
    verdict denies was kept: the run keeps its verdict then, so ``lower`` later still finds it."""
    row = LessonProgress.objects.filter(user=attempt.user, lesson_uuid=attempt.lesson_uuid).first()
    denied = attempt.verdict == Verdict.CORRECT and new != Verdict.CORRECT
    if denied and row is not None and row.solved_at is not None and not lower:
        return True
    Attempt.objects.filter(pk=attempt.pk).update(verdict=new, case=case[:200])
    if row is None:
        return False
    if new == Verdict.CORRECT and row.solved_at is None:
        row.solved_at = attempt.created_at
        row.save(update_fields=["solved_at", "updated_at"])
    elif denied and row.solved_at is not None:
        row.solved_at = None
        row.save(update_fields=["solved_at", "updated_at"])
    return False


def regrade(room: Classroom, *, lower: bool = False) -> Report:
    """Run every learner's last program of every lesson of the class again; see the module."""
    taught = class_lessons(room)
    lessons = {lesson.uuid: lesson for lesson, _ in taught}
    due_of = {lesson.uuid: cl.due_at for lesson, cl in taught}
    own = {
        (user_id, uuid): at
        for user_id, uuid, at in Extension.objects.filter(class_lesson__classroom=room)
        .values_list("user_id", "class_lesson__lesson_uuid", "due_at")
    }  # fmt: skip
    rules = scores.room_rules(room)
    changes, failed = [], 0
    attempts = _last_programs(room, list(lessons))
    for attempt in attempts:
        lesson, who = lessons[attempt.lesson_uuid], attempt.user
        if who is None:  # a member's runs have an account; an anonymous one is not theirs
            continue
        result = grade(lesson, attempt.program, client=CLIENT)
        if result.verdict.platform:
            failed += 1
            continue
        if result.verdict == attempt.verdict:
            continue
        due = own.get((who.pk, lesson.uuid), due_of[lesson.uuid])  # as the roster counts
        before = scores.score_of(who.pk, lesson, due, rules).score
        kept = _apply(attempt, str(result.verdict), result.case or "", lower=lower)
        after = scores.score_of(who.pk, lesson, due, rules).score
        changes.append(
            Change(
                who.get_username(),
                display_name(who),
                lesson.id,
                attempt.verdict,
                str(result.verdict),
                before,
                after,
                kept,
            )
        )
    return Report(len(attempts), changes, failed)
