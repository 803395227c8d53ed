"""Sign up, log in, log out. Whatever an anonymous visitor did before is moved onto the account
(``services.learner_claim``) the moment they sign up or log in."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from codeblanks.web import services
from codeblanks.web.learners import SESSION_KEY, anon_key_from_session

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _in_words(wait: timedelta) -> str:
    minutes = max(1, round(wait.total_seconds() / 60))
    if minutes % 60 == 0:
        hours = minutes // 60
        return f"{hours} hour" if hours == 1 else f"{hours} hours"
    return f"{minutes} minute" if minutes == 1 else f"{minutes} minutes"


def locked_out(request, original_response=None, credentials=None):
    """django-axes' answer once an address and account pair has used up its tries
    (``AXES_LOCKOUT_CALLABLE``): the log-in page's words, how long to wait, status 429."""
    wait = _in_words(settings.AXES_COOLOFF_TIME)
    text = (
        f"Too many wrong passwords for this account from your address. Try again in {wait}; "
        "each try before then starts the wait again. Forgot the password? Ask the site's "
        "administrator to set a new one."
    )
    return render(request, "registration/locked_out.html", {"text": text, "wait": wait}, status=429)


def _next_url(request) -> str:
    url = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(url, {request.get_host()}, request.is_secure()):
        return url
    return "/"


def _login_and_claim(request, user) -> None:
    anon_key = anon_key_from_session(request)
    # a user just signed up was not authenticated by a backend: name the one that knows them
    login(request, user, backend=getattr(user, "backend", None) or MODEL_BACKEND)
    services.learner_claim(user_id=user.pk, anon_key=anon_key)
    request.session.pop(SESSION_KEY, None)


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request):
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        _login_and_claim(request, user)
        return redirect(_next_url(request))
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": _next_url(request)},
        status=status,
    )


class LoginView(auth_views.LoginView):
    redirect_authenticated_user = True

    def form_valid(self, form):
        _login_and_claim(self.request, form.get_user())
        return redirect(self.get_success_url())


class LogoutView(auth_views.LogoutView):
    pass
