"""The learner's hot statements, compiled once (``codeblanks.web.learner.compiled``): they read
and write what the ORM would, on SQLite and on PostgreSQL, and a second call compiles nothing."""

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.models.sql.compiler import SQLCompiler
from django.utils import timezone

from codeblanks.grading import Grade
from codeblanks.web.learner import compiled, store
from codeblanks.web.learner.learners import Learner
from codeblanks.web.learner.progress import Answer, Progress, progress_map
from codeblanks.web.models import Attempt, LessonProgress, QuestionAnswer

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


def test_an_insert_names_every_column_without_a_default():
    with pytest.raises(TypeError, match="no value for"):
        compiled.insert(Attempt, {"lesson_uuid": FIRST.uuid})


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
