"""A teacher's classes: which lessons each covers (by ``Lesson.uuid``, as every progress row
points at lessons), with an optional due time per lesson (and learners' extensions), and who
joined. A class belongs to its teacher (others may co-teach it): deleting the teacher's account
deletes their classes, and deleting a learner's account removes them from every class (both
cascade), so no report can name them again."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.db import models

TEACH = "teaching.add_classroom"  # the teacher role: the right to make classes
LATE_POLICIES = (("accept", "accept"), ("penalty", "penalty"), ("close", "close"))


class Classroom(models.Model):
    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="classes_taught"
    )
    name = models.CharField(max_length=100)
    join_code = models.CharField(max_length=8, unique=True)  # typed by learners: ABCD-2345
    join_token = models.CharField(max_length=32, unique=True)  # in the join link
    created_at = models.DateTimeField(auto_now_add=True)
    # Who else teaches it (added by username, or an LMS Instructor or TA launching it): they
    # see and manage it as its owner does, except deleting it; they are never its learners.
    co_teachers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="classes_co_taught"
    )
    # Due times are typed and shown in this zone (an IANA name; "" is the site's TIME_ZONE) and
    # stored in UTC. Work after a lesson's due time (a learner's extension moving it) is
    # accepted, accepted with ``late_penalty`` percent off per day late, or worth nothing
    # ("close"): teaching/deadlines.py.
    time_zone = models.CharField(max_length=64, blank=True, default="")
    late_policy = models.CharField(max_length=8, choices=LATE_POLICIES, default="accept")
    late_penalty = models.PositiveSmallIntegerField(default=0)
    # What a lesson's parts are worth in this class (teaching/scores.py): the exercise, and each
    # question; and whether what is answered once the answers were seen ("Review with answers",
    # the solution) earns its points all the same (off: it earns nothing).
    exercise_points = models.PositiveSmallIntegerField(default=1)
    question_points = models.PositiveSmallIntegerField(default=1)
    count_after_review = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "class"
        verbose_name_plural = "classes"

    def __str__(self) -> str:
        return f"{self.name} ({self.teacher})"

    @property
    def learners_in(self) -> int:
        """How many are in the class now (those removed, kept as "left", not counted); reads
        the prefetched members when there are."""
        return sum(1 for m in self.members.all() if m.left_at is None)

    def is_taught_by(self, user) -> bool:
        """The owner or a co-teacher (one query for the latter)."""
        return self.teacher_id == user.pk or self.co_teachers.filter(pk=user.pk).exists()


class ClassLesson(models.Model):
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="lessons")
    lesson_uuid = models.CharField(max_length=64)
    position = models.PositiveSmallIntegerField()
    due_at = models.DateTimeField(null=True, blank=True)  # UTC; typed in the class's zone

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["classroom", "lesson_uuid"], name="class_lesson_once"),
        ]


class Membership(models.Model):
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    # Set when the teacher removed the learner: the row stays, so the roster keeps their record
    # in the class (marked "left"); the learner no longer sees the class. Joining again clears it.
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["classroom", "user"], name="member_once"),
        ]


class Extension(models.Model):
    """One learner's own due time for one lesson of a class, in place of the lesson's."""

    class_lesson = models.ForeignKey(
        ClassLesson, on_delete=models.CASCADE, related_name="extensions"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="extensions"
    )
    due_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["class_lesson", "user"], name="extension_once"),
        ]


class LtiGrade(models.Model):
    """Where a learner's score for one launched lesson or class goes back to their LMS: the
    line item of the launch (Assignment and Grade Services), who they are there (``sub``) and
    the last score sent and its maximum, so an unchanged score is not sent again."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lti_grades"
    )
    registration = models.ForeignKey("lti_tool.LtiRegistration", on_delete=models.CASCADE)
    sub = models.CharField(max_length=255)
    lineitem = models.URLField(max_length=500)
    scope = models.JSONField(default=list)
    lesson_uuid = models.CharField(max_length=64, blank=True, default="")
    classroom = models.ForeignKey(Classroom, null=True, blank=True, on_delete=models.CASCADE)
    sent_score = models.FloatField(null=True, blank=True)
    sent_maximum = models.FloatField(null=True, blank=True)  # a changed class policy changes it
    sent_at = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "lineitem"], name="lti_grade_once"),
        ]


class AnswerEvent(models.Model):
    """Every answer given to a question (``QuestionAnswer`` keeps only the latest), for item
    analysis: which wrong answers are common. It goes with the learner's progress row."""

    progress = models.ForeignKey(
        "codeblanks.LessonProgress", on_delete=models.CASCADE, related_name="answer_events"
    )
    question_id = models.CharField(max_length=100)
    answer = models.JSONField()
    correct = models.BooleanField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["question_id", "correct"])]


class LtiHosts(models.Model):
    """More hosts an LMS's services may be on than its registration's own URLs name (say a
    Canvas whose scores are on the school's host, not on the issuer's): the operator's explicit
    list, one ``host`` or ``host:port`` per line. A host listed here is contacted even when it
    resolves to an inner (private, loopback) address."""

    registration = models.OneToOneField(
        "lti_tool.LtiRegistration", on_delete=models.CASCADE, related_name="codeblanks_hosts"
    )
    hosts = models.TextField(blank=True, default="")

    class Meta:
        verbose_name = "LTI service hosts"
        verbose_name_plural = "LTI service hosts"

    def origins(self) -> list[tuple[str, int]]:
        """The (host, port) pairs listed; a host without a port on 443 and on 80."""
        found: list[tuple[str, int]] = []
        for entry in self.hosts.replace(",", " ").split():
            try:
                parts = urlsplit("//" + entry)
                host, port = parts.hostname, parts.port
            except ValueError:
                continue  # not a host: nothing is allowed by it
            if host:
                found += [(host, port)] if port else [(host, 443), (host, 80)]
        return found


class LtiRoster(models.Model):
    """Where the names of a class's learners are read on an LMS (Names and Role Provisioning
    Services): the membership URL a launch of the class carried, and how the last read went,
    shown to the teacher on the class page (``lti_names``)."""

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="lti_rosters")
    registration = models.ForeignKey("lti_tool.LtiRegistration", on_delete=models.CASCADE)
    url = models.URLField(max_length=500)
    synced_at = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["classroom", "url"], name="lti_roster_once"),
        ]
