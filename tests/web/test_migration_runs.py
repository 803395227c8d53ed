"""Migration 0006 fills each progress row's run count and last run from the attempts already
kept, and makes a row for attempts that had none (their runs were shown before it)."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("codeblanks", "0005_attempt_item_analysis")]
AFTER = [("codeblanks", "0006_progress_runs")]


@pytest.mark.django_db(transaction=True)
def test_the_runs_are_counted_from_the_attempts_kept():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Progress, Attempt = (old.get_model("codeblanks", m) for m in ("LessonProgress", "Attempt"))
    Progress.objects.create(anon_key="a" * 32, lesson_uuid="lesson-1")
    when = timezone.now() - timedelta(days=2)
    for key, uuid, n in (
        ("a" * 32, "lesson-1", 3),
        ("a" * 32, "lesson-2", 1),
        ("b" * 32, "lesson-1", 2),
    ):
        for i in range(n):
            made = Attempt.objects.create(anon_key=key, lesson_uuid=uuid, verdict="incorrect")
            Attempt.objects.filter(pk=made.pk).update(created_at=when + timedelta(minutes=i))

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps.get_model("codeblanks", "LessonProgress")
    rows = {(r.anon_key[0], r.lesson_uuid): (r.runs, r.last_run_at) for r in new.objects.all()}
    assert rows == {
        ("a", "lesson-1"): (3, when + timedelta(minutes=2)),
        ("a", "lesson-2"): (1, when),
        ("b", "lesson-1"): (2, when + timedelta(minutes=1)),
    }
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
