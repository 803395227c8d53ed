import pytest
from django.contrib.auth.models import User

from codeblanks.grading import Grade
from codeblanks.web.learner import store
from codeblanks.web.learner.learners import Learner

from .conftest import FIRST

pytestmark = pytest.mark.django_db


def test_staff_see_users_attempts_and_progress_in_the_admin(client):
    admin = User.objects.create_superuser("root", password="pw-for-the-admin-42")
    store.attempt_record(
        learner=Learner(user_id=admin.pk),
        lesson=FIRST,
        grade=Grade("incorrect", "", "", ""),
        code="",
    )
    client.force_login(admin)
    for url in (
        "/admin/auth/user/",
        "/admin/codeblanks/attempt/",
        "/admin/codeblanks/lessonprogress/",
    ):
        r = client.get(url)
        assert r.status_code == 200, url
    assert b"incorrect" in client.get("/admin/codeblanks/attempt/").content


def test_the_admin_needs_staff(client):
    assert client.get("/admin/codeblanks/attempt/").status_code == 302
