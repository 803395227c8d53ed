from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "codeblanks.web"
    label = "codeblanks"
    verbose_name = "CodeBlanks"
