"""Accounts a launch adopted by their name before the launch stopped doing so (security review
S1): an LMS learner's account still named as the old launches named it, ``lti-`` + the first 12
hex digits of sha256("<registration pk>:<sub>"), that has a usable password. A launch never set
one, and neither a password change (it asks for the old one) nor a reset (it skips accounts
without one) gives one, so someone signed that name up before the learner's first launch. The
password goes, and with it every session it signed in (Django checks a session against the
password); the learner keeps the account, and their progress, through their LMS."""

import hashlib

from django.conf import settings
from django.contrib.auth.hashers import is_password_usable, make_password
from django.db import migrations


def old_name(registration_id: int, sub: str) -> str:
    return "lti-" + hashlib.sha256(f"{registration_id}:{sub}".encode()).hexdigest()[:12]


def planted_passwords_go(apps, schema_editor):
    lti_users = apps.get_model("lti_tool", "LtiUser").objects.filter(auth_user__isnull=False)
    for row in lti_users.select_related("auth_user").iterator():
        user = row.auth_user
        if user.username == old_name(row.registration_id, row.sub) and is_password_usable(
            user.password
        ):
            user.password = make_password(None)
            user.save(update_fields=["password"])


class Migration(migrations.Migration):
    dependencies = [
        ("teaching", "0002_lti_hosts"),
        ("lti_tool", "0008_ltideployment_pns_url_and_more"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(planted_passwords_go, migrations.RunPython.noop)]
