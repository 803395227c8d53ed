"""Each lesson's run count, last run and last anticipated mistake kept on the learner's progress
row (they were counted from ``Attempt`` on every page, and the mistake lived in the cache).
The counts are filled from the attempts already kept; attempts without a progress row get one.
The cached mistakes are not carried over: the next repeat of a mistake shows its nudge once
more before its explanation."""

from django.db import migrations, models
from django.db.models import Count, Max


def fill(apps, schema_editor):
    Attempt = apps.get_model("codeblanks", "Attempt")
    LessonProgress = apps.get_model("codeblanks", "LessonProgress")
    groups = (
        Attempt.objects.order_by()
        .values("user_id", "anon_key", "lesson_uuid")
        .annotate(n=Count("id"), last=Max("created_at"))
    )
    for g in groups.iterator():
        owner = {"user_id": g["user_id"], "anon_key": g["anon_key"]}
        row, _ = LessonProgress.objects.get_or_create(lesson_uuid=g["lesson_uuid"], **owner)
        row.runs, row.last_run_at = g["n"], g["last"]
        row.save(update_fields=["runs", "last_run_at"])


class Migration(migrations.Migration):
    dependencies = [
        ("codeblanks", "0005_attempt_item_analysis"),
    ]

    operations = [
        migrations.AddField(
            model_name="lessonprogress",
            name="runs",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="lessonprogress",
            name="last_run_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="lessonprogress",
            name="last_mistake",
            field=models.CharField(blank=True, default="", max_length=200),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
