from typing import Any

from django.apps import AppConfig
from django.http import HttpRequest

# Every ES module of the pages, relative to games/static/games/js/ (see
# core.context_processors: the import map sends each plain module URL to its
# hashed, long-cached URL, so modules import each other by relative paths).
JS_MODULES = (
    "api.js",
    "board.js",
    "consent.js",
    "consent-page.js",
    "daily.js",
    "home.js",
    "me.js",
    "play.js",
    "play-common.js",
    "play-history.js",
    "play-notes.js",
    "play-page.js",
    "play-planar.js",
    "play-replay.js",
    "play-sender.js",
    "play-share.js",
    "shared.js",
    "status.js",
    "symbols.js",
    "tutorial.js",
    "uploads.js",
)


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"
    js_modules = tuple(f"games/js/{name}" for name in JS_MODULES)

    def page_context(self, request: HttpRequest) -> dict[str, Any]:
        """What every page needs from the games app: the consent and the session's player."""
        from games.web.context import player_context

        return player_context(request)
