"""Settings read from the environment (12-factor); README.md lists every variable.

- DEBUG: off unless "1"/"true". SECRET_KEY: required unless DEBUG (then kept in SECRET_KEY_FILE).
- ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS: comma-separated; ALLOWED_HOSTS defaults to localhost
  when DEBUG, to nothing otherwise.
- DATABASE_URL: any dj-database-url URL; default SQLite in the repository (db.sqlite3).
- REDIS_URL: Celery broker and result store; unset means tasks run in-process.
- CELERY_TASK_ALWAYS_EAGER, CELERY_TASK_DEFAULT_QUEUE, CELERY_VISIBILITY_TIMEOUT: Celery.
- SECURE_SSL_REDIRECT, SECURE_HSTS_SECONDS: production hardening, on unless DEBUG.
- LOG_LEVEL: root log level (INFO).
- STATIC_ROOT: where collectstatic puts the static files (default: staticfiles/ in a checkout).
- YOMI_ENGINE: which build of the rules engine runs (rules_engine/build.py; read there).
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key

BASE_DIR = Path(__file__).resolve().parent.parent
# The site's templates and static files: inside this package where it is installed from the
# wheel (setup.py puts them there), at the top of the repository in a checkout.
SITE_DIR = Path(__file__).resolve().parent
SITE_FILES_DIR = SITE_DIR if (SITE_DIR / "templates").is_dir() else BASE_DIR


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no)")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)

def debug_secret_key(path: Path) -> str:
    """The development key kept in ``path``, created once, the same for every process.

    A random key per process made each gunicorn worker reject the others' session cookies (a
    login "dropped" on every other request). The first process writes a new key to a temporary
    file and links it into place (atomic: one winner); every other one reads the winner's key.
    """
    for _ in range(50):
        try:
            key = path.read_text().strip()
        except FileNotFoundError:
            key = ""
        if key:
            return key
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(get_random_secret_key() + "\n")
        tmp.chmod(0o600)
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another process won: read its key
        finally:
            tmp.unlink(missing_ok=True)
    raise ImproperlyConfigured(f"cannot read or create the development secret key at {path}")


SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    # Development only: one key for every process, kept beside the code (git-ignored).
    SECRET_KEY = debug_secret_key(
        Path(os.environ.get("SECRET_KEY_FILE", "") or BASE_DIR / ".secret_key")
    )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    # first: its runserver serves websockets too (ASGI), so `make run` has live match rooms
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_ratelimit",
    "health",
    "matches",
    "tournaments",
    "stats",
    "accounts",
    "notifications",
    "simulations",
    "channels",
    "rooms",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",  # the Content-Security-Policy header (below)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "yomi_site.urls"
WSGI_APPLICATION = "yomi_site.wsgi.application"
ASGI_APPLICATION = "yomi_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [SITE_FILES_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournaments.context_processors.open_sets",
                "notifications.context_processors.unread_notifications",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# where collectstatic gathers the files whitenoise serves (the image: /app/staticfiles)
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", "") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [SITE_FILES_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    # plotly.js from the installed `plotly` package (no CDN, nothing vendored in the repo).
    "stats.staticfiles.PlotlyFinder",
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        # personal tokens (accounts app, "Token yomi_…") before DRF's own authtoken keys
        "accounts.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    # JSON bodies: nesting depth limited and lone surrogates refused with a 400 (issue 11).
    "DEFAULT_PARSER_CLASSES": [
        "matches.api.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "PAGE_SIZE": 50,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Yomi tournament platform API",
    "DESCRIPTION": "Events, brackets, match logs and their verification for Yomi.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from the installed sidecar package, not from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Several models have a `status`; name each enum after its model.
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "matches.models.Match.Status",
        # matches are played in every mode, events only in those between players
        "MatchModeEnum": "matches.models.Match.Mode",
        "EventModeEnum": "tournaments.models.EVENT_MODE_CHOICES",
        "VerificationRunStatusEnum": "matches.models.VerificationRun.Status",
        "DisputeStatusEnum": "matches.models.Dispute.Status",
        "EventStatusEnum": "tournaments.models.Event.Status",
        "EntrantStatusEnum": "tournaments.models.Entrant.Status",
        "StageStatusEnum": "tournaments.models.Stage.Status",
        "SetStatusEnum": "tournaments.models.Set.Status",
    },
}

# Celery: with REDIS_URL set, tasks go through Redis to separate workers; without it (the
# embedded `make run` default) they run in-process, so nothing else needs to be installed.
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "celery")
CELERY_TASK_ACKS_LATE = True
# Services store what tasks produce in the database; only tasks that say so keep a result.
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# An unacknowledged task (its worker died) is handed to another worker after this many seconds;
# workers sweep for such tasks a few times per timeout. Sized to the tasks (a verification takes
# well under a second, a 50-log chunk seconds), with the stale-work sweeper below as the backstop.
CELERY_VISIBILITY_TIMEOUT = int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "600"))
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
    "unacked_restore_interval": max(1, min(60, CELERY_VISIBILITY_TIMEOUT // 3)),
    "unacked_restore_throttle": 1,
}
# --- reliability (issue 11): a broker outage delays work, never loses it ------------------------
# A publish that cannot reach Redis gives up quickly (the request still answers; the database
# keeps the work and the sweeper sends it again) instead of holding the request for many seconds.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1, "interval_start": 0, "interval_step": 0.5, "interval_max": 0.5,
}
# The sweeper: every YOMI_SWEEP_INTERVAL seconds, send again each verification and each result
# callback left pending for more than YOMI_SWEEP_AFTER seconds (at most YOMI_SWEEP_LIMIT each).
YOMI_SWEEP_INTERVAL = float(os.environ.get("YOMI_SWEEP_INTERVAL", "60"))
YOMI_SWEEP_AFTER = int(os.environ.get("YOMI_SWEEP_AFTER", "300"))
YOMI_SWEEP_LIMIT = int(os.environ.get("YOMI_SWEEP_LIMIT", "500"))
# Runs of each event-odds simulation (issue 19, part 3).
YOMI_ODDS_RUNS = int(os.environ.get("YOMI_ODDS_RUNS", "10000"))
# Rate limits (django-ratelimit, counted in the cache below): "N/s|m|h|d", empty = no limit.
# Logins are counted per address and per username tried; log submissions per user and address.
YOMI_RATE_LIMITS_ENABLED = env_bool("YOMI_RATE_LIMITS_ENABLED", True)
YOMI_RATE_LIMITS = {
    "login_ip": os.environ.get("YOMI_RATE_LOGIN_IP", "20/m"),
    "login_username": os.environ.get("YOMI_RATE_LOGIN_USERNAME", "10/m"),
    "submit_user": os.environ.get("YOMI_RATE_SUBMIT_USER", "12/m"),
    "submit_ip": os.environ.get("YOMI_RATE_SUBMIT_IP", "60/m"),
    "signup_ip": os.environ.get("YOMI_RATE_SIGNUP_IP", "10/h"),
    "reset_ip": os.environ.get("YOMI_RATE_RESET_IP", "10/h"),
    "reset_email": os.environ.get("YOMI_RATE_RESET_EMAIL", "3/h"),
    "resend_ip": os.environ.get("YOMI_RATE_RESEND_IP", "10/h"),
    "resend_email": os.environ.get("YOMI_RATE_RESEND_EMAIL", "3/h"),
}
# A room's websocket (rooms.guards, docs/security.md): messages per connection and per address,
# connections opened per address. A connection's count is in its ASGI process's memory; an
# address's counts are in Redis with REDIS_URL (one count across the processes), else in memory.
YOMI_ROOM_RATES = {
    "message_connection": os.environ.get("YOMI_RATE_ROOM_MESSAGES", "20/second"),
    "message_address": os.environ.get("YOMI_RATE_ROOM_MESSAGES_IP", "200/second"),
    "connect": os.environ.get("YOMI_RATE_ROOM_CONNECTS_IP", "120/minute"),
}
YOMI_ROOM_RATE_STORAGE = f"async+{REDIS_URL}" if REDIS_URL else ""
YOMI_ROOM_RATE_PREFIX = "yomi-room-rates"
# The cache: local memory for the embedded default (one process, nothing to install), Redis
# (shared by every web process) with REDIS_URL. Short timeouts: if Redis is down the limits
# are skipped (logged), the site keeps answering.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "yomi",
    } if not REDIS_URL else {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "yomi-cache",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
}
# django-ratelimit's check wants a shared cache; local memory is shared by the one process the
# embedded default runs. Its own decorators are not used (matches.ratelimits calls get_usage).
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]
# Incoming JSON bodies nested deeper than this are refused with a 400 (matches.api.parsers).
YOMI_JSON_MAX_DEPTH = int(os.environ.get("YOMI_JSON_MAX_DEPTH", "64"))
# Live match rooms (issue 22): the channel layer carries each room's updates between the ASGI
# processes (Redis with REDIS_URL; in memory, one process, for the embedded default). Redis
# pub/sub: a group send is one PUBLISH (the rooms send three per choice); a message to a client
# that is not connected is dropped, which the rooms allow: a reconnecting client is sent the
# current state.
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [REDIS_URL], "prefix": "yomi-rooms"},
    } if REDIS_URL else {"BACKEND": "channels.layers.InMemoryChannelLayer"}
}
# --- end reliability --------------------------------------------------------------------------
# Tasks called with the match id after every result change of every match (matches app).
MATCH_RESULT_LISTENERS = ["stats.tasks.game_record_sync_task"]

CELERY_BEAT_SCHEDULE = {
    "worker-heartbeat": {"task": "health.tasks.heartbeat_record_task", "schedule": 300.0},
    "simulation-chunks-requeue": {
        "task": "simulations.tasks.matchup_jobs_sweep_task", "schedule": YOMI_SWEEP_INTERVAL,
    },
    # notification mails still owed after a broker or mail outage (issue 31)
    "notification-mails-owed": {
        "task": "notifications.tasks.notification_emails_owed_send_task",
        "schedule": YOMI_SWEEP_INTERVAL,
    },
    # sign-up confirmation mails still owed after a broker or mail outage (issue 31)
    "confirmation-mails-owed": {
        "task": "accounts.tasks.confirmation_mails_owed_send_task",
        "schedule": YOMI_SWEEP_INTERVAL,
    },
    # password-reset mails still owed after a broker or mail outage (issue 31)
    "password-reset-mails-owed": {
        "task": "accounts.tasks.password_reset_mails_owed_send_task",
        "schedule": YOMI_SWEEP_INTERVAL,
    },
    "stale-work-requeue": {
        "task": "matches.tasks.stale_work_requeue_task", "schedule": YOMI_SWEEP_INTERVAL,
    },
    # after an engine release, the logs it has not judged are verified again (issue 10)
    "reverify-stale-verdicts": {
        "task": "matches.tasks.logs_reverify_stale_task",
        "schedule": float(os.environ.get("YOMI_REVERIFY_INTERVAL", "3600")),
    },
}

# Production hardening: everything on unless DEBUG; each can be relaxed through the environment
# (for example SECURE_SSL_REDIRECT=0 behind a proxy that already redirects).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
# Content-Security-Policy (django-csp; docs/security.md): scripts only from the site itself
# (no inline script on any page: each lives in static/), no plugins, no framing, forms and
# websockets to the site only. Styles allow inline because the charts' library (Plotly) writes
# its own <style> rules at run time. CSP_REPORT_ONLY=1 sends it as report-only.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
if env_bool("CSP_REPORT_ONLY", False):
    CONTENT_SECURITY_POLICY_REPORT_ONLY, CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY, {}
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

# --- e-mail (accounts, notifications) ------------------------------------------------------------
# SMTP when EMAIL_HOST is set; otherwise the console backend (the message is printed by the
# process that sends it: the terminal of `make run`). EMAIL_BACKEND overrides both.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", EMAIL_PORT == 587)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", EMAIL_PORT == 465)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "") or (
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Yomi tournaments <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The site's address for links in e-mails sent outside a request (notifications).
# Unset: the first trusted origin (the site's public address where one is configured), else the
# address `make run` serves by default.
YOMI_SITE_URL = os.environ.get("YOMI_SITE_URL", "") or (
    CSRF_TRUSTED_ORIGINS[0] if CSRF_TRUSTED_ORIGINS else "http://127.0.0.1:8000"
)
# New accounts confirm their address by e-mail only where mail really leaves the machine; with
# the console backend (make run) they are active at once.
YOMI_SIGNUP_CONFIRM_EMAIL = env_bool(
    "YOMI_SIGNUP_CONFIRM_EMAIL", "console" not in EMAIL_BACKEND and "locmem" not in EMAIL_BACKEND
)

# Uploaded match logs are at most 2 MB; leave headroom for the multipart envelope.
DATA_UPLOAD_MAX_MEMORY_SIZE = 3 * 1024 * 1024
