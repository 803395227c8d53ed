"""What teachers and learners do with classes, written once for the pages and the API: make a
class, find one by its code or link, join, leave, and who may see what. A teacher sees only the
classes they made; a learner sees only the classes they joined (and never the roster)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from codeblanks.content.model import Lesson
from codeblanks.web import quotas, selectors
from codeblanks.web.teaching.models import TEACH, ClassLesson, Classroom, Membership

CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud in a classroom
CODE_LENGTH = 8
MAX_NAME = 100
MAX_LESSONS = 200
# Joining by code, counted per hour (every try: the answer must not tell a right code from a
# wrong one by being counted or not). A learner joins a few classes a year; a classroom's
# learners may share one address, so that limit is for a few classes joining at once.
JOINS_PER_ACCOUNT = 20
JOINS_PER_ADDRESS = 200
JOIN_WINDOW_S = 3600


class ClassError(ValueError):
    """What was wrong with a request about a class, in words for the person who made it."""


def is_teacher(user) -> bool:
    return bool(user.is_authenticated and user.is_active and user.has_perm(TEACH))


def grant_teacher(username: str) -> None:
    """Give the teacher role (``codeblanks manage grant_teacher USERNAME``; or the admin)."""
    user = get_user_model().objects.get_by_natural_key(username)
    app, codename = TEACH.split(".")
    user.user_permissions.add(
        Permission.objects.get(content_type__app_label=app, codename=codename)
    )


def normal_code(text: str) -> str:
    """A join code as typed ("abcd 2345", "ABCD-2345") in its stored form ("ABCD2345")."""
    return "".join(ch for ch in text.upper() if ch.isalnum())[: CODE_LENGTH + 4]


def shown_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


def _new_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


@dataclass(frozen=True)
class Plan:
    """A class as a teacher asks for it: a name and lessons (ids), each maybe with a due date."""

    name: str
    lessons: tuple[str, ...]
    due: dict[str, date]


def plan_check(plan: Plan) -> list[Lesson]:
    """The plan's lessons, or ``ClassError`` naming what is wrong."""
    if not plan.name.strip():
        raise ClassError(_("Give the class a name."))
    if len(plan.name) > MAX_NAME:
        raise ClassError(_("A class name has at most %(n)s characters.") % {"n": MAX_NAME})
    if not plan.lessons:
        raise ClassError(_("Choose at least one lesson for the class."))
    if len(plan.lessons) > MAX_LESSONS:
        raise ClassError(_("A class covers at most %(n)s lessons.") % {"n": MAX_LESSONS})
    lessons = []
    for lesson_id in dict.fromkeys(plan.lessons):
        lesson = selectors.lesson_get(lesson_id)
        if lesson is None:
            raise ClassError(_("There is no lesson %(lesson)s.") % {"lesson": repr(lesson_id)})
        lessons.append(lesson)
    for lesson_id in plan.due:
        if lesson_id not in plan.lessons:
            message = _("A due date was given for %(lesson)s, which the class does not cover.")
            raise ClassError(message % {"lesson": repr(lesson_id)})
    return lessons


def class_create(teacher, plan: Plan) -> Classroom:
    """A new class with a fresh join code and link (retried in the rare case a code is taken)."""
    if not is_teacher(teacher):
        raise ClassError(_("Only a teacher can make a class."))
    lessons = plan_check(plan)
    for _attempt in range(10):
        try:
            with transaction.atomic():
                room = Classroom.objects.create(
                    teacher=teacher,
                    name=plan.name.strip(),
                    join_code=_new_code(),
                    join_token=secrets.token_urlsafe(18)[:24],
                )
                ClassLesson.objects.bulk_create(
                    ClassLesson(
                        classroom=room,
                        lesson_uuid=lesson.uuid,
                        position=i,
                        due_on=plan.due.get(lesson.id),
                    )
                    for i, lesson in enumerate(lessons)
                )
                return room
        except IntegrityError:
            continue
    raise ClassError(_("No free join code was found; please try again."))


def class_by_code(code: str) -> Classroom | None:
    code = normal_code(code)
    return Classroom.objects.filter(join_code=code).first() if len(code) == CODE_LENGTH else None


def join_refusal(user, address: str) -> quotas.Refusal | None:
    """Counts one more try to join by code for the account and for the address; the 429 once
    either has tried too often this hour. Codes are long enough that guessing is hopeless,
    but nothing else would slow a guesser, and a leaked code cannot be changed (review S13)."""
    by_account = quotas.window_count(f"joins:user:{user.pk}", JOIN_WINDOW_S)
    by_address = quotas.window_count(f"joins:from:{address}", JOIN_WINDOW_S)
    if (by_account or 0) <= JOINS_PER_ACCOUNT and (by_address or 0) <= JOINS_PER_ADDRESS:
        return None
    wait = quotas.window_left(JOIN_WINDOW_S)
    minutes = max(1, round(wait.total_seconds() / 60))
    in_words = ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
    message = _(
        "Too many tries to join a class by code this hour, from your account or your address. "
        "Try again in %(wait)s, or ask your teacher for the class's join link."
    ) % {"wait": in_words}
    return quotas.Refusal(429, "too-many-joins", message, int(wait.total_seconds()))


def class_by_token(token: str) -> Classroom | None:
    return Classroom.objects.filter(join_token=token).first() if token else None


def class_join(user, room: Classroom) -> bool:
    """Put a signed-in learner in a class; False if they were in it already. Their progress
    is theirs already (anonymous progress moved to the account when they signed in)."""
    if room.teacher_id == user.pk:
        raise ClassError(_("You teach this class; learners join it."))
    member, made = Membership.objects.get_or_create(classroom=room, user=user)
    if not made and member.left_at is not None:  # removed by the teacher, back by the code
        member.left_at = None
        member.save(update_fields=["left_at"])
        return True
    return made


def class_leave(user, room_id: int) -> bool:
    done, _rows = Membership.objects.filter(classroom_id=room_id, user=user).delete()
    return done > 0


def classes_taught(user) -> list[Classroom]:
    if not user.is_authenticated:
        return []
    return list(Classroom.objects.filter(teacher=user).prefetch_related("lessons", "members"))


def classes_joined(user) -> list[Classroom]:
    if not user.is_authenticated:
        return []
    rooms = Classroom.objects.filter(members__user=user, members__left_at__isnull=True)
    return list(rooms.select_related("teacher"))


def class_for_teacher(user, room_id: int) -> Classroom | None:
    """The class if ``user`` teaches it; None otherwise (the caller answers 404, so a class's
    existence is not told to anyone else)."""
    if not user.is_authenticated:
        return None
    return Classroom.objects.filter(pk=room_id, teacher=user).first()


def class_lessons(room: Classroom) -> list[tuple[Lesson, ClassLesson]]:
    """The class's lessons in order, in the request's language; a lesson no longer in the
    catalogue (removed from the course) is left out."""
    by_uuid = {lesson.uuid: lesson for lesson in selectors.lesson_list()}
    return [(by_uuid[cl.lesson_uuid], cl) for cl in room.lessons.all() if cl.lesson_uuid in by_uuid]


def class_rotate_code(room: Classroom) -> Classroom:
    """A new join code and link for the class: the old ones join no one from now on (a code
    that leaked). Those already in the class stay."""
    for _attempt in range(10):
        try:
            with transaction.atomic():
                room.join_code = _new_code()
                room.join_token = secrets.token_urlsafe(18)[:24]
                room.save(update_fields=["join_code", "join_token"])
                return room
        except IntegrityError:
            continue
    raise ClassError(_("No free join code was found; please try again."))


@transaction.atomic
def class_set_lessons(
    room: Classroom, lesson_ids: tuple[str, ...], due: dict[str, date], *, keep_due: bool = True
) -> None:
    """The class covers these lessons, in this order, from now on: a lesson kept keeps its due
    date unless ``due`` gives one (``keep_due``; the edit form shows every date, so there an
    empty box means none); a lesson removed leaves each learner's progress as it was."""
    lessons = plan_check(Plan(name=room.name, lessons=lesson_ids, due=due))
    kept = {cl.lesson_uuid: cl.due_on for cl in room.lessons.all()} if keep_due else {}
    room.lessons.all().delete()
    ClassLesson.objects.bulk_create(
        ClassLesson(
            classroom=room,
            lesson_uuid=lesson.uuid,
            position=i,
            due_on=due.get(lesson.id, kept.get(lesson.uuid)),
        )
        for i, lesson in enumerate(lessons)
    )


def class_remove(room: Classroom, username: str) -> bool:
    """The teacher removes a learner: kept in the roster as "left", their work still shown to
    the teacher; the class is gone from the learner's list. False if no such learner is in it."""
    done = room.members.filter(user__username=username, left_at__isnull=True).update(
        left_at=timezone.now()
    )
    return done > 0


@transaction.atomic
def class_edit(room: Classroom, plan: Plan) -> None:
    """The edit form: a new name, lessons and due dates, all at once."""
    plan_check(plan)
    room.name = plan.name.strip()
    room.save(update_fields=["name"])
    class_set_lessons(room, plan.lessons, plan.due, keep_due=False)
