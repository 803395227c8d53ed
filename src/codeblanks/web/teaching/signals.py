"""What teaching adds to a learner's saved progress, without the progress store (written once
for every door) knowing of it: a solve or a right answer sends the new score to the LMS that
launched the lesson or class (``lti.py``), and every answer is logged for item analysis."""

from __future__ import annotations

from django.db.models.signals import post_save
from django.dispatch import receiver

from codeblanks.web.models import LessonProgress, QuestionAnswer
from codeblanks.web.teaching import lti
from codeblanks.web.teaching.models import AnswerEvent


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
