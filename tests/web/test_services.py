"""The learner's store on its own: saving, solving, revealing, and merging on claim."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError
from django.utils import timezone

from codeblanks.grading import Grade
from codeblanks.web.learner import claims, store
from codeblanks.web.learner.learners import Learner
from codeblanks.web.learner.progress import NOT_STARTED, SOLVED, STARTED, progress_get
from codeblanks.web.models import Attempt, LessonProgress, QuestionAnswer

from .conftest import CHOICE, FIRST, LAST

pytestmark = pytest.mark.django_db
ANON = Learner(anon_key="a" * 32)


def test_learner_is_exactly_one_kind():
    with pytest.raises(ValueError):
        Learner()
    with pytest.raises(ValueError):
        Learner(user_id=1, anon_key="x")


def test_progress_states_move_forward():
    assert progress_get(ANON, FIRST).state(FIRST) == NOT_STARTED
    store.code_save(learner=ANON, lesson=FIRST, code="x")
    assert progress_get(ANON, FIRST).state(FIRST) == STARTED
    store.attempt_record(learner=ANON, lesson=FIRST, grade=Grade("correct", "", "", ""), code="x")
    p = progress_get(ANON, FIRST)
    assert p.solved and p.runs == 1 and p.state(FIRST) == SOLVED
    assert progress_get(ANON, LAST).state(LAST) == NOT_STARTED


def test_saving_code_again_replaces_it_in_the_one_row():
    other = Learner(anon_key="b" * 32)
    store.code_save(learner=ANON, lesson=FIRST, code="first")
    store.code_save(learner=other, lesson=FIRST, code="theirs")
    store.solution_reveal(learner=ANON, lesson=FIRST)
    before = LessonProgress.objects.get(anon_key=ANON.anon_key, lesson_uuid=FIRST.uuid)
    store.code_save(learner=ANON, lesson=FIRST, code="second")
    row = LessonProgress.objects.get(anon_key=ANON.anon_key, lesson_uuid=FIRST.uuid)
    assert (row.pk, row.code, row.has_code) == (before.pk, "second", True)
    assert row.revealed_at == before.revealed_at  # the rest of the row is kept
    assert row.code_saved_at > before.code_saved_at and row.updated_at > before.updated_at
    assert progress_get(other, FIRST).code == "theirs"


def test_a_row_needs_exactly_one_owner():
    with pytest.raises(IntegrityError):
        LessonProgress.objects.create(lesson_uuid=FIRST.uuid)


def test_claim_merges_both_ways():
    ada = User.objects.create_user("ada")
    me = Learner(user_id=ada.pk)
    store.code_save(learner=me, lesson=FIRST, code="mine, newer")
    store.answer_record(learner=me, lesson=FIRST, question=CHOICE, answer=0, correct=False)
    store.code_save(learner=ANON, lesson=FIRST, code="anon, older")
    LessonProgress.objects.filter(anon_key=ANON.anon_key).update(
        code_saved_at=timezone.now() - timedelta(hours=1)
    )
    store.solution_reveal(learner=ANON, lesson=FIRST)
    store.answer_record(learner=ANON, lesson=FIRST, question=CHOICE, answer=1, correct=True)
    QuestionAnswer.objects.filter(progress__user=ada).update(
        answered_at=timezone.now() - timedelta(hours=1)
    )
    store.code_save(learner=ANON, lesson=LAST, code="only anon")
    store.attempt_record(learner=ANON, lesson=LAST, grade=Grade("incorrect", "", "", ""), code="")

    assert claims.learner_claim(user_id=ada.pk, anon_key=ANON.anon_key) == 2
    first = progress_get(me, FIRST)
    assert first.code == "mine, newer" and first.revealed
    assert first.answers["pick"].correct and first.answers["pick"].tries == 2
    assert progress_get(me, LAST).code == "only anon"
    assert not LessonProgress.objects.filter(user__isnull=True).exists()
    assert Attempt.objects.get().user == ada
    assert claims.learner_claim(user_id=ada.pk, anon_key="") == 0


def _graded(verdict: str, mistake: str | None = None) -> Grade:
    return Grade(verdict, "", "", "", mistake=mistake)


def test_a_run_is_counted_on_the_row_and_returns_the_previous_mistake():
    """The row keeps the runs, the last run's time and its mistake; each record returns the
    mistake before it, and a run the platform could not do counts but leaves the mistake."""

    def record(grade: Grade) -> str | None:
        return store.attempt_record(learner=ANON, lesson=FIRST, grade=grade, code="x")

    assert record(_graded("incorrect", "transposed")) is None
    assert record(_graded("busy")) == "transposed"
    assert record(_graded("incorrect", "transposed")) == "transposed"
    assert record(_graded("incorrect")) == "transposed"
    assert record(_graded("correct")) is None
    row = LessonProgress.objects.get(anon_key=ANON.anon_key)
    assert row.runs == 5 == Attempt.objects.count() and row.last_mistake == ""
    assert row.last_run_at == Attempt.objects.order_by("-created_at").first().created_at
    p = progress_get(ANON, FIRST)
    assert p.runs == 5 and p.last_run == row.last_run_at and p.solved


def test_a_claim_adds_the_runs_and_keeps_the_later_runs_mistake():
    ada = User.objects.create_user("ada")
    me = Learner(user_id=ada.pk)
    store.attempt_record(learner=me, lesson=FIRST, grade=_graded("incorrect", "old"), code="")
    LessonProgress.objects.filter(user=ada).update(last_run_at=timezone.now() - timedelta(hours=1))
    for _ in range(2):
        store.attempt_record(
            learner=ANON, lesson=FIRST, grade=_graded("incorrect", "newer"), code=""
        )
    claims.learner_claim(user_id=ada.pk, anon_key=ANON.anon_key)
    row = LessonProgress.objects.get(user=ada)
    assert (row.runs, row.last_mistake) == (3, "newer")
    assert progress_get(me, FIRST).runs == 3


def test_the_room_is_the_stores_to_refuse_and_nothing_is_kept(settings):
    """``code_save`` refuses code that would take the learner over their room, and keeps none
    of it (the run stops there: ``Tutor.run``)."""
    from .test_run import _config

    store.code_save(learner=ANON, lesson=FIRST, code="x" * 60)
    settings.CODEBLANKS = _config(learner_code_bytes=100)
    refused = store.code_save(learner=ANON, lesson=LAST, code="y" * 41)
    assert refused is not None and refused.error == "too-much-code"
    assert progress_get(ANON, LAST).code is None
    assert store.code_save(learner=ANON, lesson=LAST, code="y" * 40) is None
    assert progress_get(ANON, LAST).code == "y" * 40


def test_a_run_keeps_what_the_item_analysis_reads_though_the_store_imports_no_teaching():
    """The store calls ``store.attempt_notes`` and Django's start fills it with the teaching
    app's ``attempt_fields``: a wrong run without a known mistake keeps its code and digest,
    a platform failure keeps nothing of the program."""
    store.attempt_record(
        learner=ANON, lesson=FIRST, grade=Grade("incorrect", "", "", ""), code="print( 1 )  \n"
    )
    store.attempt_record(learner=ANON, lesson=FIRST, grade=Grade("busy", "", "", ""), code="x")
    wrong, busy = Attempt.objects.order_by("id")
    assert wrong.wrong_code == "print( 1 )" and len(wrong.code_digest) == 16
    assert wrong.program  # the normalised program, for the lesson's corpus
    assert (busy.wrong_code, busy.code_digest, busy.program) == ("", "", "")
