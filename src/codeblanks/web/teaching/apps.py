from django.apps import AppConfig


class TeachingConfig(AppConfig):
    """Teachers, their classes and who is in them (docs/teachers.md)."""

    name = "codeblanks.web.teaching"
    label = "teaching"
    verbose_name = "Teaching"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from codeblanks.web.teaching import signals  # noqa: F401  (scores back to the LMS)
