"""What the web app stores: each learner's progress per lesson, their answers, and one row per
run. Lessons themselves are files (``codeblanks.content``); rows point at them by
``Lesson.uuid``, which never changes, never by a foreign key.

A learner is either a user or an anonymous visitor. Anonymous rows carry ``anon_key``, a random
token kept in the visitor's session; signing up or logging in moves them onto the user
(``learner/claims.py``). Every row has exactly one of the two owners.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

OWNED = Q(user__isnull=False, anon_key="") | (Q(user__isnull=True) & ~Q(anon_key=""))


class LessonProgress(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="lesson_progress",
    )
    anon_key = models.CharField(max_length=64, blank=True, default="", db_index=True)
    lesson_uuid = models.CharField(max_length=64)
    code = models.TextField(blank=True, default="")
    has_code = models.BooleanField(default=False)  # False: show the starter
    code_saved_at = models.DateTimeField(null=True, blank=True)
    solved_at = models.DateTimeField(null=True, blank=True)
    revealed_at = models.DateTimeField(null=True, blank=True)
    # When the learner first opened "Review with answers": answers given after it score nothing
    reviewed_at = models.DateTimeField(null=True, blank=True)
    hints_revealed = models.PositiveSmallIntegerField(default=0)  # the first N hints were shown
    # question id -> how many of that question's hints were shown (the same rule per question)
    question_hints = models.JSONField(default=dict, blank=True)
    # Kept with each graded run (``store.attempt_record``), so that a page reads the lesson's
    # runs from this row instead of counting ``Attempt`` rows, and a repeated mistake is found
    # in the same transaction that records the run.
    runs = models.PositiveIntegerField(default=0)
    last_run_at = models.DateTimeField(null=True, blank=True)
    last_mistake = models.CharField(max_length=200, blank=True, default="")  # the latest run's
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "lesson progress"
        constraints = [
            models.CheckConstraint(condition=OWNED, name="progress_one_owner"),
            models.UniqueConstraint(
                fields=["user", "lesson_uuid"],
                condition=Q(user__isnull=False),
                name="progress_unique_user_lesson",
            ),
            models.UniqueConstraint(
                fields=["anon_key", "lesson_uuid"],
                condition=~Q(anon_key=""),
                name="progress_unique_anon_lesson",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user or self.anon_key[:8]} · {self.lesson_uuid}"


class QuestionAnswer(models.Model):
    """The learner's latest answer to one question, and whether it was right."""

    progress = models.ForeignKey(LessonProgress, on_delete=models.CASCADE, related_name="answers")
    question_id = models.CharField(max_length=100)
    answer = models.JSONField()  # choice: index; blank: text; match: list of meaning indexes
    correct = models.BooleanField(default=False)
    tries = models.PositiveIntegerField(default=0)
    answered_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["progress", "question_id"], name="answer_unique"),
        ]


class Attempt(models.Model):
    """One press of Run on a lesson: what the grader said and how long it took."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="attempts",
    )
    anon_key = models.CharField(max_length=64, blank=True, default="", db_index=True)
    lesson_uuid = models.CharField(max_length=64, db_index=True)
    verdict = models.CharField(max_length=32)
    case = models.CharField(max_length=200, blank=True, default="")
    duration_ms = models.FloatField(default=0.0)
    code_bytes = models.PositiveIntegerField(default=0)
    # For item analysis (web/teaching/analysis.py): the anticipated mistake the run behaved
    # like, and, for a wrong run that matched none, its program (a candidate for a new mistake;
    # at most WRONG_CODE_CHARS) and a digest that groups identical ones.
    mistake = models.CharField(max_length=200, blank=True, default="")
    wrong_code = models.TextField(blank=True, default="")
    code_digest = models.CharField(max_length=16, blank=True, default="")
    # For the lesson's corpus (``codeblanks corpus export``): every graded program, right or
    # wrong, normalised (content/corpus.py) and at most WRONG_CODE_CHARS; never a platform failure.
    program = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.CheckConstraint(condition=OWNED, name="attempt_one_owner")]

    def __str__(self) -> str:
        return f"{self.verdict} · {self.lesson_uuid} · {self.created_at:%Y-%m-%d %H:%M}"


class PersonalToken(models.Model):
    """A learner's token for the API (``codeblanks learn``): it acts as that user on their own
    progress only. Only its SHA-256 is stored; the token itself is shown once, when made."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="personal_tokens"
    )
    name = models.CharField(max_length=100)
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=12)  # the first characters, to tell tokens apart
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.user} · {self.name} ({self.prefix}…)"


class Profile(models.Model):
    """What a user chose for themselves: the interface's language ('' until they choose one;
    ``codeblanks.web.door.languages`` sets it from the switcher and ``?lang=``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="profile"
    )
    language = models.CharField(max_length=8, blank=True, default="")

    def __str__(self) -> str:
        return f"{self.user} · {self.language or '-'}"


class Draft(models.Model):
    """What a signed-in learner has typed in a lesson's editor and not run yet, kept so a
    reload or another device finds it (``web/learner/drafts.py``). Never graded: a Run saves the
    code on ``LessonProgress`` as ever, and a draft older than that code is not shown. Anonymous
    visitors keep their drafts in the browser only (docs/learners.md)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="drafts"
    )
    lesson_uuid = models.CharField(max_length=64)
    code = models.TextField(blank=True, default="")
    saved_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "lesson_uuid"], name="draft_unique_user_lesson")
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.lesson_uuid} (draft)"


class ReviewCard(models.Model):
    """One question a signed-in learner has answered, as a card of their review queue: its
    FSRS state and when it is due (``learning/review.py`` schedules; ``web/learner/reviews.py``
    keeps).
    Made from the learner's answers when the queue is read, so answers given anonymously and
    carried over on sign-up, or through the API, become cards too."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="review_cards"
    )
    lesson_uuid = models.CharField(max_length=64)
    question_id = models.CharField(max_length=100)
    state = models.JSONField()  # fsrs.Card.to_dict()
    due = models.DateTimeField(db_index=True)
    reviews = models.PositiveIntegerField(default=0)  # answers in the queue
    lapses = models.PositiveIntegerField(default=0)  # of them wrong
    reviewed_at = models.DateTimeField()  # the last answer, in the lesson or the queue

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "lesson_uuid", "question_id"], name="review_card_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.lesson_uuid} · {self.question_id} (due {self.due:%Y-%m-%d})"
