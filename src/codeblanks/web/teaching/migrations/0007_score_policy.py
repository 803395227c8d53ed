# Written by hand for Django 5.2 (as makemigrations would): a class's score policy.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("teaching", "0006_due_times"),
    ]

    operations = [
        migrations.AddField(
            model_name="classroom",
            name="exercise_points",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.AddField(
            model_name="classroom",
            name="question_points",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.AddField(
            model_name="classroom",
            name="count_after_review",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="ltigrade",
            name="sent_maximum",
            field=models.FloatField(blank=True, null=True),
        ),
    ]
