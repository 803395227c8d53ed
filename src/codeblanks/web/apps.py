from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "codeblanks.web"
    label = "codeblanks"
    verbose_name = "CodeBlanks"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from codeblanks.web.languages import on_login

        user_logged_in.connect(on_login, dispatch_uid="codeblanks-language-at-login")
