"""Reads: lessons from the content catalog (in the request's language), and what the pages show
of a learner's progress (read from the database in ``learner/progress.py``).

Views call these and render what they return; nothing here writes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from codeblanks.content.model import Course, Lesson, level_slug
from codeblanks.web.learner.learners import Learner
from codeblanks.web.learner.progress import (
    ANSWERED,
    COMPLETE,
    EMPTY,
    NOT_STARTED,
    SOLVED,
    STARTED,
    Progress,
    progress_get,
    progress_map,
)
from codeblanks.web.models import LessonProgress
from codeblanks.web.pages.question_display import QuestionView, question_view

STATE_LABELS = {  # lazy: each in the language of the page that shows it
    NOT_STARTED: _("Not started"),
    STARTED: _("In progress"),
    SOLVED: _("Exercise solved"),
    ANSWERED: _("Questions answered"),
    COMPLETE: _("Exercise solved, questions answered"),
}


def current_catalog():
    """The process-wide catalog of courses (``codeblanks.content.catalog()``), in the request's
    language: its lessons are the translations a learner of that language takes."""
    from codeblanks.content import catalog

    return catalog().in_language(get_language())


# ---- lessons ---------------------------------------------------------------------------------


def course_list() -> list[Course]:
    return list(current_catalog().courses)


def course_get(course_id: str) -> Course | None:
    return next((c for c in course_list() if c.id == course_id), None)


def lesson_get(lesson_id: str) -> Lesson | None:
    return current_catalog().lesson(lesson_id)


def lesson_list() -> list[Lesson]:
    return list(current_catalog().lessons())


def course_levels(course: Course) -> list[tuple[str, tuple[Lesson, ...]]]:
    """The course's levels in order, each with its lessons; levels without lessons left out."""
    return list(course.filled_levels)


def level_get(course: Course, slug: str) -> str | None:
    return next((lv for lv in course.levels if level_slug(lv) == slug), None)


def lesson_neighbours(lesson: Lesson) -> tuple[Lesson | None, Lesson | None]:
    """The lessons before and after this one on its course's path (course.toml's ``order``)."""
    course = course_get(lesson.course_id)
    ordered = list(course.lessons) if course else []
    ids = [x.id for x in ordered]
    if lesson.id not in ids:
        return None, None
    i = ids.index(lesson.id)
    return (ordered[i - 1] if i > 0 else None), (ordered[i + 1] if i + 1 < len(ordered) else None)


@dataclass(frozen=True)
class LessonRow:
    lesson: Lesson
    progress: Progress
    state: str

    @property
    def state_label(self) -> str:
        return str(STATE_LABELS[self.state])

    @property
    def questions_right(self) -> int:
        return self.progress.questions_right(self.lesson)


@dataclass(frozen=True)
class LevelBlock:
    course: Course
    level: str
    slug: str
    rows: list[LessonRow]

    @property
    def name(self) -> str:
        """The level as the course's language calls it (``level`` is its key)."""
        return self.course.level_name(self.level)

    @property
    def done(self) -> int:
        return sum(1 for r in self.rows if r.state == COMPLETE)

    @property
    def solved(self) -> int:
        """Lessons whose exercise is solved (``done`` also needs every question right)."""
        return sum(1 for r in self.rows if r.progress.solved)


def lesson_rows(lessons: Iterable[Lesson], progress: dict[str, Progress]) -> list[LessonRow]:
    rows = []
    for lesson in lessons:
        p = progress.get(lesson.uuid, EMPTY)
        rows.append(LessonRow(lesson, p, p.state(lesson)))
    return rows


def course_overview(learner: Learner | None) -> list[tuple[Course, list[LevelBlock]]]:
    """Every course with its levels in order, each lesson with this learner's progress."""
    progress = progress_map(learner)
    return [
        (
            course,
            [
                LevelBlock(course, level, level_slug(level), lesson_rows(lessons, progress))
                for level, lessons in course_levels(course)
            ],
        )
        for course in course_list()
    ]


def level_overview(learner: Learner | None, course: Course, level: str) -> LevelBlock:
    lessons = course.lessons_at(level)
    progress = progress_map(learner, [x.uuid for x in lessons])
    return LevelBlock(course, level, level_slug(level), lesson_rows(lessons, progress))


@dataclass(frozen=True)
class ProgressSummary:
    courses: list[tuple[Course, list[LevelBlock]]]
    lessons: int
    solved: int
    complete: int
    questions: int
    questions_right: int
    runs: int


def progress_summary(learner: Learner | None) -> ProgressSummary:
    courses = course_overview(learner)
    rows = [r for _, blocks in courses for b in blocks for r in b.rows]
    return ProgressSummary(
        courses=courses,
        lessons=len(rows),
        solved=sum(1 for r in rows if r.progress.solved),
        complete=sum(1 for r in rows if r.state == COMPLETE),
        questions=sum(len(r.lesson.questions) for r in rows),
        questions_right=sum(r.progress.questions_right(r.lesson) for r in rows),
        runs=sum(r.progress.runs for r in rows),
    )


@dataclass(frozen=True)
class LevelCount:
    level: str
    slug: str
    done: int
    total: int
    name: str = ""  # as the course's language calls it


@dataclass(frozen=True)
class CourseProgress:
    """How far the learner is in one course: lessons complete, in all and per level."""

    course: Course
    levels: list[LevelCount]

    @property
    def done(self) -> int:
        return sum(x.done for x in self.levels)

    @property
    def total(self) -> int:
        return sum(x.total for x in self.levels)

    @property
    def percent(self) -> int:
        return round(100 * self.done / self.total) if self.total else 0


def course_progress(
    learner: Learner | None, course: Course, progress: dict[str, Progress] | None = None
) -> CourseProgress:
    """How far the learner is in each level; ``progress``: their progress in the course's
    lessons, if the caller has read it already."""
    levels = course_levels(course)
    if progress is None:
        progress = progress_map(learner, [x.uuid for _, lessons in levels for x in lessons])
    counts = []
    for level, lessons in levels:
        done = sum(1 for r in lesson_rows(lessons, progress) if r.state == COMPLETE)
        counts.append(
            LevelCount(level, level_slug(level), done, len(lessons), course.level_name(level))
        )
    return CourseProgress(course, counts)


@dataclass(frozen=True)
class LessonFlow:
    """What the learner needs right after a run: what is left in this lesson, where to go next
    and how far the course is. Rendered on the lesson page and again after every run."""

    lesson: Lesson
    progress: Progress
    next: Lesson | None
    course: CourseProgress | None

    @property
    def questions_left(self) -> int:
        return len(self.lesson.questions) - self.progress.questions_right(self.lesson)

    @property
    def complete(self) -> bool:
        return self.progress.state(self.lesson) == COMPLETE


def lesson_flow(learner: Learner | None, lesson: Lesson) -> LessonFlow:
    """One read of the learner's progress in the whole course serves both the lesson and the
    course's levels (rendered on every page and after every run)."""
    course = course_get(lesson.course_id)
    if course is None:
        return LessonFlow(lesson, progress_get(learner, lesson), lesson_neighbours(lesson)[1], None)
    uuids = {x.uuid for _, lessons in course_levels(course) for x in lessons} | {lesson.uuid}
    progress = progress_map(learner, uuids)
    return LessonFlow(
        lesson=lesson,
        progress=progress.get(lesson.uuid, EMPTY),
        next=lesson_neighbours(lesson)[1],
        course=course_progress(learner, course, progress),
    )


@dataclass(frozen=True)
class HintsView:
    """What the hints block shows: the revealed hints, numbered, and the next one to ask for."""

    hints: tuple[str, ...]
    shown: int
    action: str  # the URL that reveals the next hint
    dom_id: str

    @property
    def revealed(self) -> list[tuple[int, str]]:
        return list(enumerate(self.hints[: self.shown], start=1))

    @property
    def next(self) -> int | None:
        return self.shown + 1 if self.shown < len(self.hints) else None

    @property
    def total(self) -> int:
        return len(self.hints)


def exercise_hints(lesson: Lesson, progress: Progress) -> HintsView:
    return HintsView(
        lesson.exercise.hints,
        min(progress.hints, len(lesson.exercise.hints)),
        reverse("lesson-hint", args=[lesson.id]),
        "hints",
    )


def question_hints(lesson: Lesson, question, progress: Progress) -> HintsView:
    shown = int(progress.question_hints.get(question.id, 0))
    return HintsView(
        question.hints,
        min(shown, len(question.hints)),
        reverse("question-hint", args=[lesson.id, question.id]),
        f"hints-{question.id}",
    )


@dataclass(frozen=True)
class LessonPage:
    lesson: Lesson
    course: Course | None
    progress: Progress
    code: str  # what the editor holds: the learner's last code, or the starter
    previous: Lesson | None
    next: Lesson | None
    questions: list[QuestionView]
    flow: LessonFlow
    hints: HintsView | None = None  # the exercise's hints (None: it has none)
    question_hints: list[HintsView | None] = field(default_factory=list)  # one per question
    # the ideas this lesson uses, in words, each with the earlier lesson that teaches it
    builds_on: tuple[tuple[str, Lesson], ...] = ()

    @property
    def level_slug(self) -> str:
        return level_slug(self.lesson.level)

    @property
    def question_rows(self) -> list[tuple[QuestionView, HintsView | None]]:
        """Each question with its hints block (None: it has no hints)."""
        hints = self.question_hints or [None] * len(self.questions)
        return list(zip(self.questions, hints, strict=True))


def lesson_page(learner: Learner | None, lesson: Lesson) -> LessonPage:
    flow = lesson_flow(learner, lesson)
    progress = flow.progress
    previous, following = lesson_neighbours(lesson)
    course = course_get(lesson.course_id)
    return LessonPage(
        lesson=lesson,
        course=flow.course.course if flow.course else None,
        progress=progress,
        code=progress.code if progress.code is not None else lesson.exercise.starter,
        previous=previous,
        next=following,
        questions=[
            question_view(q, n, progress.answers.get(q.id), seed=learner.seed if learner else "")
            for n, q in enumerate(lesson.questions, 1)
        ],
        flow=flow,
        hints=exercise_hints(lesson, progress) if lesson.exercise.hints else None,
        question_hints=[
            question_hints(lesson, q, progress) if q.hints else None for q in lesson.questions
        ],
        builds_on=course.builds_on(lesson) if course else (),
    )


@dataclass(frozen=True)
class Resume:
    """Where "continue where you left off" leads: the lesson and why."""

    lesson: Lesson
    finished: Lesson | None = None  # set when the last one worked on is complete: this follows it


def resume_point(learner: Learner | None) -> Resume | None:
    """The lesson this learner last worked on, or the next one when that one is complete;
    None for a learner who has not started (or has finished the course they were in)."""
    if learner is None:
        return None
    latest = (
        LessonProgress.objects.filter(**learner.owner)
        .order_by("-updated_at")
        .values_list("lesson_uuid", flat=True)
        .first()
    )
    lesson = next((x for x in lesson_list() if x.uuid == latest), None) if latest else None
    if lesson is None:
        return None
    if progress_get(learner, lesson).state(lesson) != COMPLETE:
        return Resume(lesson)
    following = lesson_neighbours(lesson)[1]
    while following is not None:
        if progress_get(learner, following).state(following) != COMPLETE:
            return Resume(following, finished=lesson)
        following = lesson_neighbours(following)[1]
    return None
