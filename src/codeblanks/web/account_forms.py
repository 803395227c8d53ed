"""The account forms: Django's own, with two changes. An e-mail address can be given at sign-up
(optional; it is what a password reset is sent to), and a password the validators refuse is
reported under the password field itself, not under its confirmation."""

from __future__ import annotations

from django import forms
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from codeblanks.web import mailer

LTI_PREFIX = "lti-"  # the accounts LTI launches make are named lti-<random> (teaching/lti.py)
LTI_SESSION = "codeblanks_lti"  # set in a session an LTI launch signed in (teaching/lti.py)


class _ErrorsUnderFirstPassword:
    """Django validates the second password field (``password2``) and puts "too short" under
    "Password confirmation"; the learner typed the password in the first one."""

    def validate_password_for_user(self, user, password_field_name="password2"):
        super().validate_password_for_user(user, password_field_name.replace("2", "1"))


class SignupForm(_ErrorsUnderFirstPassword, auth_forms.UserCreationForm):
    email = forms.EmailField(
        label=_("E-mail (optional)"),
        required=False,
        help_text=_("Only used to send you a link if you forget your password."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(auth_forms.UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_username(self):
        """Names starting ``lti-`` are kept for accounts made by LMS launches: none can be
        taken first by someone waiting for a learner's first launch (review S1)."""
        username = super().clean_username()
        if username.casefold().startswith(LTI_PREFIX):
            raise forms.ValidationError(
                _("Names starting with “%(prefix)s” are kept for accounts from an LMS; choose "
                  "another name.") % {"prefix": LTI_PREFIX},
                code="reserved",
            )  # fmt: skip
        return username


class PasswordChangeForm(_ErrorsUnderFirstPassword, auth_forms.PasswordChangeForm):
    pass


class SetPasswordForm(_ErrorsUnderFirstPassword, auth_forms.SetPasswordForm):
    pass


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's, but the message is rendered and sent after the answer (``mailer``): an address
    with an account is answered as fast as one without."""

    def send_mail(self, *args, **kwargs):
        send = super().send_mail
        mailer.later(lambda: send(*args, **kwargs))


class EmailForm(forms.ModelForm):
    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        help_text=_("Leave empty to have none; then a forgotten password cannot be reset."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta:
        model = User
        fields = ("email",)


class DeleteAccountForm(forms.Form):
    """Deleting an account asks for its password, so a borrowed open session cannot do it. An
    account an LTI launch made has none (its learner comes in through the LMS): in a session
    that launch signed in, typing the username confirms instead (review M4)."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user, *args, lti_session: bool = False, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)
        self.by_username = lti_session and not user.has_usable_password()
        if self.by_username:
            del self.fields["password"]
            self.fields["username"] = forms.CharField(
                label=_("Type your username, %(name)s, to confirm") % {"name": user.get_username()},
                widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
            )

    def clean_username(self):
        typed = self.cleaned_data["username"].strip()
        if typed != self.user.get_username():
            raise forms.ValidationError(_("That is not your username."), code="wrong_username")
        return typed

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."), code="wrong_password")
        return password
