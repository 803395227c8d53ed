import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    """The review queue: one FSRS card per question a signed-in learner answered."""

    dependencies = [
        ("codeblanks", "0009_drafts"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ReviewCard",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("lesson_uuid", models.CharField(max_length=64)),
                ("question_id", models.CharField(max_length=100)),
                ("state", models.JSONField()),
                ("due", models.DateTimeField(db_index=True)),
                ("reviews", models.PositiveIntegerField(default=0)),
                ("lapses", models.PositiveIntegerField(default=0)),
                ("reviewed_at", models.DateTimeField()),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="review_cards",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("user", "lesson_uuid", "question_id"), name="review_card_unique"
                    )
                ],
            },
        ),
    ]
