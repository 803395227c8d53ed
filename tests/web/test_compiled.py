"""The learner's hot statements (``codeblanks.web.learner.statements``), compiled once
(``compiled``): they read and write what the ORM would, on SQLite and on PostgreSQL, a second
call compiles nothing, each is kept under its own builder, and a filter's slot takes only a
plain str or int."""

import enum
from datetime import datetime

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.models.sql.compiler import SQLCompiler
from django.utils import timezone

from codeblanks.grading import Grade
from codeblanks.web.learner import compiled, drafts, statements, store
from codeblanks.web.learner.learners import Learner
from codeblanks.web.learner.progress import Answer, Progress, progress_map
from codeblanks.web.models import Attempt, Draft, LessonProgress, QuestionAnswer

from .conftest import FIRST, LAST

pytestmark = pytest.mark.django_db


def _orm_progress(learner: Learner) -> dict:
    """What the learner's rows say, read through model instances (the reference)."""
    out = {}
    for row in LessonProgress.objects.filter(**learner.owner):
        answers = {
            a.question_id: Answer(a.answer, a.correct, a.tries)
            for a in QuestionAnswer.objects.filter(progress=row)
        }
        out[row.lesson_uuid] = Progress(
            code=row.code if row.has_code else None,
            solved=row.solved_at is not None,
            revealed=row.revealed_at is not None,
            hints=row.hints_revealed,
            question_hints=dict(row.question_hints),
            answers=answers,
            runs=row.runs,
            last_run=row.last_run_at,
        )
    return out


@pytest.mark.parametrize("kind", ["anonymous", "account"])
def test_the_compiled_reads_and_writes_agree_with_the_orm(kind):
    if kind == "account":
        learner = Learner(user_id=User.objects.create_user("ada").id)
    else:
        learner = Learner(anon_key="c" * 32)
    other = Learner(anon_key="d" * 32)
    assert progress_map(learner) == {}
    store.code_save(learner=learner, lesson=FIRST, code="x = 'é'\n")
    store.code_save(learner=other, lesson=FIRST, code="theirs")
    store.code_save(learner=learner, lesson=FIRST, code="x = 2\n")  # the UPDATE, compiled
    row = LessonProgress.objects.get(lesson_uuid=FIRST.uuid, **learner.owner)
    row.question_hints = {"q": 2}
    row.save()
    QuestionAnswer.objects.create(
        progress=row, question_id="q", answer=[1, 0], correct=True, tries=2,
        answered_at=timezone.now(),
    )  # fmt: skip
    wrong = Grade("incorrect", "", "", "", mistake="softmax-axis-0")
    assert store.attempt_record(learner=learner, lesson=FIRST, grade=wrong, code="a") is None
    right = Grade("correct", "", "", "")
    assert (
        store.attempt_record(learner=learner, lesson=FIRST, grade=right, code="b")
        == "softmax-axis-0"
    )
    store.attempt_record(learner=learner, lesson=LAST, grade=wrong, code="c")  # no row yet

    got = progress_map(learner)
    assert got == _orm_progress(learner)
    first = got[FIRST.uuid]
    assert (first.code, first.runs, first.solved, first.answers["q"].value) == (
        "x = 2\n", 2, True, [1, 0],
    )  # fmt: skip
    assert first.last_run is not None and first.last_run.tzinfo is not None
    assert got[LAST.uuid].runs == 1 and not got[LAST.uuid].solved
    assert progress_map(other)[FIRST.uuid].code == "theirs"
    row = LessonProgress.objects.get(lesson_uuid=FIRST.uuid, **learner.owner)
    assert row.last_mistake == "" and row.solved_at == row.last_run_at
    assert row.updated_at >= row.last_run_at
    kept = Attempt.objects.filter(**learner.owner).order_by("id")
    assert [(a.lesson_uuid, a.verdict, a.mistake, a.code_bytes) for a in kept] == [
        (FIRST.uuid, "incorrect", "softmax-axis-0", 1),
        (FIRST.uuid, "correct", "", 1),
        (LAST.uuid, "incorrect", "softmax-axis-0", 1),
    ]
    assert kept[1].created_at == row.solved_at and kept[2].created_at.tzinfo is not None


@pytest.mark.parametrize("kind", ["anonymous", "account"])
def test_what_the_editor_starts_with_agrees_with_the_orm(kind):
    """``drafts.shown`` reads the run's code and the draft through compiled statements: the
    learner's own rows, with the times the models hold."""
    if kind == "account":
        learner = Learner(user_id=User.objects.create_user("ada").id)
    else:
        learner = Learner(anon_key="c" * 32)
    other = Learner(user_id=User.objects.create_user("bea").id)
    assert drafts.shown(learner, FIRST) == drafts.Shown(FIRST.exercise.starter, False, None)
    store.code_save(learner=other, lesson=FIRST, code="theirs")
    store.code_save(learner=learner, lesson=FIRST, code="ran = 'é'\n")
    row = LessonProgress.objects.get(lesson_uuid=FIRST.uuid, **learner.owner)
    assert drafts.shown(learner, FIRST) == drafts.Shown("ran = 'é'\n", False, row.code_saved_at)
    assert drafts.shown(learner, LAST).code == LAST.exercise.starter
    if kind == "anonymous":
        return  # drafts are kept for accounts only
    assert isinstance(drafts.draft_save(learner=other, lesson=FIRST, code="their"), datetime)
    assert isinstance(drafts.draft_save(learner=learner, lesson=FIRST, code="typed"), datetime)
    kept = Draft.objects.get(user_id=learner.user_id, lesson_uuid=FIRST.uuid)
    assert kept.saved_at > row.code_saved_at
    newer = drafts.Shown("typed", True, kept.saved_at)
    assert drafts.shown(learner, FIRST) == newer == drafts.draft_get(learner, FIRST)
    store.code_save(learner=learner, lesson=FIRST, code="ran again")  # the draft is older now
    assert drafts.shown(learner, FIRST).code == "ran again"
    assert drafts.draft_get(learner, FIRST) is None


def test_an_insert_names_every_column_without_a_default():
    with pytest.raises(TypeError, match="no value for"):
        statements.attempt_insert({"lesson_uuid": FIRST.uuid})


def test_a_second_call_compiles_nothing(monkeypatch):
    learner = Learner(anon_key="e" * 32)
    store.code_save(learner=learner, lesson=FIRST, code="one")
    progress_map(learner)
    compiled_now = []
    as_sql = SQLCompiler.as_sql

    def counting(self, *args, **kwargs):
        compiled_now.append(self)
        return as_sql(self, *args, **kwargs)

    monkeypatch.setattr(SQLCompiler, "as_sql", counting)
    with connection.cursor():  # the queries still reach the database
        store.code_save(learner=learner, lesson=FIRST, code="two")
        assert progress_map(learner)[FIRST.uuid].code == "two"
    assert compiled_now == []


class _Shade(enum.StrEnum):
    DARK = "dark"


@pytest.mark.parametrize("value", [None, True, 1.0, b"c" * 32, _Shade.DARK, datetime(2026, 1, 1)])
def test_a_filter_slot_takes_only_a_plain_str_or_int(value):
    learner = Learner(anon_key="c" * 32)
    store.code_save(learner=learner, lesson=FIRST, code="kept")
    with pytest.raises(TypeError, match="the filter slot 'anon' takes a str or an int"):
        statements.progress_rows("anon", values={"anon": value})
    with pytest.raises(TypeError, match="the filter slot 'lesson' takes a str or an int"):
        statements.code_update(
            "anon",
            values={"code": "x", "has": True, "at": timezone.now(), "lesson": value,
                    "anon": learner.anon_key},
        )  # fmt: skip
    with pytest.raises(TypeError, match="no value for the slot 'anon'"):
        statements.progress_rows("anon", values={})
    # Refused before reaching the database: the row is as it was, and the same statements
    # still answer for plain values (a SET slot's datetime and bool are prepared by their field).
    assert progress_map(learner)[FIRST.uuid].code == "kept"
    changed = statements.code_update(
        "anon",
        values={"code": "new", "has": True, "at": timezone.now(), "lesson": FIRST.uuid,
                "anon": learner.anon_key},
    )  # fmt: skip
    assert changed == 1 and progress_map(learner)[FIRST.uuid].code == "new"


def test_each_statement_is_kept_under_its_own_builder_and_shape():
    rows = statements.progress_rows
    assert rows.compiled("anon") is rows.compiled("anon")
    assert rows.compiled("anon") is not statements.answer_rows.compiled("anon")
    assert rows.compiled("anon") is not rows.compiled("user")


def test_a_builder_made_at_each_call_is_refused():
    with pytest.raises(TypeError, match="module-level function"):
        compiled.select(lambda shape: LessonProgress.objects.values_list("id"))

    def nested(shape):
        return LessonProgress.objects.values_list("id")

    with pytest.raises(TypeError, match="module-level function"):
        compiled.select(nested)


@compiled.select
def _rows_with_runs(runs: int):
    """A builder given a value where a slot belongs: a new statement for every value."""
    return LessonProgress.objects.filter(runs=runs).values_list("id")


def test_a_statement_with_a_value_for_its_shape_is_stopped():
    for runs in range(compiled.MAX_SHAPES):
        assert _rows_with_runs(runs, values={}) == []
    with pytest.raises(RuntimeError, match="more than 8 shapes"):
        _rows_with_runs(compiled.MAX_SHAPES, values={})
