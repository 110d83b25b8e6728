"""``manage.py simulate``: play games with a bot policy and save them as legacy save files.

Game ``i`` of a run seeded with ``--seed S`` uses outputs 2i+1 (noise: its
top 63 bits, so the seed fits a stored game's) and 2i+2 (policy) of the
SplitMix64 stream seeded with S, so every game can be reproduced on its own
(see ``games.engine.simulate``).
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.engine.bots import BOTS
from games.engine.errors import EngineError
from games.engine.rng import MASK64
from games.engine.rules import MAX_SIZE, MIN_SIZE, MergeLabel, Variant
from games.engine.simulate import make_rules, simulate_games


class Command(BaseCommand):
    help = "Play games with a policy and write each as a legacy save file (CSV)."

    def add_arguments(self, parser):
        parser.add_argument("--policy", default="random",
                            help=f"the bot policy ({', '.join(sorted(BOTS))})")
        parser.add_argument("--games", type=int, default=1, help="how many games to play")
        parser.add_argument("--size", type=int, default=7,
                            help=f"the board size L ({MIN_SIZE} to {MAX_SIZE})")
        parser.add_argument("--seed", type=int, default=0,
                            help="the run's seed (0 to 2**64 - 1); game i's seeds derive from it")
        parser.add_argument("--budget", type=float, default=6.0,
                            help="noise weight per round (6 in the original game)")
        parser.add_argument("--variant", default="z10",
                            choices=[str(v) for v in Variant], help="z10 or phi_lambda")
        parser.add_argument("--moves-per-round", type=int, default=5,
                            help="moves between noise rounds (5 in the original game)")
        parser.add_argument("--merge-label", default=str(MergeLabel.DESTINATION),
                            choices=[str(m) for m in MergeLabel],
                            help="which group id a merge by a move keeps")
        parser.add_argument("--max-moves", type=int, default=None,
                            help="stop a game that is still going after this many moves")
        parser.add_argument("--save-dir", default=None,
                            help="directory for the save files (created if missing)")

    def handle(self, *args, **options):
        games = options["games"]
        if games < 1:
            raise CommandError(f"--games must be at least 1, got {games}")
        seed = options["seed"]
        if not 0 <= seed <= MASK64:
            raise CommandError(f"--seed must be between 0 and 2**64 - 1, got {seed}")
        if options["policy"] not in BOTS:
            raise CommandError(
                f"unknown policy {options['policy']!r}; known: {', '.join(sorted(BOTS))}"
            )
        max_moves = options["max_moves"]
        if max_moves is not None and max_moves < 1:
            raise CommandError(f"--max-moves must be at least 1, got {max_moves}")
        try:
            rules = make_rules(
                size=options["size"],
                variant=options["variant"],
                budget=options["budget"],
                moves_per_round=options["moves_per_round"],
                merge_label=options["merge_label"],
            )
        except EngineError as exc:
            raise CommandError(f"bad rule set: {exc}") from exc
        save_dir = options["save_dir"]
        if save_dir is not None:
            directory = Path(save_dir)
            try:
                directory.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise CommandError(f"cannot use {save_dir} as the save directory: {exc}") from exc
        scores = []
        try:
            for played in simulate_games(policy=options["policy"], games=games, seed=seed,
                                         rules=rules, max_moves=max_moves):
                scores.append(played.score)
                written = ""
                if save_dir is not None:
                    try:
                        written = f" -> {played.write(save_dir)}"
                    except OSError as exc:
                        raise CommandError(f"cannot write into {save_dir}: {exc}") from exc
                state = "" if played.finished else " (unfinished)"
                self.stdout.write(
                    f"game {played.index}: noise seed {played.noise_seed}, policy seed "
                    f"{played.policy_seed}, score {played.score}{state}, "
                    f"{played.game.moves_made} moves{written}"
                )
        except EngineError as exc:
            raise CommandError(str(exc)) from exc
        mean = sum(scores) / len(scores)
        self.stdout.write(
            f"{len(scores)} game{'s' if len(scores) != 1 else ''} ({rules.key}, policy "
            f"{options['policy']}, seed {seed}): mean score {mean:.2f}, min {min(scores)}, "
            f"max {max(scores)}"
        )
