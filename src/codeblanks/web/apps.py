from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "codeblanks.web"
    label = "codeblanks"
    verbose_name = "CodeBlanks"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from codeblanks.web.door.languages import on_login
        from codeblanks.web.learner import store
        from codeblanks.web.teaching import analysis

        user_logged_in.connect(on_login, dispatch_uid="codeblanks-language-at-login")
        # The item analysis's columns on each attempt: the store calls it, teaching stays out
        # of the learner's imports (docs/architecture.md).
        if analysis.attempt_fields not in store.attempt_notes:
            store.attempt_notes.append(analysis.attempt_fields)
