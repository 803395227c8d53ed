"""The home page's course maps: each course's levels as one path, every lesson's state for this
learner in three words (not started, tried, solved), the lesson to take next, and the capstone
(the path's last lesson) named ahead. Built from what the home page already reads
(``selectors.course_overview`` and ``resume_point``): no queries of its own."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from codeblanks.content.model import Course, Lesson
from codeblanks.web.learner.progress import NOT_STARTED
from codeblanks.web.pages.selectors import LessonRow, LevelBlock, Resume

NEW, TRIED, SOLVED = "new", "tried", "solved"
WORDS = {NEW: _("Not started"), TRIED: _("Tried"), SOLVED: _("Solved")}
MARKS = {NEW: "○", TRIED: "◐", SOLVED: "✓"}  # a shape for each state, beside its word


@dataclass(frozen=True)
class Stop:
    """One lesson on the path."""

    lesson: Lesson
    number: int  # its place on the course's path, from 1
    state: str  # NEW | TRIED | SOLVED
    next: bool = False  # the lesson to take next
    capstone: bool = False
    questions_right: int = 0  # of the lesson's questions

    @property
    def questions(self) -> int:
        return len(self.lesson.questions)

    @property
    def word(self) -> str:
        return str(WORDS[self.state])

    @property
    def mark(self) -> str:
        return MARKS[self.state]


@dataclass(frozen=True)
class Leg:
    """A level of the path."""

    block: LevelBlock
    stops: list[Stop]

    @property
    def solved(self) -> int:
        return sum(1 for s in self.stops if s.state == SOLVED)


@dataclass(frozen=True)
class CourseMap:
    course: Course
    legs: list[Leg]
    next: Stop | None  # None: every exercise solved
    capstone: Stop | None
    started: bool  # any lesson tried or solved

    @property
    def solved(self) -> int:
        return sum(leg.solved for leg in self.legs)

    @property
    def total(self) -> int:
        return sum(len(leg.stops) for leg in self.legs)


def state_of(row: LessonRow) -> str:
    if row.progress.solved:
        return SOLVED
    return NEW if row.state == NOT_STARTED else TRIED


def course_map(course: Course, blocks: list[LevelBlock], resume: Resume | None) -> CourseMap:
    """The map of one course: the next lesson is where the learner left off when that is in this
    course, else the first on the path whose exercise is not solved."""
    rows = [row for block in blocks for row in block.rows]
    states = [state_of(row) for row in rows]
    ids = [row.lesson.id for row in rows]
    following = None
    if resume is not None and resume.lesson.id in ids:
        following = ids.index(resume.lesson.id)
    else:
        following = next((i for i, s in enumerate(states) if s != SOLVED), None)
    legs, number = [], 0
    for block in blocks:
        stops = []
        for row in block.rows:
            stops.append(
                Stop(
                    row.lesson,
                    number + 1,
                    states[number],
                    next=number == following,
                    capstone=number == len(rows) - 1 and len(rows) > 1,
                    questions_right=row.questions_right,
                )
            )
            number += 1
        legs.append(Leg(block, stops))
    every = [stop for leg in legs for stop in leg.stops]
    return CourseMap(
        course=course,
        legs=legs,
        next=every[following] if following is not None else None,
        capstone=every[-1] if len(every) > 1 else None,
        started=any(s != NEW for s in states),
    )


def course_maps(
    overview: list[tuple[Course, list[LevelBlock]]], resume: Resume | None
) -> list[CourseMap]:
    """Every course's map, the one the learner is working in first."""
    maps = [course_map(course, blocks, resume) for course, blocks in overview]
    here = resume.lesson.course_id if resume else None
    return sorted(maps, key=lambda m: m.course.id != here)  # stable: else the catalogue's order
