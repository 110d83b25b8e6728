"""Mark the platform's own bot players, and take the bot's place from games a client declared.

``Player.is_platform_bot`` is set by the server only (``player_for_bot``): the
players of the platform's bots are those tied to the inactive users
``decodoku-bot-...`` with the bots' consent marker, which no request can give.

A game recorded as a bot's (source ``bot``) by any other player was declared so
by its client (``bot_name`` in ``POST /api/v1/games/``): it becomes the API
game it was, its declared name and version kept in ``client_info``, and it is
research data only with its player's consent, as every person's game.
"""

from django.db import migrations, models

BOT_USERNAME_PREFIX = "decodoku-bot-"
BOT_CONSENT_VERSION = "bot"


def mark_platform_bots(apps, schema_editor):
    Player = apps.get_model("games", "Player")
    Game = apps.get_model("games", "Game")
    Player.objects.filter(
        user__username__startswith=BOT_USERNAME_PREFIX, consent_version=BOT_CONSENT_VERSION
    ).update(is_platform_bot=True)
    declared = Game.objects.filter(source="bot", player__is_platform_bot=False)
    for game in declared.iterator():
        info = dict(game.client_info or {})
        info["declared_bot_name"] = game.bot_name
        if game.bot_version:
            info["declared_bot_version"] = game.bot_version
        source = "web" if info.get("auth") == "session" else "api"
        Game.objects.filter(pk=game.pk).update(
            source=source, bot_name="", bot_version="", client_info=info
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_daily_planar_board"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="is_platform_bot",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(mark_platform_bots, migrations.RunPython.noop),
    ]
