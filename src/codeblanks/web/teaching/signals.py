"""What teaching adds to a learner's saved progress, without the progress store (written once
for every door) knowing of it: a solve or a right answer sends the new score to the LMS that
launched the lesson or class (``lti.py``), as does a change to a class's score rules; and every
answer is logged for item analysis."""

from __future__ import annotations

from django.db.models.signals import post_save
from django.dispatch import receiver

from codeblanks.web.models import LessonProgress, QuestionAnswer
from codeblanks.web.teaching import lti
from codeblanks.web.teaching.models import AnswerEvent, Classroom

# The class's fields that make its scores (``scores.room_rules``).
SCORING = {"exercise_points", "question_points", "count_after_review", "late_policy",
           "late_penalty"}  # fmt: skip


@receiver(post_save, sender=LessonProgress, dispatch_uid="lti-progress")
def lesson_progress_saved(sender, instance: LessonProgress, update_fields=None, **kwargs):
    if update_fields is None or "solved_at" in update_fields:  # a solve, not a saved draft
        lti.progress_changed(instance.user_id, instance.lesson_uuid)


@receiver(post_save, sender=QuestionAnswer, dispatch_uid="lti-answer")
def answer_saved(sender, instance: QuestionAnswer, **kwargs):
    progress = instance.progress
    lti.progress_changed(progress.user_id, progress.lesson_uuid)


@receiver(post_save, sender=QuestionAnswer, dispatch_uid="analysis-answer")
def answer_logged(sender, instance: QuestionAnswer, **kwargs):
    AnswerEvent.objects.create(
        progress_id=instance.progress_id,
        question_id=instance.question_id,
        answer=instance.answer,
        correct=instance.correct,
    )


@receiver(post_save, sender=Classroom, dispatch_uid="lti-class-rules")
def class_saved(sender, instance: Classroom, update_fields=None, **kwargs):
    if update_fields is not None and SCORING & set(update_fields):  # not a class just made
        lti.class_rescored(instance.pk)
