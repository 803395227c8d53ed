"""A teacher's classes: which lessons each covers (by ``Lesson.uuid``, as every progress row
points at lessons), with an optional due date per lesson, and who joined. A class belongs to
its teacher: deleting the teacher's account deletes their classes, and deleting a learner's
account removes them from every class (both cascade), so no report can name them again."""

from __future__ import annotations

from django.conf import settings
from django.db import models

TEACH = "teaching.add_classroom"  # the teacher role: the right to make classes


class Classroom(models.Model):
    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="classes_taught"
    )
    name = models.CharField(max_length=100)
    join_code = models.CharField(max_length=8, unique=True)  # typed by learners: ABCD-2345
    join_token = models.CharField(max_length=32, unique=True)  # in the join link
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "class"
        verbose_name_plural = "classes"

    def __str__(self) -> str:
        return f"{self.name} ({self.teacher})"


class ClassLesson(models.Model):
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="lessons")
    lesson_uuid = models.CharField(max_length=64)
    position = models.PositiveSmallIntegerField()
    due_on = models.DateField(null=True, blank=True)

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

    class Meta:
        ordering = ["joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["classroom", "user"], name="member_once"),
        ]
