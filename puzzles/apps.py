from typing import Any

from django.apps import AppConfig

# The puzzle pages' ES modules, relative to puzzles/static/puzzles/js/: in every page's
# import map (core.context_processors), so that the modules they import by relative
# paths are served under their hashed, long-cached names too.
JS_MODULES = (
    "decodoku-page.js",
    "puzzle-api.js",
    "puzzle-editor.js",
    "puzzle-grid.js",
    "puzzle-page.js",
    "puzzle-rules.js",
    "puzzle-session.js",
    "twomino-page.js",
)


class PuzzlesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "puzzles"
    verbose_name = "Logic puzzles"
    js_modules = tuple(f"puzzles/js/{name}" for name in JS_MODULES)

    def my_games_sections(self, player: Any) -> list[Any]:
        """The player's puzzle bests (once one is solved) and attempts on My games
        (see ``games.sections``)."""
        from puzzles.my_games import attempts_section, bests_section

        bests = bests_section(player=player)
        return [bests, attempts_section(player=player)] if bests["rows"] else [
            attempts_section(player=player)
        ]
