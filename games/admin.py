"""Admin pages of the games app: read-only views of players and recorded games.

Recorded games are research data: the admin shows them but never edits them
(``verify_games`` would report an edited game as not matching the rules).
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from games.models import Game, Player


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ["token_prefix", "created_at", "last_seen_at", "consent_version"]
    search_fields = ["token_prefix", "id"]
    exclude = ["token_hash"]


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = [
        "id", "source", "rules_key", "mode", "status", "score", "moves_count", "started_at",
    ]
    list_filter = ["status", "variant", "size", "source", "mode", "partially_observed"]
    search_fields = ["id", "legacy_filename", "bot_name"]
    date_hierarchy = "started_at"
    exclude = ["state"]
