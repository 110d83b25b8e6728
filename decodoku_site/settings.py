"""Settings of Decodoku Lab.

There is one settings module for every environment. Everything that differs
between a laptop, CI and production comes from environment variables, read
strictly by ``decodoku_site.env`` (a malformed value stops the start-up with a
message naming the variable). ``docs/operations.md`` lists the variables and
their defaults.

With no variables at all the defaults are the safe production ones (DEBUG off,
HTTPS enforced), and SECRET_KEY is then required to serve requests.
``bin/start`` sets DEBUG=1 for local development.
"""

from __future__ import annotations

from pathlib import Path

from csp.constants import NONCE as CSP_NONCE
from csp.constants import NONE as CSP_NONE
from csp.constants import SELF as CSP_SELF

from decodoku_site.env import (
    BROKER_SCHEMES,
    DEVELOPMENT_SECRET_KEY,
    RESULT_BACKEND_SCHEMES,
    Env,
)

BASE_DIR = Path(__file__).resolve().parent.parent

env = Env()

# --- Core ---------------------------------------------------------------------

DEBUG = env.boolean("DEBUG", default=False)

# Serving requests needs the key (sessions, CSRF, signing); management commands
# such as migrate and collectstatic do not. So a missing key is not an error
# here: the WSGI and ASGI entry points (and so gunicorn and runserver) refuse to
# start without one when DEBUG is off, naming SECRET_KEY.
SECRET_KEY = env.string("SECRET_KEY", DEVELOPMENT_SECRET_KEY if DEBUG else "")

ALLOWED_HOSTS = env.strings(
    "ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env.strings("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    # Before the admin: core/templates/admin/ overrides some of the admin's templates.
    "core",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Serve static files through WhiteNoise under runserver too, as in production.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "games",
    "results",
    "research",
    "dashboard",
    "puzzles",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # 503 (JSON under /api/) when the database cannot be reached; JSON 414.
    "decodoku_site.errors.ServiceErrorsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Content-Security-Policy (django-csp) and Permissions-Policy on every answer.
    "csp.middleware.CSPMiddleware",
    "decodoku_site.headers.PermissionsPolicyMiddleware",
    # After the URL is resolved: counts POSTs to the admin and research login pages.
    "core.api.throttles.LoginRateLimitMiddleware",
]

ROOT_URLCONF = "decodoku_site.urls"
WSGI_APPLICATION = "decodoku_site.wsgi.application"
ASGI_APPLICATION = "decodoku_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "core.context_processors.page",
            ],
        },
    },
]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Database -----------------------------------------------------------------

DATABASES = {
    "default": env.database(
        "DATABASE_URL",
        default={"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"},
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Keep connections open between requests (psycopg 3 is picked automatically),
    # and check a reused connection before handing it out, so that a database
    # restart costs one reconnect instead of a failed request.
    DATABASES["default"]["CONN_MAX_AGE"] = env.integer("DATABASE_CONN_MAX_AGE", 60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # A database that accepts connections but never answers must not hang
    # every request: give up connecting after DATABASE_CONNECT_TIMEOUT seconds
    # (libpq's connect_timeout), and let the server cancel any statement that
    # runs longer than DATABASE_STATEMENT_TIMEOUT seconds, so that a runaway
    # query cannot hold a worker thread and its locks for ever. Exports stream
    # for as long as the download lasts: their COPY lifts the limit for its
    # own transaction (research.exports.writer).
    # A statement that waits for a lock (a table locked by a migration or by
    # hand, a row held by a stuck transaction) gives up after
    # DATABASE_LOCK_TIMEOUT seconds (lock_timeout), so that the request gets a
    # 503 in seconds instead of holding its thread for the statement timeout.
    # Every process gets it, migrate included (a migration that cannot have its
    # lock fails instead of queueing every request behind it); the dashboard's
    # aggregate runs, which queue up behind each other on purpose, lift it for
    # their own transaction (dashboard.services).
    connect_timeout = env.integer("DATABASE_CONNECT_TIMEOUT", 5, minimum=1, maximum=600)
    statement_timeout = env.integer("DATABASE_STATEMENT_TIMEOUT", 60, minimum=0, maximum=86400)
    lock_timeout = env.seconds("DATABASE_LOCK_TIMEOUT", 3.0, minimum=0, maximum=86400)
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "connect_timeout": connect_timeout,
            "options": (
                f"-c statement_timeout={statement_timeout * 1000} "
                f"-c lock_timeout={round(lock_timeout * 1000)}"
            ),
        }
    )

# /healthz answers within this many seconds whatever the database does (503
# when the database has not answered by then).
HEALTHZ_TIMEOUT = env.seconds("HEALTHZ_TIMEOUT", 0.9, minimum=0.05, maximum=30)

# --- Cache --------------------------------------------------------------------

# After a call to Redis (the cache, or the Celery broker when a request queues
# a task) has failed, each process skips that Redis for this many seconds
# instead of waiting for it again, then tries one call (core.circuit).
CIRCUIT_BREAKER_COOLDOWN = env.seconds("CIRCUIT_BREAKER_COOLDOWN", 5.0, minimum=0.1, maximum=600)

CACHES = {"default": env.cache("CACHE_URL")}
CACHES["default"]["KEY_PREFIX"] = "decodoku"
if CACHES["default"]["BACKEND"] == "django_redis.cache.RedisCache":
    # The cache holds rate-limit counters and the dashboard's computed pages,
    # nothing that cannot be lost. So a Redis outage must cost neither a
    # request nor time: an operation that fails is logged and treated as a
    # miss (IGNORE_EXCEPTIONS), a Redis that accepts connections but does not
    # answer is given up on after these many seconds, and once a call has
    # failed the following ones are not even tried for CIRCUIT_BREAKER_COOLDOWN
    # seconds (core.redis_cache): a request pays one time-out at most.
    CACHES["default"]["OPTIONS"].update(
        {
            "IGNORE_EXCEPTIONS": True,
            "SOCKET_CONNECT_TIMEOUT": env.seconds(
                "CACHE_CONNECT_TIMEOUT", 0.25, minimum=0.01, maximum=60
            ),
            "SOCKET_TIMEOUT": env.seconds("CACHE_TIMEOUT", 0.25, minimum=0.01, maximum=60),
            "REDIS_CLIENT_CLASS": "core.redis_cache.CircuitBreakerRedis",
        }
    )
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
DJANGO_REDIS_LOGGER = "decodoku.cache"

# --- Passwords, language, time ------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files -------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Production serves collected, hashed and compressed files (run
        # collectstatic first); development serves the apps' files directly.
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        ),
    },
}

# --- HTTPS and security headers -----------------------------------------------
# On by default whenever DEBUG is off; each can be switched off by its variable,
# for example SECURE_SSL_REDIRECT=0 when trying the Docker stack without TLS.

SECURE_SSL_REDIRECT = env.boolean("SECURE_SSL_REDIRECT", default=not DEBUG)
# Load balancers and container health checks call /healthz over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
# Secure cookies by default exactly when plain HTTP is redirected to HTTPS:
# SECURE_SSL_REDIRECT=0 alone then gives a site that works over plain HTTP
# (a browser drops Secure cookies there, and with them the session's game).
# Each can still be set on its own.
SESSION_COOKIE_SECURE = env.boolean("SESSION_COOKIE_SECURE", default=SECURE_SSL_REDIRECT)
CSRF_COOKIE_SECURE = env.boolean("CSRF_COOKIE_SECURE", default=SECURE_SSL_REDIRECT)
SECURE_HSTS_SECONDS = env.integer("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.boolean("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.boolean("SECURE_HSTS_PRELOAD", default=not DEBUG)
# Behind a TLS-terminating proxy Django sees plain HTTP; trust the proxy's
# X-Forwarded-Proto header. Only safe when a proxy that sets it is in front.
if env.boolean("SECURE_PROXY_SSL_HEADER", default=not DEBUG):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy: scripts, styles, fonts, images and API calls come
# from this site only; no inline script runs except the pages' import map,
# which carries the request's nonce. The API documentation pages loosen only
# style-src (ReDoc writes its styles at run time; see decodoku_site.urls).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [CSP_SELF],
        "script-src": [CSP_SELF, CSP_NONCE],
        "style-src": [CSP_SELF],
        "img-src": [CSP_SELF, "data:"],
        "font-src": [CSP_SELF],
        "connect-src": [CSP_SELF],
        "worker-src": [CSP_SELF, "blob:"],
        "object-src": [CSP_NONE],
        "base-uri": [CSP_SELF],
        "form-action": [CSP_SELF],
        "frame-ancestors": [CSP_NONE],
    },
}
# Browser features no page uses are switched off for the site and anything it embeds.
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), "
    "microphone=(), payment=(), usb=()"
)

# --- REST API -----------------------------------------------------------------

REST_FRAMEWORK = {
    # drf-spectacular's, plus the rules strict request serializers enforce.
    "DEFAULT_SCHEMA_CLASS": "decodoku_site.schema.SiteAutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticatedOrReadOnly",
    ],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    # JSON bodies nested too deep, or with strings that are not valid Unicode
    # (lone surrogates), are refused with 400 before anything reads them.
    "DEFAULT_PARSER_CLASSES": [
        "core.parsers.StrictJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
}

# The players' API of every app (core.api): one error format, rate limits per
# player and per address (counted in the cache), the save-file size limit. A rate
# is "N/period" (period s, min, hour or day); "off" lifts that limit,
# DECODOKU_THROTTLING=0 all.
REST_FRAMEWORK["EXCEPTION_HANDLER"] = "core.api.api_exception_handler"
# Who calls a player's endpoint (core.api.views.PlayerAPIView): a player of the
# games app, by API token or by the web page's session.
DECODOKU_PLAYER_AUTHENTICATION = [
    "games.authentication.PlayerTokenAuthentication",
    "games.authentication.PlayerSessionAuthentication",
]
DECODOKU_PLAYER_PERMISSIONS = ["games.authentication.IsPlayer"]


def _throttle_rate(name: str, default: str) -> str | None:
    rate = env.string(name, default) or default
    if not DECODOKU_THROTTLING or rate.lower() == "off":
        return None
    number, _, period = rate.partition("/")
    if not number.isdigit() or period[:1] not in ("s", "m", "h", "d"):
        raise env.error(name, f"{rate!r} is not a rate like 600/min, or off")
    return rate


DECODOKU_THROTTLING = env.boolean("DECODOKU_THROTTLING", default=True)
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {
    "player": _throttle_rate("DECODOKU_THROTTLE_PLAYER", "600/min"),
    "ip": _throttle_rate("DECODOKU_THROTTLE_IP", "1200/min"),
    "signup": _throttle_rate("DECODOKU_THROTTLE_SIGNUP", "60/hour"),
    "upload": _throttle_rate("DECODOKU_THROTTLE_UPLOAD", "60/hour"),
    # Puzzle actions sent in batches, per player, counted by action (a batch is one
    # request of the player rate): as many an hour as the player rate lets through one
    # by one, counted over the hour so that one batch (a 9 x 9 grid's 729 candidates)
    # fits.
    "actions": _throttle_rate("DECODOKU_THROTTLE_ACTIONS", "36000/hour"),
    # Sign-in attempts on the admin and research login pages, per address.
    "login": _throttle_rate("DECODOKU_THROTTLE_LOGIN", "30/hour"),
    # Requests for research access (the public form on /research/access/), per address.
    "access_request": _throttle_rate("DECODOKU_THROTTLE_ACCESS_REQUEST", "5/hour"),
}
# How many proxies in front of the site append the client's address to
# X-Forwarded-For. 0 (the default): the header is ignored and the address is
# the connection's; a client can then never choose the address it is counted
# under. Set 1 behind one reverse proxy (nginx, a load balancer) that appends.
REST_FRAMEWORK["NUM_PROXIES"] = env.integer("DECODOKU_TRUSTED_PROXIES", 0, minimum=0, maximum=10)
DECODOKU_MAX_UPLOAD_BYTES = env.integer("DECODOKU_MAX_UPLOAD_BYTES", 2 * 1024 * 1024, minimum=1)
# Reading and checking one upload (a save file, or every file of an archive or
# workbook) stops after this many seconds (gthread workers have no per-request
# timeout), or once the request's thread has spent DECODOKU_UPLOAD_CPU_SECONDS
# of processor time. The largest real saves take well under a second.
DECODOKU_SAVE_PARSE_SECONDS = env.integer("DECODOKU_SAVE_PARSE_SECONDS", 10, minimum=1)
DECODOKU_UPLOAD_CPU_SECONDS = env.seconds(
    "DECODOKU_UPLOAD_CPU_SECONDS", 3.0, minimum=0.1, maximum=600.0
)
# An uploaded zip of save files (or workbook): at most this many files and
# unpacked bytes in all, archives inside it included (each file at most
# DECODOKU_MAX_UPLOAD_BYTES), checked before unpacking.
DECODOKU_UPLOAD_ZIP_MAX_FILES = env.integer("DECODOKU_UPLOAD_ZIP_MAX_FILES", 200, minimum=1)
DECODOKU_UPLOAD_ZIP_MAX_BYTES = env.integer(
    "DECODOKU_UPLOAD_ZIP_MAX_BYTES", 50 * 1024 * 1024, minimum=1
)
# Heavy requests (uploads, puzzle generation and checks, exports) take turns
# (core.concurrency): each kind runs at most this many at once in one web
# process, so that a burst of them leaves request threads free for cheap ones.
# Keep the number of kinds (3) times this below WEB_THREADS. A heavy request
# waits at most DECODOKU_HEAVY_WAIT_SECONDS for its turn, then gets 503 busy.
DECODOKU_HEAVY_REQUESTS = env.integer("DECODOKU_HEAVY_REQUESTS", 1, minimum=1, maximum=64)
DECODOKU_HEAVY_WAIT_SECONDS = env.seconds(
    "DECODOKU_HEAVY_WAIT_SECONDS", 0.5, minimum=0.0, maximum=30.0
)
# Installs the load benchmark's baseline endpoint (bench/endpoints, its own
# tables, routed under /api/v1/bench/) for bench/api_load.py; never in production.
DECODOKU_BENCH_ENDPOINTS = env.boolean("DECODOKU_BENCH_ENDPOINTS", default=False)
if DECODOKU_BENCH_ENDPOINTS:
    INSTALLED_APPS.append("bench.endpoints")
# Research exports: the key of the players' pseudonyms (an HMAC-SHA256 key).
# Unset, it is derived from SECRET_KEY; changing either changes every pseudonym.
DECODOKU_PSEUDONYM_KEY = env.string("DECODOKU_PSEUDONYM_KEY", "")
# The strategy model of people's moves (docs/strategy.md): the periodic check
# stores a new fit once this many moves of research data have been recorded
# since the data of the last fit. A fit replays every move, so refitting for a
# handful of moves would cost a worker minutes for no visible change.
DECODOKU_STRATEGY_REFIT_MOVES = env.integer("DECODOKU_STRATEGY_REFIT_MOVES", 5000, minimum=1)
# The daily challenge: the key of the HMAC that turns a date into the day's seed.
# Unset, it is derived from SECRET_KEY; changing it changes the seeds of days to come.
DECODOKU_DAILY_SECRET = env.string("DECODOKU_DAILY_SECRET", "")
# Whom researchers write to about the data; shown on the "How to use and cite" page.
# One e-mail address (name@host); anything else stops the start-up.
DECODOKU_RESEARCH_CONTACT = env.string("DECODOKU_RESEARCH_CONTACT", "") or ""
if DECODOKU_RESEARCH_CONTACT:
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    try:
        validate_email(DECODOKU_RESEARCH_CONTACT)
    except ValidationError:
        raise env.error(
            "DECODOKU_RESEARCH_CONTACT", f"{DECODOKU_RESEARCH_CONTACT!r} is not an e-mail address"
        ) from None

SPECTACULAR_SETTINGS = {
    "TITLE": "Decodoku Lab API",
    "DESCRIPTION": "Play Decodoku, upload saved games and download research data.",
    "VERSION": "1",
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Request and response shapes as components of their own, so that a file
    # field is "format: binary" in requests (generated clients can upload it).
    "COMPONENT_SPLIT_REQUEST": True,
    # OpenAPI 3.1: a nullable object is oneOf [the object, null], which strict
    # validators and generated clients read correctly (3.0 wrote allOf + nullable).
    "OAS_VERSION": "3.1.0",
    # Swagger UI and ReDoc assets come from drf-spectacular-sidecar, served
    # as our own static files: the docs pages load nothing from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Names of enums that several fields share or that would be named by a field alone.
    "ENUM_NAME_OVERRIDES": {
        "ErrorCodeEnum": "core.api.ERROR_CODES.items",
        "PuzzleKindEnum": "puzzles.api.serializers.PUZZLE_KINDS",
        "PuzzleOwnKindEnum": "puzzles.api.serializers.OWN_KINDS",
        "PuzzleOwnFormatEnum": "puzzles.api.serializers.OWN_FORMATS",
        "PuzzleOwnSolutionsEnum": "puzzles.api.serializers.OWN_VERDICTS",
        "PuzzleOwnModeEnum": "puzzles.api.serializers.OWN_MODES",
        # Two choice sets share the field name "mode": each gets a stable name.
        "GameModeEnum": "games.api.serializers.GAME_MODES",
    },
    # The default hook (enums as components), then 414/500/503 on every operation.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "decodoku_site.schema.add_common_errors",
    ],
}

# --- Logging: everything to stdout, for the process manager to collect --------

LOG_LEVEL = env.choice("LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"))
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s"},
    },
    "filters": {
        # Cache calls skipped by the circuit breaker: the outage is logged once.
        "skip_open_circuit": {"()": "core.redis_cache.SkipOpenCircuit"},
    },
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "plain",
        },
    },
    "root": {"handlers": ["stdout"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["stdout"], "level": LOG_LEVEL, "propagate": False},
        "decodoku.cache": {"filters": ["skip_open_circuit"]},
    },
}

# --- Celery (read by decodoku_site.celery with the CELERY_ namespace) ----------

CELERY_BROKER_URL = env.url("CELERY_BROKER_URL", BROKER_SCHEMES)
if CELERY_BROKER_URL is None:
    # No broker: run tasks in-process, synchronously, so that a fresh checkout
    # works without Redis. Errors raised by a task propagate to the caller.
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
else:
    CELERY_TASK_ALWAYS_EAGER = False
CELERY_RESULT_BACKEND = env.url("CELERY_RESULT_BACKEND", RESULT_BACKEND_SCHEMES)

# JSON only: a broker message can never make a worker unpickle arbitrary objects.
CELERY_TASK_SERIALIZER = "json"
# Results are read by other processes; JSON keeps them language-neutral and safe.
CELERY_RESULT_SERIALIZER = "json"
# Refuse any message that is not JSON, whoever put it on the queue.
CELERY_ACCEPT_CONTENT = ["json"]
# Acknowledge after the task finishes: a task killed mid-run is redelivered
# rather than lost; tasks are idempotent, so a redelivery is harmless.
CELERY_TASK_ACKS_LATE = True
# A worker reserves one task at a time, so long tasks do not hold back queued
# ones that an idle worker could take.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# If the worker process dies (OOM, SIGKILL), requeue the task instead of
# acknowledging it; needed for acks_late to cover crashes too.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# The soft limit raises SoftTimeLimitExceeded inside the task so it can clean
# up; the hard limit kills a task that ignores it, so no task hangs forever.
CELERY_TASK_SOFT_TIME_LIMIT = env.integer("CELERY_TASK_SOFT_TIME_LIMIT", 600, minimum=1)
CELERY_TASK_TIME_LIMIT = env.integer("CELERY_TASK_TIME_LIMIT", 660, minimum=1)
if CELERY_TASK_SOFT_TIME_LIMIT >= CELERY_TASK_TIME_LIMIT:
    raise env.error(
        "CELERY_TASK_SOFT_TIME_LIMIT",
        f"must be below CELERY_TASK_TIME_LIMIT ({CELERY_TASK_TIME_LIMIT})",
    )
# Keep retrying the broker at start-up: in Docker the worker may start before
# Redis accepts connections.
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis hands an unacknowledged task to another worker after this many seconds.
# With acks_late it must exceed the hard time limit, or a task still running
# would be started a second time.
redis_visibility_timeout = env.integer("CELERY_REDIS_VISIBILITY_TIMEOUT", 3600, minimum=1)
if redis_visibility_timeout <= CELERY_TASK_TIME_LIMIT:
    raise env.error(
        "CELERY_REDIS_VISIBILITY_TIMEOUT",
        f"must exceed CELERY_TASK_TIME_LIMIT ({CELERY_TASK_TIME_LIMIT})",
    )
# A request that ends a game queues its analysis (after the commit). With the
# broker down that must cost the request little: give up connecting, and
# waiting for an answer, after CELERY_BROKER_CONNECTION_TIMEOUT seconds, retry
# a publish at most once, quickly, and after a failure do not try again for
# CIRCUIT_BREAKER_COOLDOWN seconds (decodoku_site.celery.BreakerTask). A task
# that could not be queued is logged and picked up later by
# results.analyse_pending (below), so nothing is lost.
CELERY_BROKER_CONNECTION_TIMEOUT = env.seconds(
    "CELERY_BROKER_CONNECTION_TIMEOUT", 0.5, minimum=0.1, maximum=60
)
CELERY_TASK_PUBLISH_RETRY = True
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": redis_visibility_timeout,
    # Redis transport: the same bound on connecting and on waiting for the
    # answer to a command (a publish). The worker waits longer for its own
    # commands (WORKER_BROKER_SOCKET_TIMEOUT below, set when it starts).
    "socket_connect_timeout": CELERY_BROKER_CONNECTION_TIMEOUT,
    "socket_timeout": CELERY_BROKER_CONNECTION_TIMEOUT,
}
# A worker's commands to Redis (acknowledgements, restoring unacknowledged
# tasks) may take longer on a busy Redis; give up after 5 s (above the 1 s its
# BRPOP waits). Not a CELERY_ setting: decodoku_site.celery applies it.
WORKER_BROKER_SOCKET_TIMEOUT = 5.0
# The worker survives the broker going away: after a lost connection it
# reconnects for as long as it takes (None: no limit on the attempts), instead
# of exiting and leaving queued tasks for a manual restart.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# When the broker connection drops, the unacknowledged tasks will be delivered
# again; cancel the running copies so that they do not run twice.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_TIMEZONE = TIME_ZONE
# Periodic tasks run by `celery beat`; the apps add their entries here.
CELERY_BEAT_SCHEDULE: dict[str, dict] = {}
# Queue the analysis of finished games that have none: games whose task was
# lost while Redis or the workers were down, uploads, older analysis versions.
CELERY_BEAT_SCHEDULE["results-analyse-pending"] = {
    "task": "results.analyse_pending",
    "schedule": 300.0,
}
# The dashboard's aggregate tables: absorb new games and analyses every 20 s
# (with the 20 s settle, a finished game shows within a minute), and recount
# everything once a day (games excluded from research since).
# The bots play each closed day's daily challenge (the seed every player met).
CELERY_BEAT_SCHEDULE["results-daily-bots"] = {
    "task": "results.daily_bots_pending",
    "schedule": 3600.0,
}
# The planar decoders play every person's finished planar board they have not played yet.
CELERY_BEAT_SCHEDULE["results-decoders-pending"] = {
    "task": "results.decoders_pending",
    "schedule": 3600.0,
}
# A new strategy fit once DECODOKU_STRATEGY_REFIT_MOVES moves have arrived (a count when not).
CELERY_BEAT_SCHEDULE["results-strategy-refit"] = {
    "task": "results.strategy_refit",
    "schedule": 3600.0,
}
# The Decodoku puzzle bots answer every puzzle people have tried that they have not answered.
CELERY_BEAT_SCHEDULE["puzzles-decodoku-bots-pending"] = {
    "task": "puzzles.decode_decodoku_pending",
    "schedule": 3600.0,
}
CELERY_BEAT_SCHEDULE["dashboard-refresh-aggregates"] = {
    "task": "dashboard.refresh_aggregates",
    "schedule": 20.0,
}
CELERY_BEAT_SCHEDULE["dashboard-rebuild-aggregates"] = {
    "task": "dashboard.rebuild_aggregates",
    "schedule": 24 * 3600.0,
}
