"""``manage.py strategy``: fit the strategy model to people's moves, or show a stored fit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from results.models import StrategyFit
from results.selectors import STRATEGY_COHORTS
from results.services.strategy import (
    DEFAULT_PLAYER_CAP,
    StrategyFitError,
    strategy_fit_create,
    strategy_fit_summary,
)


class Command(BaseCommand):
    help = ("Fit the strategy model (a conditional logit over the legal moves) to every human "
            "move of research data and store the fit, or show a stored fit (docs/strategy.md).")

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        fit = sub.add_parser("fit", help="fit, cross-validate by player and store a new fit")
        fit.add_argument("--cohort", choices=STRATEGY_COHORTS, default="all",
                         help="which games' moves (default: all); skill, variant or source "
                         "fit every game and each cohort apart, and test their differences")
        fit.add_argument("--permutations", type=int, default=0,
                         help="with a split cohort: arrangements of the players for the "
                         "permutation test (default 0: none)")
        fit.add_argument("--folds", type=int, default=5, help="folds of players (default 5)")
        fit.add_argument("--seed", type=int, default=0, help="seed of the folds (default 0)")
        fit.add_argument("--player-cap", type=int, default=DEFAULT_PLAYER_CAP,
                         help=f"most moves a player counts for (default {DEFAULT_PLAYER_CAP})")
        fit.add_argument("--json", type=Path, metavar="FILE", help="also write the fit here")
        show = sub.add_parser("show", help="print a stored fit as JSON")
        show.add_argument("fit_id", type=int, metavar="FIT_ID")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] == "show":
            fit = StrategyFit.objects.filter(pk=options["fit_id"]).first()
            if fit is None:
                raise CommandError(f"there is no strategy fit {options['fit_id']}")
            self.stdout.write(json.dumps(strategy_fit_summary(fit=fit), indent=2))
            return
        try:
            fit = strategy_fit_create(cohort=options["cohort"], folds=options["folds"],
                                      seed=options["seed"], player_cap=options["player_cap"],
                                      permutations=options["permutations"])
        except StrategyFitError as exc:
            raise CommandError(str(exc)) from None
        summary = strategy_fit_summary(fit=fit)
        if options["json"] is not None:
            options["json"].write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        self.stdout.write(f"strategy fit {fit.pk}: {fit.n_moves} moves, {fit.n_players} players, "
                          f"{fit.n_games} games")
        for row in fit.coefficients:
            self.stdout.write(f"  {row['name']:<24} {row['coef']:9.3f}  "
                              f"[{row['lower']:.3f}, {row['upper']:.3f}]")
        bots = fit.heldout["bots"]
        for name, scores in [("model", fit.heldout["model"]), *bots.items()]:
            self.stdout.write(f"  held out {name:<11} top-1 {_shown(scores['top1'])}  "
                              f"top-3 {_shown(scores['top3'])}  "
                              f"log-likelihood {_shown(scores['loglik'])}")
        if fit.by_cohort is not None:
            for cohort in fit.by_cohort["cohorts"]:
                self.stdout.write(f"  cohort {cohort['name']}: {cohort['n_moves']} moves, "
                                  f"{cohort['n_players']} players")
                for row in cohort["features"]:
                    self.stdout.write(f"    {row['name']:<22} {_shown(row['coef']):>9}  "
                                      f"[{_shown(row['lower'])}, {_shown(row['upper'])}]")
            self.stdout.write(fit.by_cohort["verdict"])


def _shown(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"
