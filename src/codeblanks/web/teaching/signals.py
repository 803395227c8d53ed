"""A learner's saved progress (a solve, a right answer) sends their new score to the LMS that
launched the lesson or class (``lti.py``). A signal, so that the progress store, written
once for every door, needs to know nothing of LTI."""

from __future__ import annotations

from django.db.models.signals import post_save
from django.dispatch import receiver

from codeblanks.web.models import LessonProgress, QuestionAnswer
from codeblanks.web.teaching import lti


@receiver(post_save, sender=LessonProgress, dispatch_uid="lti-progress")
def lesson_progress_saved(sender, instance: LessonProgress, **kwargs):
    lti.progress_changed(instance.user_id, instance.lesson_uuid)


@receiver(post_save, sender=QuestionAnswer, dispatch_uid="lti-answer")
def answer_saved(sender, instance: QuestionAnswer, **kwargs):
    progress = instance.progress
    lti.progress_changed(progress.user_id, progress.lesson_uuid)
