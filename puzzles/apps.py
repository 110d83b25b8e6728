from typing import Any

from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "puzzles"
    verbose_name = "Logic puzzles"

    def my_games_sections(self, player: Any) -> list[Any]:
        """The player's puzzle bests (once one is solved) and attempts on My games
        (see ``games.sections``)."""
        from puzzles.my_games import attempts_section, bests_section

        bests = bests_section(player=player)
        return [bests, attempts_section(player=player)] if bests["rows"] else [
            attempts_section(player=player)
        ]
