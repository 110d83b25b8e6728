"""``manage.py bot_play``: decoder bots play games recorded like the games of people."""

from __future__ import annotations

import secrets
from typing import Any, TextIO, cast

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from games.engine import InvalidRuleSet, RuleSet
from games.engine.bots import BOT_NAMES, WEIGHTED_BOTS
from results.selectors import bot_weights
from results.services import bot_play_game

MAX_GAMES = 100_000


class Command(BaseCommand):
    help = ("Have a bot play games through the play services; they are stored with source "
            "'bot', the bot's name and version, and analysed like any game.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--bot", required=True, help=f"one of {', '.join(BOT_NAMES)}")
        parser.add_argument("--games", type=int, default=1)
        parser.add_argument("--size", type=int, default=7)
        parser.add_argument("--budget", type=float, default=6.0)
        parser.add_argument("--variant", default="z10", help="z10 or phi_lambda")
        parser.add_argument("--seed", type=int, default=None,
                            help="seed of the first game; the next ones count up from it")
        parser.add_argument("--fit", type=int, default=None, metavar="FIT_ID",
                            help=f"{', '.join(WEIGHTED_BOTS)} only: the strategy fit whose "
                            "weights it plays with (default: the latest fit of all games)")
        parser.add_argument("--max-moves", type=int, default=None,
                            help="abandon a game still going after this many moves")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["bot"] not in BOT_NAMES:
            raise CommandError(f"unknown bot {options['bot']!r}; known: {', '.join(BOT_NAMES)}")
        if not 1 <= options["games"] <= MAX_GAMES:
            raise CommandError(f"--games must be from 1 to {MAX_GAMES}")
        if options["max_moves"] is not None and options["max_moves"] < 1:
            raise CommandError("--max-moves must be at least 1")
        try:
            rules = RuleSet(size=options["size"], noise_budget=options["budget"],
                            variant=options["variant"])
        except InvalidRuleSet as exc:
            raise CommandError(str(exc)) from exc
        first = options["seed"] if options["seed"] is not None else secrets.randbits(62)
        if first < 0 or first + options["games"] > 2**63:
            raise CommandError("--seed must be from 0 to 2**63 - 1 minus the number of games")
        try:
            # Checked before the first game: a fit that does not exist, or one given to
            # a bot that takes none, is refused with nothing stored.
            weights = bot_weights(bot_name=options["bot"], fit_id=options["fit"])
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        fit_id = weights.fit_id if weights is not None else None
        scores = []
        for i in tqdm(range(options["games"]), unit="game", file=cast(TextIO, self.stderr._out)):
            game = bot_play_game(bot_name=options["bot"], rules=rules, seed=first + i,
                                 max_moves=options["max_moves"], fit_id=fit_id)
            scores.append(game.score)
        played = options["bot"] if fit_id is None else f"{options['bot']} (fit {fit_id})"
        self.stdout.write(
            f"{played} played {len(scores)} games on {rules.key} (seeds {first} .. "
            f"{first + len(scores) - 1}); mean score {sum(scores) / len(scores):.1f}"
        )
