"""Sign up, log in, log out, the account page (e-mail, change password, delete the account), and
password reset by e-mail (Django's own views). Whatever an anonymous visitor did before is moved
onto the account (``claims.learner_claim``) the moment they sign up or log in."""

from __future__ import annotations

import hashlib
import ipaddress
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from codeblanks.web.account_forms import (
    LTI_SESSION,
    DeleteAccountForm,
    EmailForm,
    PasswordChangeForm,
    PasswordResetForm,
    SetPasswordForm,
    SignupForm,
)
from codeblanks.web.door.addresses import client_address
from codeblanks.web.learner import claims, quotas
from codeblanks.web.learner.learners import SESSION_KEY, anon_key_from_session

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _in_words(wait: timedelta) -> str:
    minutes = max(1, round(wait.total_seconds() / 60))
    if minutes % 60 == 0:
        hours = minutes // 60
        return ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}


def axes_address(request) -> str | None:
    """The client's address for django-axes (``AXES_CLIENT_IP_CALLABLE``): REMOTE_ADDR, which
    uvicorn sets from a trusted proxy's X-Forwarded-For only; None when it is no IP address
    (axes keeps it in an address column, which PostgreSQL checks)."""
    address = request.META.get("REMOTE_ADDR") or ""
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return None


def axes_username(request, credentials=None) -> str:
    """The account name axes records (``AXES_USERNAME_CALLABLE``), as the log-in form would
    accept it: no NUL, at most the 150 characters a user name can have (axes keeps 255, and
    PostgreSQL refuses longer)."""
    name = (credentials or {}).get("username") or request.POST.get("username") or ""
    return str(name).replace("\x00", "")[:150]


def locked_out(request, original_response=None, credentials=None):
    """django-axes' answer once an address and account pair has used up its tries
    (``AXES_LOCKOUT_CALLABLE``): the log-in page's words, how long to wait, status 429."""
    wait = _in_words(settings.AXES_COOLOFF_TIME)
    text = _(
        "Too many wrong passwords for this account from your address. Try again in %(wait)s; "
        "each try before then starts the wait again. Forgot the password? Ask the site's "
        "administrator to set a new one."
    ) % {"wait": wait}
    return render(request, "accounts/locked_out.html", {"text": text, "wait": wait}, status=429)


def _next_url(request) -> str:
    """Where to go after signing up: a path on this site, else the home page. Only a path
    ("/..."): a bare word would be taken by ``redirect()`` for a view's name (a 500)."""
    url = request.POST.get("next") or request.GET.get("next") or ""
    if url.startswith("/") and url_has_allowed_host_and_scheme(
        url, {request.get_host()}, request.is_secure()
    ):
        return url
    return "/"


def _login_and_claim(request, user) -> None:
    anon_key = anon_key_from_session(request)
    # a user just signed up was not authenticated by a backend: name the one that knows them
    login(request, user, backend=getattr(user, "backend", None) or MODEL_BACKEND)
    claims.learner_claim(user_id=user.pk, anon_key=anon_key)
    request.session.pop(SESSION_KEY, None)


def _welcome(user) -> str:
    """Said once, on the page sign-up leads to (the learner trial's F16): the account exists and
    the progress made before it came along."""
    return _("Welcome, %(name)s! Your account is ready: your progress is saved to it.") % {
        "name": user.get_username()
    }


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request):
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        _login_and_claim(request, user)
        messages.success(request, _welcome(user))
        return redirect(_next_url(request))
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "accounts/signup.html",
        {"form": form, "next": _next_url(request)},
        status=status,
    )


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def form_valid(self, form):
        _login_and_claim(self.request, form.get_user())
        return redirect(self.get_success_url())


class LogoutView(auth_views.LogoutView):
    pass


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def account(request):
    """The account page: the e-mail address (where a reset link goes) and the ways out."""
    form = EmailForm(request.POST or None, instance=request.user)
    saved = False
    if request.method == "POST" and form.is_valid():
        form.save()
        saved = True
    status = 400 if request.method == "POST" and not saved else 200
    return render(request, "accounts/account.html", {"form": form, "saved": saved}, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def account_delete(request):
    """Delete the account with everything kept for it (progress, answers, runs, tokens: their
    rows cascade), after the password is given again."""
    lti = bool(request.session.get(LTI_SESSION))
    form = DeleteAccountForm(request.user, request.POST or None, lti_session=lti)
    if request.method == "POST" and form.is_valid():
        user = request.user
        logout(request)
        user.delete()
        return render(request, "accounts/account_deleted.html")
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/account_delete.html", {"form": form}, status=status)


# Django's own views with our templates (accounts/, not registration/, which the admin's
# templates would win over) and our forms.
class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = PasswordChangeForm
    template_name = "accounts/password_change_form.html"


class PasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    template_name = "accounts/password_change_done.html"


RESETS_PER_ADDRESS = 10  # password-reset requests per client address per hour
RESETS_PER_EMAIL = 3  # per e-mail address asked for per hour, whether it has an account or not
HOUR = 3600


def reset_refusal(request, email: str) -> str | None:
    """Why this reset request is refused (too many this hour from the address, or for the
    e-mail address), or None. Both are counted every time, for addresses with an account and
    without alike, so the answer says nothing about which it is."""
    mailbox = hashlib.sha256(email.strip().lower().encode()).hexdigest()[:32]
    by_address = quotas.window_count(f"resets:from:{client_address(request)}", HOUR)
    by_email = quotas.window_count(f"resets:to:{mailbox}", HOUR)
    if (by_address or 0) <= RESETS_PER_ADDRESS and (by_email or 0) <= RESETS_PER_EMAIL:
        return None
    return _(
        "Too many password-reset requests this hour, from your address or for this e-mail "
        "address; no link was sent. Try again in %(wait)s."
    ) % {"wait": _in_words(quotas.window_left(HOUR))}


class PasswordResetView(auth_views.PasswordResetView):
    """Django's, with three changes: the link in the message is built from CODEBLANKS_SITE_URL,
    never from the request's Host (no site URL: no reset by e-mail, said in words); requests
    are throttled per address and per e-mail address (``reset_refusal``); and the message goes
    out after the answer (``PasswordResetForm``)."""

    form_class = PasswordResetForm
    template_name = "accounts/password_reset_form.html"
    subject_template_name = "accounts/password_reset_subject.txt"
    email_template_name = "accounts/password_reset_email.txt"

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "reset_off": not _site_url()}

    def post(self, request, *args, **kwargs):
        if not _site_url():
            return self.render_to_response(self.get_context_data(), status=503)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        refusal = reset_refusal(self.request, form.cleaned_data["email"])
        if refusal:
            form.add_error(None, refusal)
            return self.render_to_response(self.get_context_data(form=form), status=429)
        site = urlsplit(_site_url())
        form.save(
            domain_override=site.netloc,
            use_https=site.scheme == "https",
            token_generator=self.token_generator,
            from_email=self.from_email,
            email_template_name=self.email_template_name,
            subject_template_name=self.subject_template_name,
            request=self.request,
        )
        return redirect(self.get_success_url())


def _site_url() -> str:
    return settings.CODEBLANKS.site_url


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    form_class = SetPasswordForm
    template_name = "accounts/password_reset_confirm.html"


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"
