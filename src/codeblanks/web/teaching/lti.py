"""LTI 1.3: a CodeBlanks lesson or class launched from an LMS (Moodle, Canvas, ...), and its
score sent back (docs/deploy.md, "LTI 1.3"). The protocol is django-lti's and pylti1p3's: the
OIDC login, the launch JWT checked against the platform's JWKS, the tool's own keys (its JWKS)
for the access token of Assignment and Grade Services. What is ours: which lesson or class a
launch opens (the link's custom parameter ``lesson=<id>`` or ``class=<join code>``), the
account it signs in, and the score (a lesson: the exercise and each question one point each;
a class: its lessons solved)."""

from __future__ import annotations

import hashlib
import logging
import threading
import time

import requests
from django.contrib.auth import get_user_model, login
from django.db import OperationalError, connections, transaction
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.csrf import csrf_exempt
from lti_tool.models import LtiLaunch
from lti_tool.utils import DjangoToolConfig, sync_data_from_launch
from lti_tool.views import jwks  # noqa: F401  (the tool's public keys, served at /lti/jwks)
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.contrib.django import DjangoCacheDataStorage, DjangoMessageLaunch, DjangoOIDCLogin
from pylti1p3.exception import LtiException, OIDCException
from pylti1p3.grade import Grade
from pylti1p3.service_connector import ServiceConnector

from codeblanks.web import selectors
from codeblanks.web.models import LessonProgress
from codeblanks.web.teaching import classes
from codeblanks.web.teaching.models import LtiGrade, Membership

log = logging.getLogger("codeblanks.lti")
# What pylti1p3 raises on what an LMS (or anyone) sent that does not check out.
REFUSED = (LtiException, OIDCException, requests.RequestException)
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
CUSTOM = "https://purl.imsglobal.org/spec/lti/claim/custom"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
TIMEOUT_S = 10  # every call to the LMS: its JWKS, its token endpoint, its scores
SENDING = threading.Lock()
LOCKED_TRIES = 20  # SQLite refuses a read while another connection writes: wait a little


class TimedSession(requests.Session):
    """pylti1p3 calls the LMS with no time limit; a platform that never answers must not
    hold a request (or a learner's run) for ever."""

    def request(self, *args, **kwargs):
        kwargs.setdefault("timeout", TIMEOUT_S)
        return super().request(*args, **kwargs)


def _refused(request, message: str, status: int = 400):
    return render(request, "teaching/lti_refused.html", {"message": message}, status=status)


@method_decorator(csrf_exempt, name="dispatch")
class LoginView(View):
    """The OIDC login initiation: the LMS calls it first, it answers with a redirect to the
    LMS's authorisation URL (a state cookie and a nonce kept for the launch)."""

    def get(self, request, registration_uuid):
        return self._login(request, registration_uuid, request.GET)

    def post(self, request, registration_uuid):
        return self._login(request, registration_uuid, request.POST)

    def _login(self, request, registration_uuid, params):
        target = params.get("target_link_uri")
        if not target:
            return HttpResponseBadRequest(_("The LMS sent no target_link_uri."))
        tool = DjangoToolConfig(registration_uuid)
        oidc = DjangoOIDCLogin(request, tool, launch_data_storage=DjangoCacheDataStorage())
        try:
            return oidc.redirect(target)
        except REFUSED as exc:
            return _refused(
                request, _("The LMS's login request was refused: %(why)s") % {"why": exc}
            )


def _account(launch: LtiLaunch):
    """The CodeBlanks account of the LMS's user: made on their first launch (no password: they
    come in through their LMS), then always the same."""
    lti_user = launch.user
    if lti_user.auth_user_id is None:
        digest = hashlib.sha256(f"{launch.registration.pk}:{lti_user.sub}".encode()).hexdigest()
        user, _made = get_user_model().objects.get_or_create(
            username=f"lti-{digest[:12]}",
            defaults={"first_name": (lti_user.given_name or "")[:150]},
        )
        if _made:
            user.set_unusable_password()
            user.save(update_fields=["password"])
        lti_user.auth_user = user
        lti_user.save(update_fields=["auth_user"])
    return lti_user.auth_user


def _grade_link(launch: LtiLaunch, user, **target) -> LtiGrade | None:
    ags = launch.get_claim(AGS) or {}
    if not ags.get("lineitem") or "https://purl.imsglobal.org/spec/lti-ags/scope/score" not in (
        ags.get("scope") or []
    ):
        return None  # the LMS asked for no grade on this link
    link, _made = LtiGrade.objects.update_or_create(
        user=user,
        lineitem=ags["lineitem"],
        defaults={
            "registration": launch.registration,
            "sub": launch.user.sub,
            "scope": list(ags["scope"]),
            **target,
        },
    )
    return link


@method_decorator(csrf_exempt, name="dispatch")
class LaunchView(View):
    """The launch: the id_token checked (signature against the LMS's JWKS, nonce, state,
    deployment), the learner signed in, the lesson or class opened."""

    def post(self, request):
        tool = DjangoToolConfig()
        message = DjangoMessageLaunch(
            request,
            tool,
            launch_data_storage=DjangoCacheDataStorage(),
            requests_session=TimedSession(),
        )
        try:
            message.validate()
        except REFUSED as exc:
            return _refused(request, _("This launch could not be checked: %(why)s") % {"why": exc})
        launch = LtiLaunch(message)
        sync_data_from_launch(launch, None)
        if not launch.deployment.is_active:
            return _refused(
                request,
                _(
                    "This LMS deployment is not active in CodeBlanks yet; an "
                    "administrator turns it on in the admin."
                ),
                403,
            )
        if not launch.is_resource_launch:
            return _refused(
                request, _("CodeBlanks opens lessons and classes only (resource links).")
            )
        return self._open(request, launch, launch.get_claim(CUSTOM) or {})

    def _open(self, request, launch, custom):
        """The lesson or class the link names, then (only then) the learner's account."""
        lesson = room = None
        if lesson_id := custom.get("lesson"):
            lesson = selectors.lesson_get(str(lesson_id))
            if lesson is None:
                message = _("There is no lesson %(lesson)s.") % {"lesson": repr(lesson_id)}
                return _refused(request, message, 404)
        elif code := custom.get("class"):
            room = classes.class_by_code(str(code))
            if room is None:
                return _refused(request, _("No class has this code."), 404)
        else:
            return _refused(
                request,
                _(
                    "The LMS link names no lesson: give it the custom "
                    "parameter lesson=<lesson id> or class=<join code>."
                ),
            )
        user = _account(launch)
        login(request, user, backend=MODEL_BACKEND)
        if lesson is not None:
            if link := _grade_link(launch, user, lesson_uuid=lesson.uuid, classroom=None):
                score_later(link)
            return redirect("lesson", lesson_id=lesson.id)
        if room.teacher_id != user.pk:
            Membership.objects.get_or_create(classroom=room, user=user)
        if link := _grade_link(launch, user, classroom=room, lesson_uuid=""):
            score_later(link)
        return redirect("classes")


def score(link: LtiGrade) -> tuple[float, float]:
    """(given, maximum) for what the link grades, from the learner's progress now."""
    if link.classroom is not None:
        uuids = list(link.classroom.lessons.values_list("lesson_uuid", flat=True))
        solved = LessonProgress.objects.filter(
            user_id=link.user_id, lesson_uuid__in=uuids, solved_at__isnull=False
        ).count()
        return float(solved), float(len(uuids) or 1)
    lesson = next((x for x in selectors.lesson_list() if x.uuid == link.lesson_uuid), None)
    points = 1 + (len(lesson.questions) if lesson else 0)
    row = LessonProgress.objects.filter(user_id=link.user_id, lesson_uuid=link.lesson_uuid).first()
    if row is None:
        return 0.0, float(points)
    given = (row.solved_at is not None) + row.answers.filter(correct=True).count()
    return float(given), float(points)


def send(link: LtiGrade) -> bool:
    """Send the link's score to the LMS when it changed since the last one sent; False (and
    the reason kept on the row, and logged) when the LMS refused or could not be reached."""
    given, maximum = score(link)
    if link.sent_score == given and not link.error:
        return True
    grade = (
        Grade()
        .set_score_given(given)
        .set_score_maximum(maximum)
        .set_timestamp(timezone.now().isoformat())
        .set_activity_progress("Completed" if given >= maximum else "InProgress")
        .set_grading_progress("FullyGraded")
        .set_user_id(link.sub)
    )
    connector = ServiceConnector(link.registration.to_registration(), TimedSession())
    service = AssignmentsGradesService(connector, {"scope": link.scope, "lineitem": link.lineitem})
    try:
        service.put_grade(grade)
    except REFUSED as exc:
        LtiGrade.objects.filter(pk=link.pk).update(error=str(exc)[:300])
        log.warning("LTI score for %s not sent: %s", link.lineitem, exc)
        return False
    LtiGrade.objects.filter(pk=link.pk).update(sent_score=given, sent_at=timezone.now(), error="")
    return True


def score_later(link: LtiGrade) -> None:
    """Send once the current transaction is committed (the progress it counts is saved), in a
    thread of its own: a slow LMS never holds the learner's run or answer."""

    def go():
        try:
            for attempt in range(LOCKED_TRIES):
                try:
                    with SENDING:  # one at a time: a second save sees the first's score sent
                        send(
                            LtiGrade.objects.select_related("registration", "classroom").get(
                                pk=link.pk
                            )
                        )
                    return
                except OperationalError:  # SQLite: a table the request is writing just now
                    time.sleep(0.05 * (attempt + 1))
            log.warning("LTI score for %s not sent: the database stayed locked", link.lineitem)
        except Exception:  # a thread has no caller to tell: log it, keep the server up
            log.exception("LTI score for %s failed", link.lineitem)
        finally:
            connections.close_all()

    transaction.on_commit(lambda: threading.Thread(target=go, daemon=True).start())


def progress_changed(user_id: int | None, lesson_uuid: str) -> None:
    """A learner's progress in a lesson changed: the links that grade it get the new score."""
    if user_id is None:
        return
    links = LtiGrade.objects.filter(user_id=user_id).select_related("registration", "classroom")
    for link in links:
        if link.lesson_uuid == lesson_uuid or (
            link.classroom is not None
            and link.classroom.lessons.filter(lesson_uuid=lesson_uuid).exists()
        ):
            score_later(link)
