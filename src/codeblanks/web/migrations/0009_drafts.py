import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    """Drafts: a signed-in learner's unrun editor text per lesson."""

    dependencies = [
        ("codeblanks", "0008_lessonprogress_reviewed_at"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Draft",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("lesson_uuid", models.CharField(max_length=64)),
                ("code", models.TextField(blank=True, default="")),
                ("saved_at", models.DateTimeField()),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="drafts",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("user", "lesson_uuid"), name="draft_unique_user_lesson"
                    )
                ],
            },
        ),
    ]
