from django.contrib import admin
from django.urls import path

from codeblanks.web.pages import converters  # noqa: F401  (the <row:...> converter)
from codeblanks.web.teaching import urls as teaching_urls
from codeblanks.web.views import (
    accounts,
    api,
    drafts,
    health,
    hints,
    language,
    learner_api,
    lesson,
    pages,
    reviews,
    token_forms,
)

handler400 = pages.bad_request
handler403 = pages.permission_denied
handler404 = pages.not_found
handler500 = pages.server_error

urlpatterns = [
    path("", pages.home, name="home"),
    path("courses/<slug:course_id>/<slug:level>/", pages.level, name="level"),
    path("progress/", pages.progress, name="progress"),
    path("review/", reviews.review_queue, name="review-queue"),
    path("review/<row:card_id>", reviews.review_answer, name="review-answer"),
    path("language", language.language_set, name="language"),
    path("progress/tokens", token_forms.token_create, name="token-create"),
    path("progress/tokens/<row:token_id>/revoke", token_forms.token_revoke, name="token-revoke"),
    path("lessons/<slug:lesson_id>/", lesson.lesson_page, name="lesson"),
    path("lessons/<slug:lesson_id>/review/", lesson.lesson_review, name="lesson-review"),
    path("lessons/<slug:lesson_id>/run", lesson.lesson_run, name="lesson-run"),
    path("lessons/<slug:lesson_id>/reset", lesson.lesson_reset, name="lesson-reset"),
    path("lessons/<slug:lesson_id>/solution", lesson.lesson_solution, name="lesson-solution"),
    path("lessons/<slug:lesson_id>/draft", drafts.lesson_draft, name="lesson-draft"),
    path("lessons/<slug:lesson_id>/hint", hints.lesson_hint, name="lesson-hint"),
    path(
        "lessons/<slug:lesson_id>/questions/<str:question_id>/hint",
        hints.question_hint,
        name="question-hint",
    ),
    path(
        "lessons/<slug:lesson_id>/questions/<str:question_id>",
        lesson.question_answer,
        name="question-answer",
    ),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", accounts.LogoutView.as_view(), name="logout"),
    path("accounts/", accounts.account, name="account"),
    path("accounts/delete/", accounts.account_delete, name="account-delete"),
    path(
        "accounts/password_change/",
        accounts.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password_change/done/",
        accounts.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("accounts/password_reset/", accounts.PasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/password_reset/done/",
        accounts.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        accounts.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        accounts.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    *teaching_urls.urlpatterns,
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    path("api/lessons", api.lessons, name="api-lessons"),
    path("api/run", api.run, name="api-run"),
    path("api/me", learner_api.me, name="api-me"),
    path("api/review", reviews.api_queue, name="api-review-queue"),
    path("api/review/<str:card_id>", reviews.api_answer, name="api-review-answer"),
    path("api/lessons/<str:lesson_id>", learner_api.lesson, name="api-lesson"),
    path("api/lessons/<str:lesson_id>/grade", api.grade, name="api-grade"),
    path("api/lessons/<str:lesson_id>/draft", drafts.api_draft, name="api-draft"),
    path("api/lessons/<str:lesson_id>/hint", learner_api.hint, name="api-hint"),
    path("api/lessons/<str:lesson_id>/solution", learner_api.solution, name="api-solution"),
    path("api/lessons/<str:lesson_id>/review", learner_api.review, name="api-review"),
    path(
        "api/lessons/<str:lesson_id>/questions/<str:question_id>",
        learner_api.answer,
        name="api-answer",
    ),
    *teaching_urls.api_urlpatterns,
    path("api", api.not_found),
    path("api/", api.not_found),
    path("api/<path:rest>", api.not_found),
]
