"""What teachers and learners do with classes, written once for the pages and the API: make a
class, find one by its code or link, join, leave, and who may see what. A teacher sees only the
classes they made; a learner sees only the classes they joined (and never the roster)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from codeblanks.content.model import Lesson
from codeblanks.web.learner import quotas
from codeblanks.web.pages import selectors
from codeblanks.web.teaching import deadlines
from codeblanks.web.teaching.models import TEACH, ClassLesson, Classroom, Extension, Membership

CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud in a classroom
CODE_LENGTH = 8
MAX_NAME = 100
MAX_LESSONS = 200
MAX_POINTS = 100  # what the exercise, or one question, may be worth in a class
# Joining by code, counted per hour (every try: the answer must not tell a right code from a
# wrong one by being counted or not). A learner joins a few classes a year; a classroom's
# learners may share one address, so that limit is for a few classes joining at once.
JOINS_PER_ACCOUNT = 20
JOINS_PER_ADDRESS = 200
JOIN_WINDOW_S = 3600


class ClassError(ValueError):
    """What was wrong with a request about a class, in words for the person who made it."""


def _name(text: str) -> str:
    """A name to look up, or "" for one no row can have: PostgreSQL refuses a NUL in a query
    (a 500), so it is never sent one."""
    return "" if "\x00" in text else text


def display_name(user) -> str:
    """How a teacher sees a learner: their name (as their LMS named them, for an LTI account,
    whose username is a random ``lti-...``), else their username."""
    return user.get_full_name().strip() or user.get_username()


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
    """A class as a teacher asks for it: a name and lessons (ids), each maybe with a due time
    (aware: ``due_times`` reads them in the class's zone), that zone ("" the site's), and what
    scores (the exercise's points, each question's, answers after review counting or not)."""

    name: str
    lessons: tuple[str, ...]
    due: dict[str, datetime]
    time_zone: str = ""
    exercise_points: int = 1
    question_points: int = 1
    count_after_review: bool = False


def due_times(texts: dict[str, str], zone_name: str) -> dict[str, datetime]:
    """Lesson id -> due time, from what was typed (empty boxes left out) in the zone."""
    try:
        zone = deadlines.zone_of(zone_name)
        return {k: deadlines.parse_due(v, zone) for k, v in texts.items() if v.strip()}
    except deadlines.DueError as exc:
        raise ClassError(str(exc)) from None


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
    try:
        deadlines.zone_of(plan.time_zone)
    except deadlines.DueError as exc:
        raise ClassError(str(exc)) from None
    for lesson_id in plan.due:
        if lesson_id not in plan.lessons:
            message = _("A due date was given for %(lesson)s, which the class does not cover.")
            raise ClassError(message % {"lesson": repr(lesson_id)})
    points_check(plan.exercise_points, plan.question_points)
    return lessons


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_POINTS


def points_check(exercise: object, question: object) -> None:
    """``ClassError`` unless both are whole numbers of points, 0 to ``MAX_POINTS``, not both 0."""
    if not _whole(exercise):
        message = _("The exercise is worth a whole number of points, from 0 to %(n)s.")
        raise ClassError(message % {"n": MAX_POINTS})
    if not _whole(question):
        message = _("Each question is worth a whole number of points, from 0 to %(n)s.")
        raise ClassError(message % {"n": MAX_POINTS})
    if exercise == question == 0:
        raise ClassError(
            _(
                "The exercise and the questions cannot both be worth 0 points: "
                "no lesson would count."
            )
        )


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
                    time_zone=plan.time_zone,
                    exercise_points=plan.exercise_points,
                    question_points=plan.question_points,
                    count_after_review=plan.count_after_review,
                )
                ClassLesson.objects.bulk_create(
                    ClassLesson(
                        classroom=room,
                        lesson_uuid=lesson.uuid,
                        position=i,
                        due_at=plan.due.get(lesson.id),
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
    if room.is_taught_by(user):
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


def _taught_by(user):
    """The classes ``user`` owns or co-teaches, each once."""
    return Classroom.objects.filter(Q(teacher=user) | Q(co_teachers=user)).distinct()


def classes_taught(user) -> list[Classroom]:
    if not user.is_authenticated:
        return []
    return list(_taught_by(user).prefetch_related("lessons", "members"))


def classes_joined(user) -> list[Classroom]:
    if not user.is_authenticated:
        return []
    rooms = Classroom.objects.filter(members__user=user, members__left_at__isnull=True)
    return list(rooms.select_related("teacher"))


def class_for_teacher(user, room_id: int) -> Classroom | None:
    """The class if ``user`` teaches it (owns or co-teaches it); None otherwise (the caller
    answers 404, so a class's existence is not told to anyone else)."""
    if not user.is_authenticated:
        return None
    return _taught_by(user).filter(pk=room_id).first()


def class_add_teacher(room: Classroom, username: str) -> None:
    """Make ``username`` a co-teacher of the class: they see and manage it as its owner does
    (deleting it aside). One who was its learner is its learner no more (their row goes: a
    teacher is not graded in the class). ``ClassError`` when there is no such account."""
    found = _name(username)
    user = get_user_model().objects.filter(username=found).first() if found else None
    if user is None or not user.is_active:
        raise ClassError(_("There is no account %(name)s.") % {"name": repr(username)})
    if user.pk == room.teacher_id:
        raise ClassError(_("%(name)s owns this class already.") % {"name": username})
    make_co_teacher(room, user)


@transaction.atomic
def make_co_teacher(room: Classroom, user) -> None:
    """``user`` co-teaches the class from now on (nothing changes for its owner)."""
    if user.pk == room.teacher_id:
        return
    room.co_teachers.add(user)
    room.members.filter(user=user).delete()


def class_remove_teacher(room: Classroom, username: str) -> None:
    """The owner takes ``username`` off the class's co-teachers: from now on they see it no
    more (their own progress, and the class's, stay as they were). ``ClassError`` when they
    are not its co-teacher, or are its owner (a class always has one)."""
    if username and username == room.teacher.get_username():
        raise ClassError(_("%(name)s owns this class; its owner stays.") % {"name": username})
    found = room.co_teachers.filter(username=_name(username)).first()
    if found is None:
        message = _("%(name)s is not a co-teacher of this class.")
        raise ClassError(message % {"name": repr(username)})
    room.co_teachers.remove(found)


def class_teachers(room: Classroom) -> list[str]:
    """The usernames of who teaches the class: its owner first, then its co-teachers."""
    others = room.co_teachers.order_by("username").values_list("username", flat=True)
    return [room.teacher.get_username(), *others]


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
    room: Classroom,
    lesson_ids: tuple[str, ...],
    due: dict[str, datetime],
    *,
    keep_due: bool = True,
) -> None:
    """The class covers these lessons, in this order, from now on: a lesson kept keeps its due
    time (and its learners' extensions) unless ``due`` gives one (``keep_due``; the edit form
    shows every time, so there an empty box means none); a lesson removed leaves each
    learner's progress as it was."""
    lessons = plan_check(Plan(name=room.name, lessons=lesson_ids, due=due))
    current = {cl.lesson_uuid: cl for cl in room.lessons.all()}
    wanted = {lesson.uuid for lesson in lessons}
    room.lessons.exclude(lesson_uuid__in=wanted).delete()
    for i, lesson in enumerate(lessons):
        cl = current.get(lesson.uuid) or ClassLesson(classroom=room, lesson_uuid=lesson.uuid)
        cl.position = i
        cl.due_at = due.get(lesson.id, cl.due_at if keep_due else None)
        cl.save()


def class_set_policy(room: Classroom, kind: str, penalty: int | None = None) -> None:
    """The class's late policy: "accept", "penalty" (``penalty`` percent per day, 1 to 100)
    or "close"; ``ClassError`` otherwise."""
    if kind not in deadlines.POLICIES:
        raise ClassError(_("The late policy is one of: accept, penalty, close."))
    if penalty is None:
        penalty = room.late_penalty
    if kind == "penalty" and not (isinstance(penalty, int) and 1 <= penalty <= 100):
        raise ClassError(_("A late penalty is a whole percent per day, from 1 to 100."))
    room.late_policy, room.late_penalty = kind, penalty if kind == "penalty" else 0
    room.save(update_fields=["late_policy", "late_penalty"])


def class_set_scoring(room: Classroom, exercise: int, question: int, after_review: bool) -> bool:
    """The class's points (the exercise's, each question's) and whether answers after review
    count; ``ClassError`` for points it cannot take. True when that changed anything: the
    scores shown change at once, and those of its LMS learners are sent again (signals.py)."""
    points_check(exercise, question)
    if not isinstance(after_review, bool):
        raise ClassError(_('"count_after_review" must be true or false.'))
    now = (room.exercise_points, room.question_points, room.count_after_review)
    if now == (exercise, question, after_review):
        return False
    room.exercise_points, room.question_points = exercise, question
    room.count_after_review = after_review
    room.save(update_fields=["exercise_points", "question_points", "count_after_review"])
    return True


def class_extend(room: Classroom, username: str, lesson_id: str, due: datetime) -> Extension:
    """A learner's own due time for a lesson of the class (made or replaced)."""
    member = room.members.filter(user__username=_name(username)).select_related("user").first()
    if member is None:
        raise ClassError(_("The class has no learner %(name)s.") % {"name": repr(username)})
    by_id = {lesson.id: cl for lesson, cl in class_lessons(room)}
    if lesson_id not in by_id:
        message = _("The class does not cover the lesson %(lesson)s.")
        raise ClassError(message % {"lesson": repr(lesson_id)})
    found, _made = Extension.objects.update_or_create(
        class_lesson=by_id[lesson_id], user=member.user, defaults={"due_at": due}
    )
    return found


def class_unextend(room: Classroom, username: str, lesson_id: str) -> bool:
    """Take a learner's extension away: the lesson's own due time is theirs again. False
    when they have none in that lesson (or there is no such learner or lesson)."""
    by_id = {lesson.id: cl for lesson, cl in class_lessons(room)}
    if lesson_id not in by_id:
        return False
    found = Extension.objects.filter(class_lesson=by_id[lesson_id], user__username=_name(username))
    done, _rows = found.delete()
    return done > 0


def class_remove(room: Classroom, username: str) -> bool:
    """The teacher removes a learner: kept in the roster as "left", their work still shown to
    the teacher; the class is gone from the learner's list. False if no such learner is in it."""
    done = room.members.filter(user__username=_name(username), left_at__isnull=True).update(
        left_at=timezone.now()
    )
    return done > 0


@transaction.atomic
def class_edit(room: Classroom, plan: Plan) -> bool:
    """The edit form: a new name, time zone, lessons, due times and points, all at once. True
    when the points (or whether answers after review count) changed."""
    plan_check(plan)
    room.name = plan.name.strip()
    room.time_zone = plan.time_zone
    room.save(update_fields=["name", "time_zone"])
    class_set_lessons(room, plan.lessons, plan.due, keep_due=False)
    return class_set_scoring(
        room, plan.exercise_points, plan.question_points, plan.count_after_review
    )
