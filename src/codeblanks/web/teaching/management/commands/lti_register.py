"""``codeblanks manage lti_register``: register an LMS (its issuer, client id and URLs, from
its LTI 1.3 tool settings) with an active deployment, make the tool's key pair on first use,
and print the URLs to give the LMS (docs/deploy.md, "LTI 1.3"). ``--service-host`` allows
a host for the LMS's scores besides those of its URLs (docs/deploy.md, "Security")."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand
from django.urls import reverse
from lti_tool.models import Key, LtiDeployment, LtiRegistration

from codeblanks.web.teaching.models import LtiHosts


class Command(BaseCommand):
    help = "Register an LTI 1.3 platform (Moodle, Canvas, ...) and print the tool's URLs."

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True, help="a name for the admin, e.g. Moodle")
        parser.add_argument("--issuer", required=True, help="the platform ID (iss)")
        parser.add_argument("--client-id", required=True)
        parser.add_argument("--deployment-id", required=True)
        parser.add_argument("--auth-url", required=True, help="the authentication request URL")
        parser.add_argument("--token-url", required=True, help="the access token URL")
        parser.add_argument("--keyset-url", required=True, help="the public keyset URL (JWKS)")
        parser.add_argument(
            "--service-host",
            action="append",
            default=[],
            help="a host (host or host:port) the LMS's scores or rosters are on besides the "
            "hosts of the URLs above; repeat for more",
        )

    def handle(self, *args, **o):
        if not Key.objects.exists():
            Key.objects.generate()
        reg, _made = LtiRegistration.objects.update_or_create(
            issuer=o["issuer"],
            client_id=o["client_id"],
            defaults={"name": o["name"], "auth_url": o["auth_url"], "token_url": o["token_url"],
                      "keyset_url": o["keyset_url"], "is_active": True},
        )  # fmt: skip
        LtiDeployment.objects.update_or_create(
            registration=reg, deployment_id=o["deployment_id"], defaults={"is_active": True}
        )
        if o["service_host"]:
            LtiHosts.objects.update_or_create(
                registration=reg, defaults={"hosts": "\n".join(o["service_host"])}
            )
        site = settings.CODEBLANKS.site_url.rstrip("/") or "https://<your CodeBlanks>"
        for label, url in (
            ("Tool URL / redirection URI", reverse("lti-launch")),
            ("Deep Linking URL", reverse("lti-launch")),
            ("Initiate login URL", reverse("lti-login", args=[reg.uuid])),
            ("Public keyset URL", reverse("lti-jwks")),
        ):
            self.stdout.write(f"{label}: {site}{url}")
        self.stdout.write(
            "Custom parameter per link: lesson=<lesson id>, or class=<join code> (the Deep "
            "Linking dialog fills it in)"
        )
