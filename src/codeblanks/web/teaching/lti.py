"""LTI 1.3: a CodeBlanks lesson or class launched from an LMS (Moodle, Canvas, ...), and its
score sent back (docs/deploy.md, "LTI 1.3"). The protocol is django-lti's and pylti1p3's: the
OIDC login, the launch JWT checked against the platform's JWKS, the tool's own keys (its JWKS)
for the access token of Assignment and Grade Services. What is ours: which lesson or class a
launch opens (the link's custom parameter ``lesson=<id>`` or ``class=<join code>``), the
account it signs in, and the score (a lesson: the exercise and each question one point each,
a class: its lessons' points added up, by the class's rules; ``scores.py``). Beside it: the
hosts the LMS's services may be on (``lti_hosts``), the course's names (``lti_names``,
NRPS) and the LMS's dialog to add lessons (``lti_deep_link``, Deep Linking)."""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import time
from datetime import datetime

import requests
from django.contrib.auth import get_user_model, login
from django.core.cache import cache
from django.db import DataError, OperationalError, connections, transaction
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.csrf import csrf_exempt
from lti_tool.models import LtiLaunch, LtiUser
from lti_tool.utils import DjangoToolConfig, sync_data_from_launch
from lti_tool.views import jwks  # noqa: F401  (the tool's public keys, served at /lti/jwks)
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.contrib.django import DjangoCacheDataStorage, DjangoMessageLaunch, DjangoOIDCLogin
from pylti1p3.exception import LtiException, OIDCException
from pylti1p3.grade import Grade
from pylti1p3.service_connector import ServiceConnector

from codeblanks.content.model import Lesson
from codeblanks.web.account_forms import LTI_PREFIX, LTI_SESSION
from codeblanks.web.pages import selectors
from codeblanks.web.teaching import classes, lti_deep_link, lti_names, scores
from codeblanks.web.teaching.lti_hosts import (  # noqa: F401  (RefusedHost: raised for callers)
    RefusedHost,
    RegistrationSession,
    TimedSession,
    service_url_refusal,
)
from codeblanks.web.teaching.lti_names import take_name
from codeblanks.web.teaching.models import Extension, LtiGrade

log = logging.getLogger("codeblanks.lti")
# What pylti1p3 raises on what an LMS (or anyone) sent that does not check out.
REFUSED = (LtiException, OIDCException, requests.RequestException)
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
LTI = "https://purl.imsglobal.org/spec/lti/claim/"
CUSTOM = LTI + "custom"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership"
DEEP_LINKING = lti_deep_link.SETTINGS
# The context roles that teach: one who launches a class with one of them co-teaches it (and
# is never its learner). Their full URIs, the Instructor's sub-roles (TA, Grader, ...), and
# the short names LTI 1.3 still allows for context roles. Institution roles do not count: a
# faculty member may take a course as a learner.
TEACHING_ROLES = {
    MEMBERSHIP + "#Instructor", MEMBERSHIP + "#TeachingAssistant", MEMBERSHIP + "#Administrator",
    MEMBERSHIP + "#ContentDeveloper", "Instructor", "TeachingAssistant",
}  # fmt: skip
# How long a used state or nonce is remembered: as long as pylti1p3 keeps the nonce and the
# state's parameters from the login (SessionService's launch data lifetime), so a launch
# cannot be used again once they are forgotten either.
USED_FOR_S = 24 * 3600
SENDING = threading.Lock()
LOCKED_TRIES = 20  # SQLite refuses a read while another connection writes: wait a little
SENDER_NAME = "lti-score"  # the threads that send scores (a test waits for them to finish)


def _refused(request, message: str, status: int = 400):
    return render(request, "teaching/lti_refused.html", {"message": message}, status=status)


class OIDCLogin(DjangoOIDCLogin):
    """pylti1p3's login, with the nonce kept with the state: a launch must bring back the
    nonce given with its own state, not one of another login."""

    def _generate_nonce(self) -> str:
        nonce = super()._generate_nonce()
        self._state_params = {"nonce": nonce}  # saved with the state, right after
        return nonce


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
        oidc = OIDCLogin(request, tool, launch_data_storage=DjangoCacheDataStorage())
        try:
            return oidc.redirect(target)
        except REFUSED as exc:
            return _refused(
                request, _("The LMS's login request was refused: %(why)s") % {"why": exc}
            )


# The claims this tool and django-lti read, by the type they must have when present (the LTI 1.3
# core spec's): a launch whose claim has another type is refused in words (review S8), never
# met later by an AttributeError. Parts of object claims are given as "claim/part".
OBJECT_CLAIMS = (
    CUSTOM, AGS, NRPS, LTI + "context", LTI + "resource_link", LTI + "tool_platform",
    LTI + "launch_presentation", LTI + "lti1p1", LTI + "platformnotificationservice",
    DEEP_LINKING,
)  # fmt: skip
STRING_CLAIMS = (
    "iss", "nonce", LTI + "deployment_id", "sub", "given_name", "family_name", "name", "email",
    "picture", LTI + "message_type",
)  # fmt: skip
STRING_PARTS = {
    AGS: ("lineitem", "lineitems"),
    NRPS: ("context_memberships_url",),
    LTI + "context": ("id", "title", "label"),
    LTI + "resource_link": ("id", "title", "description"),
    LTI + "tool_platform": ("guid", "name", "url", "contact_email", "description", "version",
                            "product_family_code"),
    LTI + "platformnotificationservice": ("platform_notification_service_url",),
    DEEP_LINKING: ("deep_link_return_url", "title", "text"),
}  # fmt: skip
LIST_PARTS = {
    AGS: ("scope",),
    LTI + "context": ("type",),
    LTI + "platformnotificationservice": ("notice_types_supported",),
    DEEP_LINKING: ("accept_types", "accept_presentation_document_targets"),
}
MAX_SUB = 255  # django-lti's column; the spec's limit too
REQUIRED_PARTS = {
    NRPS: "context_memberships_url",
    LTI + "tool_platform": "guid",
    DEEP_LINKING: "deep_link_return_url",
}


def _short(claim: str) -> str:
    return claim.rsplit("/", 1)[-1]


def _is_strings(value) -> bool:
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


def claims_problem(body: dict) -> str | None:
    """What is wrong with the types of the launch's claims, in words; None when nothing is."""
    wrong = _("the claim %(claim)s must be %(kind)s")
    if body.get(LTI + "message_type") == "LtiDeepLinkingRequest" and body.get(DEEP_LINKING) is None:
        return _("a deep-linking request must carry the claim deep_linking_settings")
    aud = body.get("aud")
    if aud is not None and not isinstance(aud, str) and not _is_strings(aud):
        return wrong % {"claim": "aud", "kind": _("a string")}
    roles = body.get(LTI + "roles")
    if roles is not None and not _is_strings(roles):
        return wrong % {"claim": "roles", "kind": _("a list of strings")}
    for claim in STRING_CLAIMS:
        if body.get(claim) is not None and not isinstance(body[claim], str):
            return wrong % {"claim": claim, "kind": _("a string")}
    if len(body.get("sub") or "") > MAX_SUB:
        return wrong % {
            "claim": "sub",
            "kind": _("at most %(count)s characters") % {"count": MAX_SUB},
        }
    for claim in OBJECT_CLAIMS:
        value = body.get(claim)
        if value is None:
            continue
        if not isinstance(value, dict):
            return wrong % {"claim": _short(claim), "kind": _("a JSON object")}
        if (part := REQUIRED_PARTS.get(claim)) and value.get(part) is None:
            return wrong % {"claim": f"{_short(claim)}/{part}", "kind": _("a string")}
        for part in STRING_PARTS.get(claim, ()):
            if value.get(part) is not None and not isinstance(value[part], str):
                return wrong % {"claim": f"{_short(claim)}/{part}", "kind": _("a string")}
        for part in LIST_PARTS.get(claim, ()):
            if value.get(part) is not None and not _is_strings(value[part]):
                kind = _("a list of strings")
                return wrong % {"claim": f"{_short(claim)}/{part}", "kind": kind}
    return None


def _used_key(kind: str, value: str) -> str:
    return f"codeblanks:lti-used:{kind}:" + hashlib.sha256(value.encode()).hexdigest()


class MessageLaunch(DjangoMessageLaunch):
    """pylti1p3's launch check, stricter where it lets a launch through twice (review S2, S3):
    the state must match this browser's state cookie (pylti1p3 also takes a state it saw
    before with the same id_token, from any browser); the nonce must be the one given with
    that state; both are used up on the first launch, atomically in the cache every node
    shares; ``exp`` and ``iat`` must be there; the claims we read must have their types."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._jwt_verify_options = {"verify_aud": False, "require": ["exp", "iat"]}

    def validate_state(self):
        state = self._get_request_param("state")
        if not state:
            raise LtiException(_("the launch has no state"))
        if self._cookie_service.get_cookie(state) != state:
            raise LtiException(_("this browser did not start this launch (no state cookie for it)"))
        return self

    def validate_jwt_format(self):
        super().validate_jwt_format()
        if not isinstance(self._jwt.get("header"), dict) or not isinstance(
            self._jwt.get("body"), dict
        ):
            raise LtiException(_("the id_token's header and body must be JSON objects"))
        if why := claims_problem(self._jwt["body"]):
            raise LtiException(why)
        return self

    def validate_nonce(self):
        super().validate_nonce()
        state = self._get_request_param("state")
        given = (self._session_service.get_state_params(state) or {}).get("nonce")
        if given is None or given != self._jwt["body"].get("nonce"):
            raise LtiException(_("the nonce is not the one given for this launch's state"))
        return self

    def save_launch_data(self):
        """Instead of keeping the launch for later (nothing here reads it back), use up its
        state and nonce: ``cache.add`` is atomic, so of two launches at once one gets in."""
        body = self._jwt["body"]
        for kind, value in (("state", self._get_request_param("state")), ("nonce", body["nonce"])):
            if not cache.add(_used_key(kind, str(value)), 1, timeout=USED_FOR_S):
                raise LtiException(_("this launch was used already; start it again from the LMS"))
        return self


def _account(launch: LtiLaunch):
    """The CodeBlanks account of the LMS's user, found only through their (registration, sub)
    row: made on their first launch, with a random name no one can sign up first (sign-up
    refuses the ``lti-`` prefix anyway) and no password (they come in through their LMS)."""
    lti_user = launch.user
    while lti_user.auth_user_id is None:
        user = get_user_model()(
            username=LTI_PREFIX + secrets.token_hex(8),
            first_name=(lti_user.given_name or "")[:150],
        )
        user.set_unusable_password()
        user.save()
        # Two first launches at once: the row is taken by one; the other's account goes.
        if LtiUser.objects.filter(pk=lti_user.pk, auth_user__isnull=True).update(auth_user=user):
            lti_user.auth_user = user
        else:
            user.delete()
            lti_user.refresh_from_db(fields=["auth_user"])
    return lti_user.auth_user


def teaches(roles) -> bool:
    """Whether the launch's roles claim names a teaching role in the context (the LMS course)."""
    return any(
        role in TEACHING_ROLES or role.startswith(MEMBERSHIP + "/Instructor#")
        for role in roles or ()
    )


def _grade_link(launch: LtiLaunch, user, **target) -> LtiGrade | None:
    ags = launch.get_claim(AGS) or {}
    lineitem = ags.get("lineitem")
    if not lineitem or SCORE_SCOPE not in (ags.get("scope") or []):
        return None  # the LMS asked for no grade on this link
    if len(lineitem) > (LtiGrade._meta.get_field("lineitem").max_length or 0):
        log.warning("LTI: line item URL too long to keep (%s characters)", len(lineitem))
        return None
    if why := service_url_refusal(launch.registration, lineitem):
        log.warning("LTI: no grade for line item %s: %s", lineitem, why)
        return None
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
        message = MessageLaunch(
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
        try:
            with transaction.atomic():
                sync_data_from_launch(launch, None)
        except DataError:  # PostgreSQL: a value longer than django-lti's column
            return _refused(request, _("The LMS sent a value too long to keep."))
        if not launch.deployment.is_active:
            return _refused(
                request,
                _(
                    "This LMS deployment is not active in CodeBlanks yet; an "
                    "administrator turns it on in the admin."
                ),
                403,
            )
        if launch.is_deep_link_launch:
            return self._deep_link(request, launch)
        if not launch.is_resource_launch:
            return _refused(
                request, _("CodeBlanks opens lessons and classes only (resource links).")
            )
        return self._open(request, launch, launch.get_claim(CUSTOM) or {})

    def _deep_link(self, request, launch):
        """The LMS's dialog to add content: a teacher of the course, signed in, picks lessons
        or a class (``lti_deep_link.pick``); anyone else is refused."""
        if not teaches(launch.get_claim(LTI + "roles")):
            message = _("Only a teacher of the course (an Instructor or a TA) can add "
                        "CodeBlanks lessons to it.")  # fmt: skip
            return _refused(request, message, 403)
        url = launch.get_claim(DEEP_LINKING)["deep_link_return_url"]
        if lti_deep_link.return_origin(url) is None:
            message = _("The LMS's deep_link_return_url is not an http(s) URL: %(url)s")
            return _refused(request, message % {"url": url[:200]})
        user = _account(launch)
        take_name(user, launch.get_launch_data() or {})
        login(request, user, backend=MODEL_BACKEND)
        request.session[LTI_SESSION] = True
        return redirect("lti-deep-link", key=lti_deep_link.keep(request, launch))

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
        take_name(user, launch.get_launch_data() or {})
        login(request, user, backend=MODEL_BACKEND)
        request.session[LTI_SESSION] = True  # may delete the account without a password
        teacher = teaches(launch.get_claim(LTI + "roles"))
        if lesson is not None:
            if not teacher and (
                link := _grade_link(launch, user, lesson_uuid=lesson.uuid, classroom=None)
            ):
                score_later(link)
            return redirect("lesson", lesson_id=lesson.id)
        lti_names.remember(launch, room)  # where the course's names are (NRPS), if sent
        if teacher:  # an Instructor or TA: co-teaches the class, never graded in it
            classes.make_co_teacher(room, user)
            lti_names.sync_after_launch(room)
            return redirect("class-detail", room_id=room.pk)
        if not room.is_taught_by(user):
            classes.class_join(user, room)  # back in, if the teacher had removed them
        if link := _grade_link(launch, user, classroom=room, lesson_uuid=""):
            score_later(link)
        return redirect("classes")


def score(link: LtiGrade) -> tuple[float, float]:
    """(given, maximum) for what the link grades, from the learner's progress now: a lesson's
    points, or a class's lessons' points added up by the class's rules (``scores.py``: the best
    kept, the answers seen counting only if the class says so), exactly as the roster shows."""
    policy = scores.ON_TIME
    lessons: list[tuple[Lesson, datetime | None]] = []
    if link.classroom is not None:
        room = link.classroom
        policy = scores.room_rules(room)
        own = dict(
            Extension.objects.filter(
                user_id=link.user_id, class_lesson__classroom=room
            ).values_list("class_lesson__lesson_uuid", "due_at")
        )
        lessons = [(x, own.get(x.uuid, cl.due_at)) for x, cl in classes.class_lessons(room)]
    else:
        found = [x for x in selectors.lesson_list() if x.uuid == link.lesson_uuid][:1]
        lessons = [(x, None) for x in found]
    given, top = 0.0, 0
    for lesson, due in lessons:
        points = scores.score_of(link.user_id, lesson, due, policy)
        given, top = given + points.score, top + points.max_score
    return float(given), float(top or 1)


def send(link: LtiGrade) -> bool:
    """Send the link's score to the LMS when it changed since the last one sent; False (and
    the reason kept on the row, and logged) when the LMS refused or could not be reached."""
    given, maximum = score(link)
    if link.sent_score == given and link.sent_maximum == maximum and not link.error:
        return True
    if why := service_url_refusal(link.registration, link.lineitem):
        LtiGrade.objects.filter(pk=link.pk).update(error=why[:300])
        log.warning("LTI score for %s not sent: %s", link.lineitem, why)
        return False
    grade = (
        Grade()
        .set_score_given(given)
        .set_score_maximum(maximum)
        .set_timestamp(timezone.now().isoformat())
        .set_activity_progress("Completed" if given >= maximum else "InProgress")
        .set_grading_progress("FullyGraded")
        .set_user_id(link.sub)
    )
    session = RegistrationSession(link.registration)
    connector = ServiceConnector(link.registration.to_registration(), session)
    service = AssignmentsGradesService(connector, {"scope": link.scope, "lineitem": link.lineitem})
    try:
        service.put_grade(grade)
    except REFUSED as exc:
        LtiGrade.objects.filter(pk=link.pk).update(error=str(exc)[:300])
        log.warning("LTI score for %s not sent: %s", link.lineitem, exc)
        return False
    LtiGrade.objects.filter(pk=link.pk).update(
        sent_score=given, sent_maximum=maximum, sent_at=timezone.now(), error=""
    )
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

    start = threading.Thread(target=go, daemon=True, name=SENDER_NAME).start
    transaction.on_commit(start)


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


def class_rescored(room_id: int) -> None:
    """The class's score rules changed: each of its LMS learners' scores is sent again now (one
    that did not change is not sent)."""
    for link in LtiGrade.objects.filter(classroom_id=room_id):
        score_later(link)
