"""The learner's hot statements, all of them: the few reads and writes every page and every Run
sends, each compiled once per shape and connection (``compiled``; this is the one module that
uses it). A statement is its builder function: the ORM's queryset with a ``slot`` wherever a
value changes between calls. ``shape`` is how the learner is selected: ``"user"`` (by account)
or ``"anon"`` (by anonymous key), as ``Learner.owner_slots`` gives it with its slots' values.

The store (``store``), the progress reader (``progress``) and the drafts (``drafts``) call
them; what each statement reads or writes is checked against the ORM's own on both databases by
tests/web/test_compiled.py."""

from __future__ import annotations

from django.db.models import Func, IntegerField, QuerySet

from codeblanks.web.learner import compiled
from codeblanks.web.models import Attempt, Draft, LessonProgress, QuestionAnswer


def owner_filter(shape: str, prefix: str = "") -> dict[str, object]:
    """``Learner.owner`` of either shape with slots for its values (``Learner.owner_slots``);
    ``prefix`` reaches the rows through a relation (``"progress__"``)."""
    if shape == "user":
        return {f"{prefix}user_id": compiled.slot("user")}
    return {f"{prefix}user__isnull": True, f"{prefix}anon_key": compiled.slot("anon")}


# ---- read: a learner's progress (``progress.progress_map``) ------------------------------------

PROGRESS_COLUMNS = (
    "id",
    "lesson_uuid",
    "code",
    "has_code",
    "solved_at",
    "revealed_at",
    "hints_revealed",
    "question_hints",
    "runs",
    "last_run_at",
)


@compiled.select
def progress_rows(shape: str) -> QuerySet:
    """Every progress row of the learner: ``PROGRESS_COLUMNS``."""
    return LessonProgress.objects.filter(**owner_filter(shape)).values_list(*PROGRESS_COLUMNS)


@compiled.select
def answer_rows(shape: str) -> QuerySet:
    """Every answer of the learner, with the progress row it belongs to."""
    return QuestionAnswer.objects.filter(**owner_filter(shape, "progress__")).values_list(
        "progress_id", "question_id", "answer", "correct", "tries"
    )


# ---- read: what the editor starts with (``drafts.shown``) ------------------------------------


@compiled.select
def run_code_row(shape: str) -> QuerySet:
    """The program the learner's last Run kept in ``lesson``: the text, whether there is one,
    and when it was saved (no row: the starter)."""
    rows = LessonProgress.objects.filter(lesson_uuid=compiled.slot("lesson"), **owner_filter(shape))
    return rows.values_list("code", "has_code", "code_saved_at")


@compiled.select
def draft_row() -> QuerySet:
    """The signed-in learner's draft of ``lesson``: its text and when it was saved."""
    rows = Draft.objects.filter(user_id=compiled.slot("user"), lesson_uuid=compiled.slot("lesson"))
    return rows.values_list("code", "saved_at")


# ---- write: saving code (``store.code_save``) -----------------------------------------------


class _Utf8Bytes(Func):
    """A text's size in UTF-8 bytes, counted by the database (both keep text as UTF-8): the
    room check on every Run reads one number, not every saved program."""

    output_field = IntegerField()
    template = "OCTET_LENGTH(%(expressions)s)"

    def as_sqlite(self, compiler, connection, **extra):
        return self.as_sql(compiler, connection, template="LENGTH(CAST(%(expressions)s AS BLOB))")


@compiled.select
def code_sizes(shape: str) -> QuerySet:
    """The size of each program the learner keeps in the other lessons than ``lesson``: one
    small number a lesson they touched (summed by the caller)."""
    others = LessonProgress.objects.filter(**owner_filter(shape))
    others = others.exclude(lesson_uuid=compiled.slot("lesson"))
    return others.annotate(size=_Utf8Bytes("code")).values_list("size")


@compiled.update
def code_update(shape: str) -> tuple[QuerySet, dict]:
    """The learner's program for ``lesson`` replaced by ``code`` (no row read first)."""
    rows = LessonProgress.objects.filter(lesson_uuid=compiled.slot("lesson"), **owner_filter(shape))
    at = compiled.slot("at")
    return rows, {"code": compiled.slot("code"), "has_code": compiled.slot("has"),
                  "code_saved_at": at, "updated_at": at}  # fmt: skip


# ---- write: a run counted (``store.attempt_record``) ----------------------------------------


@compiled.select
def run_row(shape: str) -> QuerySet:
    """The learner's row for ``lesson``, locked until the run is recorded: what the run
    changes on it."""
    rows = LessonProgress.objects.select_for_update().filter(
        lesson_uuid=compiled.slot("lesson"), **owner_filter(shape)
    )
    return rows.values_list("id", "runs", "solved_at", "last_mistake")


@compiled.update
def run_row_update() -> tuple[QuerySet, dict]:
    """The run counted on row ``id`` (a solve is saved through the model instead, for its
    signal)."""
    row = LessonProgress.objects.filter(id=compiled.slot("id"))
    names = {"runs": "runs", "last_run_at": "at", "last_mistake": "mistake", "updated_at": "now"}
    return row, {column: compiled.slot(name) for column, name in names.items()}


attempt_insert = compiled.insert(Attempt)
