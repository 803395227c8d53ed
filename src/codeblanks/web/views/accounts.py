"""Sign up, log in, log out. Whatever an anonymous visitor did before is moved onto the account
(``services.learner_claim``) the moment they sign up or log in."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from codeblanks.web import services
from codeblanks.web.learners import SESSION_KEY, anon_key_from_session


def _next_url(request) -> str:
    url = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(url, {request.get_host()}, request.is_secure()):
        return url
    return "/"


def _login_and_claim(request, user) -> None:
    anon_key = anon_key_from_session(request)
    login(request, user)
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
