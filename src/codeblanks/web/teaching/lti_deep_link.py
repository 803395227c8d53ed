"""LTI Deep Linking: a teacher adds CodeBlanks lessons or a class to an LMS course from the
LMS's own dialog, instead of typing ``lesson=<id>`` by hand. The deep-linking launch (checked in
``lti.py``) signs the teacher in and keeps its settings in their session (``keep``); here they
pick lessons (by course, in path order) or their classes, and the answer goes to the LMS's
``deep_link_return_url``: a JWT signed with the tool's key (pylti1p3's ``DeepLink``), one
LtiResourceLink per item with the custom parameter the launch reads, ``lesson=<id>`` or
``class=<join code>``, and a line item for its points."""

from __future__ import annotations

import re
import secrets
from urllib.parse import urlsplit

from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from lti_tool.models import LtiLaunch, LtiRegistration
from pylti1p3.deep_link import DeepLink
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.lineitem import LineItem

from codeblanks.web.door.middleware import CSP
from codeblanks.web.pages import selectors
from codeblanks.web.teaching import classes, scores
from codeblanks.web.views.common import absolute_url

SETTINGS = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
KEPT = "codeblanks_deep_links"  # the session's open dialogs: key -> what the answer needs
KEEP_AT_MOST = 5  # dialogs open at once in one browser; the oldest is forgotten
MAX_ITEMS = 100
PLAIN_HOST = re.compile(r"[a-z0-9.-]+|[0-9a-f:.]+")  # a name or an address, nothing else


class PickError(ValueError):
    """What is wrong with the teacher's choice, in words."""


def return_origin(url: str) -> str | None:
    """The origin (``https://lms.example``) the answer is posted to, or None when the return
    URL is not a plain http(s) URL: it becomes a form's action, and its origin goes into the
    page's Content-Security-Policy as it is."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    host = parts.hostname or ""
    if parts.scheme not in ("http", "https") or not PLAIN_HOST.fullmatch(host):
        return None
    shown = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{shown}" + (f":{port}" if port else "")


def keep(request, launch: LtiLaunch) -> str:
    """Keep what the answer to this deep-linking launch needs in the (signed-in) session;
    the key that names it in the picker's URL."""
    key = secrets.token_urlsafe(16)
    kept = dict(list((request.session.get(KEPT) or {}).items())[-(KEEP_AT_MOST - 1) :])
    kept[key] = {
        "registration": launch.registration.pk,
        "deployment": launch.get_claim("https://purl.imsglobal.org/spec/lti/claim/deployment_id"),
        "settings": launch.get_claim(SETTINGS),
        "user": request.user.pk,
    }
    request.session[KEPT] = kept
    return key


def _kept(request, key: str) -> dict | None:
    found = (request.session.get(KEPT) or {}).get(key)
    if not found or found.get("user") != request.user.pk or not request.user.is_authenticated:
        return None
    return found


def _refused(request, message: str, status: int):
    return render(request, "teaching/lti_refused.html", {"message": message}, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def pick(request, key: str):
    """The picker (GET), and the signed answer to the LMS (POST, auto-submitted)."""
    kept = _kept(request, key)
    registration = (
        LtiRegistration.objects.filter(pk=kept["registration"], is_active=True).first()
        if kept
        else None
    )
    if kept is None or registration is None:
        message = _("This choice is not open any more: open the dialog from your LMS again.")
        return _refused(request, message, 400)
    settings = kept["settings"]
    multiple = settings.get("accept_multiple") in (True, "true")
    if request.method != "POST":
        return _picker(request, multiple)
    chosen = request.POST.getlist("item")
    code = request.POST.get("code", "").strip()[:20]
    try:
        items = _resources(request, chosen + ([f"code:{code}"] if code else []), multiple)
    except PickError as exc:
        return _picker(request, multiple, error=str(exc), chosen=chosen, code=code, status=400)
    token = DeepLink(registration.to_registration(), kept["deployment"], settings).get_response_jwt(
        items
    )
    request.session[KEPT] = {k: v for k, v in request.session[KEPT].items() if k != key}
    url = settings["deep_link_return_url"]
    response = render(request, "teaching/lti_deep_link_return.html", {"url": url, "jwt": token})
    origin = return_origin(url)
    response["Content-Security-Policy"] = CSP.replace(
        "form-action 'self'", f"form-action 'self' {origin}"
    )
    return response


def _picker(
    request, multiple: bool, *, error: str = "", chosen=(), code: str = "", status: int = 200
):
    ticked = set(chosen)
    courses = [
        (course, [(lesson, f"lesson:{lesson.id}" in ticked) for lesson in course.lessons])
        for course in selectors.course_list()
    ]
    rooms = [(room, f"class:{room.pk}" in ticked) for room in classes.classes_taught(request.user)]
    context = {
        "courses": courses,
        "rooms": rooms,
        "kind": "checkbox" if multiple else "radio",
        "error": error,
        "code": code,
    }
    return render(request, "teaching/lti_deep_link.html", context, status=status)


def _resources(request, chosen: list[str], multiple: bool) -> list[DeepLinkResource]:
    """One resource link per item chosen (``lesson:<id>``, ``class:<its number>`` for one of
    the teacher's, ``code:<join code>`` for any class, as a class link names it anyway), in the
    order given; ``PickError`` for a choice that cannot be sent."""
    if not chosen:
        raise PickError(_("Choose a lesson or a class to add."))
    if len(chosen) > 1 and not multiple:
        raise PickError(_("Your LMS takes one item at a time here: choose one."))
    if len(chosen) > MAX_ITEMS:
        raise PickError(_("Choose at most %(n)s items at a time.") % {"n": MAX_ITEMS})
    url = absolute_url(request, reverse("lti-launch"))
    items = []
    for item in dict.fromkeys(chosen):
        title, custom, top = _item(request.user, item)
        line = LineItem().set_score_maximum(top).set_label(title).set_resource_id(item)
        items.append(
            DeepLinkResource()
            .set_url(url)
            .set_title(title)
            .set_custom_params(custom)
            .set_lineitem(line)
        )
    return items


def _item(user, item: str) -> tuple[str, dict[str, str], int]:
    """(title, custom parameters, points) of one item chosen."""
    kind, _colon, name = item.partition(":")
    if kind == "lesson" and (lesson := selectors.lesson_get(name)) is not None:
        return lesson.title, {"lesson": lesson.id}, scores.max_score(lesson)
    room = None
    if kind == "class" and name.isdigit() and len(name) < 12:
        room = classes.class_for_teacher(user, int(name))
    elif kind == "code":
        room = classes.class_by_code(name)
        if room is None:
            raise PickError(_("No class has this code."))
    if room is None:
        raise PickError(_("There is no lesson or class of yours %(item)s.") % {"item": item})
    rules = scores.room_rules(room)
    top = sum(scores.max_score(x, rules) for x, _cl in classes.class_lessons(room))
    return room.name, {"class": classes.shown_code(room.join_code)}, top or 1
