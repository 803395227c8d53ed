from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("codeblanks", "0006_progress_runs"),
    ]

    operations = [
        migrations.AddField(
            model_name="attempt",
            name="program",
            field=models.TextField(blank=True, default=""),
        ),
    ]
