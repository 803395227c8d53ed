from django.contrib import admin
from django.urls import path

from codeblanks.web.views import accounts, api, health, lesson, pages

handler400 = pages.bad_request
handler403 = pages.permission_denied
handler404 = pages.not_found
handler500 = pages.server_error

urlpatterns = [
    path("", pages.home, name="home"),
    path("courses/<slug:course_id>/<slug:level>/", pages.level, name="level"),
    path("progress/", pages.progress, name="progress"),
    path("lessons/<slug:lesson_id>/", lesson.lesson_page, name="lesson"),
    path("lessons/<slug:lesson_id>/review/", lesson.lesson_review, name="lesson-review"),
    path("lessons/<slug:lesson_id>/run", lesson.lesson_run, name="lesson-run"),
    path("lessons/<slug:lesson_id>/reset", lesson.lesson_reset, name="lesson-reset"),
    path("lessons/<slug:lesson_id>/solution", lesson.lesson_solution, name="lesson-solution"),
    path(
        "lessons/<slug:lesson_id>/questions/<str:question_id>",
        lesson.question_answer,
        name="question-answer",
    ),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", accounts.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    path("api/lessons", api.lessons, name="api-lessons"),
    path("api/run", api.run, name="api-run"),
    path("api/lessons/<str:lesson_id>/grade", api.grade, name="api-grade"),
    path("api", api.not_found),
    path("api/", api.not_found),
    path("api/<path:rest>", api.not_found),
]
