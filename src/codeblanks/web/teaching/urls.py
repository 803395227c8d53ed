from django.urls import path

from codeblanks.web.pages import converters  # noqa: F401  (the <row:...> converter)
from codeblanks.web.teaching import api, lti, lti_deep_link, views

urlpatterns = [
    path("classes/", views.class_list, name="classes"),
    path("classes/new", views.class_new, name="class-new"),
    path("classes/join", views.class_join_code, name="class-join-code"),
    path("classes/join/<str:token>/", views.class_join_link, name="class-join-link"),
    path("classes/<row:room_id>/", views.class_detail, name="class-detail"),
    path("classes/<row:room_id>/progress.csv", views.class_csv, name="class-csv"),
    path("classes/<row:room_id>/answers.csv", views.class_answers_csv, name="class-answers-csv"),
    path(
        "classes/<row:room_id>/submissions.zip",
        views.class_submissions_zip,
        name="class-submissions-zip",
    ),
    path("classes/<row:room_id>/edit", views.class_edit, name="class-edit"),
    path("classes/<row:room_id>/rotate", views.class_rotate, name="class-rotate"),
    path("classes/<row:room_id>/remove", views.class_remove, name="class-remove"),
    path("classes/<row:room_id>/teachers", views.class_add_teacher, name="class-add-teacher"),
    path(
        "classes/<row:room_id>/teachers/remove",
        views.class_remove_teacher,
        name="class-remove-teacher",
    ),
    path("classes/<row:room_id>/regrade", views.class_regrade, name="class-regrade"),
    path("classes/<row:room_id>/lms-names", views.class_sync_names, name="class-sync-names"),
    path("classes/<row:room_id>/late-policy", views.class_policy, name="class-policy"),
    path("classes/<row:room_id>/extensions", views.class_extend, name="class-extend"),
    path(
        "classes/<row:room_id>/extensions/remove",
        views.class_unextend,
        name="class-unextend",
    ),
    path("classes/<row:room_id>/leave", views.class_leave, name="class-leave"),
    path("classes/<row:room_id>/delete", views.class_delete, name="class-delete"),
    path(
        "classes/<row:room_id>/analysis/<slug:lesson_id>/",
        views.class_analysis,
        name="class-analysis",
    ),
    path(
        "classes/<row:room_id>/learners/<str:username>/lessons/<slug:lesson_id>/",
        views.class_learner_work,
        name="class-learner-work",
    ),
    path("analysis/<slug:lesson_id>/", views.site_analysis, name="site-analysis"),
    path("lti/jwks", lti.jwks, name="lti-jwks"),
    path("lti/login/<uuid:registration_uuid>/", lti.LoginView.as_view(), name="lti-login"),
    path("lti/launch/", lti.LaunchView.as_view(), name="lti-launch"),
    path("lti/deep-link/<str:key>/", lti_deep_link.pick, name="lti-deep-link"),
]

api_urlpatterns = [
    path("api/classes", api.create, name="api-classes"),
    path("api/classes/join", api.join, name="api-class-join"),
    path("api/classes/<row:room_id>", api.change, name="api-class"),
    path(
        "api/classes/<row:room_id>/learners/<str:username>",
        api.remove_learner,
        name="api-class-learner",
    ),
    path("api/classes/<row:room_id>/regrade", api.regrade, name="api-class-regrade"),
    path("api/classes/<row:room_id>/extensions", api.extend, name="api-class-extensions"),
    path(
        "api/classes/<row:room_id>/extensions/<str:username>/<str:lesson_id>",
        api.unextend,
        name="api-class-extension",
    ),
    path("api/classes/<row:room_id>/progress", api.progress, name="api-class-progress"),
    path("api/classes/<row:room_id>/progress.csv", api.progress_csv, name="api-class-csv"),
    path("api/classes/<row:room_id>/answers.csv", api.answers_csv, name="api-class-answers"),
    path(
        "api/classes/<row:room_id>/submissions.zip",
        api.submissions_zip,
        name="api-class-submissions",
    ),
    path(
        "api/classes/<row:room_id>/learners/<str:username>/lessons/<str:lesson_id>",
        api.learner_work,
        name="api-class-learner-work",
    ),
]
