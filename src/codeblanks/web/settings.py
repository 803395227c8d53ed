"""Django settings. Every value an operator can change comes from ``codeblanks.web.config`` (the
``CODEBLANKS_*`` environment variables, read once at import); the rest is fixed here."""

from __future__ import annotations

from datetime import timedelta

from codeblanks import i18n
from codeblanks.web import config as _config
from codeblanks.web.door import logs as _logs

CONFIG = _config.from_env()

SECRET_KEY = CONFIG.secret_key
DEBUG = CONFIG.debug
ALLOWED_HOSTS = list(CONFIG.allowed_hosts)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "axes",
    "codeblanks.web.apps.WebConfig",
    "lti_tool",  # django-lti: LMS registrations, deployments and the tool's keys
    "codeblanks.web.teaching.apps.TeachingConfig",
]

MIDDLEWARE = [
    "codeblanks.web.door.outages.database_outage",  # a 500 while the database is away: 503 in words
    "django.middleware.security.SecurityMiddleware",
    # outside StaticFiles: static files get it too
    "codeblanks.web.door.middleware.security_headers",
    "codeblanks.web.door.middleware.body_refusal",  # a body bodies.py refused (asgi.py)
    "codeblanks.web.door.middleware.StaticFiles",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # ?lang=, the account's, the session's, the browser's
    "codeblanks.web.door.languages.languages",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a locked-out log-in into our page
]
# The JSON API (/api/...) is served by its own handler (asgi.py) with only these: it has no
# session, CSRF or login by design (docs/api.md), and every one of them runs on the event loop.
# Adding to MIDDLEWARE? Decide whether the API needs it too.
API_MIDDLEWARE = [
    "codeblanks.web.door.languages.api_languages",  # ?lang= or Accept-Language; Content-Language
    "codeblanks.web.door.middleware.api_security",  # SecurityMiddleware, in the loop
    "codeblanks.web.door.middleware.security_headers",
    "codeblanks.web.door.middleware.body_refusal",
    "codeblanks.web.door.middleware.api_common",  # CommonMiddleware: ALLOWED_HOSTS, user agents
    "codeblanks.web.door.middleware.api_xframe",  # XFrameOptionsMiddleware
]

# The lesson page's Run (POST /lessons/<id>/run) is served by its own handler (door/runpath.py)
# with only what a Run needs of MIDDLEWARE, in the same order; left out: StaticFiles (never a
# static path), MessageMiddleware (a Run neither adds nor shows a message) and AxesMiddleware
# (only a log-in can be locked out). Adding to MIDDLEWARE? Decide whether the Run needs it too.
RUN_MIDDLEWARE = [
    "codeblanks.web.door.outages.database_outage",
    "django.middleware.security.SecurityMiddleware",
    "codeblanks.web.door.middleware.security_headers",
    "codeblanks.web.door.middleware.body_refusal",
    "django.contrib.sessions.middleware.SessionMiddleware",  # the learner's key
    "django.middleware.common.CommonMiddleware",  # ALLOWED_HOSTS, user agents
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",  # a signed-in learner
    "codeblanks.web.door.languages.languages",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",  # the partial or the whole page
]

# Bodies are read whole in memory by asgi.py (bodies.py), bounded in size and time, so Django's
# own limits only repeat the size bound, and nothing is ever spooled to disk.
DATA_UPLOAD_MAX_MEMORY_SIZE = CONFIG.max_body_bytes
FILE_UPLOAD_MAX_MEMORY_SIZE = CONFIG.max_body_bytes

ROOT_URLCONF = "codeblanks.web.urls"
ASGI_APPLICATION = "codeblanks.web.door.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",  # LANGUAGE_CODE, LANGUAGES
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    }
]

DATABASES = {"default": _config.database(CONFIG.database_url)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
CACHES = {"default": _config.cache(CONFIG.cache_url)}
if CONFIG.node_socket and CACHES["default"]["BACKEND"].endswith("LocMemCache"):
    # A worker of `serve --workers N`: its limits are the node's, kept by the parent.
    CACHES["default"] = {
        "BACKEND": "codeblanks.web.door.sharedcache.SharedCache",
        "LOCATION": CONFIG.node_socket,
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Log-in throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one account from
# one address, that pair waits AXES_COOLOFF_TIME (each try meanwhile starts the wait again) and
# is told so in words, on /accounts/login/ and /admin/login/. Attempts live in the database, so
# every node sees them. The address is REMOTE_ADDR: a forwarded one only from a trusted proxy.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["ip_address", "username"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "codeblanks.web.views.accounts.axes_address"
AXES_USERNAME_CALLABLE = "codeblanks.web.views.accounts.axes_username"
AXES_LOCKOUT_CALLABLE = "codeblanks.web.views.accounts.locked_out"
AXES_VERBOSE = False

# E-mail (password resets): CODEBLANKS_EMAIL_URL, printed on the console unless set.
globals().update(_config.email(CONFIG.email_url))
DEFAULT_FROM_EMAIL = CONFIG.email_from
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24  # a reset link works for a day

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Sessions live in the database so every node behind a load balancer sees them. On SQLite served
# by one process, each is also kept in that process's memory (read on every request: one query
# fewer each). Not with PostgreSQL, nor with several web workers: a process's own memory would
# keep a session another one ended, and a shared Redis would make every page depend on it (the
# rate limits outlive its loss).
if DATABASES["default"]["ENGINE"].endswith("sqlite3") and not CONFIG.node_socket:
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    SESSION_CACHE_ALIAS = "sessions"
    CACHES["sessions"] = {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "codeblanks-sessions",
        "OPTIONS": {"MAX_ENTRIES": 10_000},  # a few MB; past it, sessions come from the database
    }
else:
    SESSION_ENGINE = "django.contrib.sessions.backends.db"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 90  # anonymous learners keep their progress for 90 days
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
CSRF_FAILURE_VIEW = "codeblanks.web.views.pages.csrf_failure"
# Cookies get the Secure flag per request when it came over HTTPS (see middleware.py); the
# scheme comes from uvicorn's proxy headers (CODEBLANKS_FORWARDED_ALLOW_IPS) behind a proxy.

# HSTS only on answers that came over HTTPS (SecurityMiddleware checks request.is_secure()).
SECURE_HSTS_SECONDS = CONFIG.hsts_seconds
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# The interface's languages (codeblanks.i18n): one catalogue, beside i18n.py, for Django and the
# grader alike.
LANGUAGE_CODE = i18n.DEFAULT
LANGUAGES = list(i18n.LANGUAGES.items())
LOCALE_PATHS = [i18n.LOCALE_DIR]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
# Static files are served by whitenoise straight from the package (no collectstatic step):
# they change only with a new release, so every node serves the same bytes.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_MAX_AGE = 3600

LOGGING = _logs.logging_config(CONFIG.log_format)  # JSON lines, or text on a terminal

CODEBLANKS = CONFIG  # the rest of the app reads django.conf.settings.CODEBLANKS
