"""Migration 0006 fills each progress row's run count and last run from the attempts already
kept, and makes a row for attempts that had none (their runs were shown before it). Teaching
0003 takes the password off LTI accounts planted under the old guessable name."""

import hashlib
from datetime import timedelta

import pytest
from django.contrib.auth.hashers import check_password, is_password_usable, make_password
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("codeblanks", "0005_attempt_item_analysis")]
AFTER = [("codeblanks", "0006_progress_runs")]


@pytest.mark.django_db(transaction=True)
def test_the_runs_are_counted_from_the_attempts_kept():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Progress, Attempt = (old.get_model("codeblanks", m) for m in ("LessonProgress", "Attempt"))
    Progress.objects.create(anon_key="a" * 32, lesson_uuid="lesson-1")
    when = timezone.now() - timedelta(days=2)
    for key, uuid, n in (
        ("a" * 32, "lesson-1", 3),
        ("a" * 32, "lesson-2", 1),
        ("b" * 32, "lesson-1", 2),
    ):
        for i in range(n):
            made = Attempt.objects.create(anon_key=key, lesson_uuid=uuid, verdict="incorrect")
            Attempt.objects.filter(pk=made.pk).update(created_at=when + timedelta(minutes=i))

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps.get_model("codeblanks", "LessonProgress")
    rows = {(r.anon_key[0], r.lesson_uuid): (r.runs, r.last_run_at) for r in new.objects.all()}
    assert rows == {
        ("a", "lesson-1"): (3, when + timedelta(minutes=2)),
        ("a", "lesson-2"): (1, when),
        ("b", "lesson-1"): (2, when + timedelta(minutes=1)),
    }
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_an_lti_account_planted_under_the_old_name_loses_its_password():
    """Teaching 0003 (review S1): an LMS learner's account named as the old launches named it
    and holding a password was signed up by someone else first; the password goes. An account
    the launch made (no password), or one under another name, is left as it is."""
    before, after = [("teaching", "0002_lti_hosts")], [("teaching", "0003_planted_lti_passwords")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    User, LtiUser = old.get_model("auth", "User"), old.get_model("lti_tool", "LtiUser")
    reg = old.get_model("lti_tool", "LtiRegistration").objects.create(
        name="LMS", issuer="https://lms.example", client_id="c", auth_url="https://lms.example/a",
        token_url="https://lms.example/t", keyset_url="https://lms.example/k",
    )  # fmt: skip

    def account(name: str, sub: str, password: str):
        user = User.objects.create(username=name, password=password)
        LtiUser.objects.create(registration=reg, sub=sub, auth_user=user)
        return user.pk

    def name(sub: str) -> str:
        return "lti-" + hashlib.sha256(f"{reg.pk}:{sub}".encode()).hexdigest()[:12]

    planted = account(name("7"), "7", make_password("the attacker's"))
    made = account(name("8"), "8", make_password(None))
    other = account("ada", "9", make_password("ada's own"))

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    users = executor.loader.project_state(after).apps.get_model("auth", "User").objects
    assert not is_password_usable(users.get(pk=planted).password)
    assert not is_password_usable(users.get(pk=made).password)
    assert check_password("ada's own", users.get(pk=other).password)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_a_due_date_becomes_the_end_of_that_day_in_the_sites_zone(settings):
    """Teaching 0006: due dates become due times (23:59 that day, the site's zone, in UTC)."""
    from datetime import date, datetime, time
    from zoneinfo import ZoneInfo

    before, after = [("teaching", "0005_co_teachers")], [("teaching", "0006_due_times")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    user = old.get_model("auth", "User").objects.create(username="teacher")
    room = old.get_model("teaching", "Classroom").objects.create(
        teacher_id=user.pk, name="7B", join_code="ABCD2345", join_token="t" * 24
    )
    lessons = old.get_model("teaching", "ClassLesson")
    lessons.objects.create(classroom=room, lesson_uuid="a", position=0, due_on=date(2030, 1, 31))
    lessons.objects.create(classroom=room, lesson_uuid="b", position=1, due_on=None)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    new = executor.loader.project_state(after).apps.get_model("teaching", "ClassLesson")
    zone = ZoneInfo(settings.TIME_ZONE)
    assert dict(new.objects.values_list("lesson_uuid", "due_at")) == {
        "a": datetime.combine(date(2030, 1, 31), time(23, 59), zone),
        "b": None,
    }
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
