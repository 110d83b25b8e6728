"""One definition of "the same rules" (``games.rulesets.rule_group``), used by the scores."""

from __future__ import annotations

import pytest

from games.engine import RuleSet
from games.engine.rules import MergeLabel
from games.models import Game, Player
from games.rulesets import RULE_GROUP_FIELDS, RULES_COLUMNS, rule_group
from games.selectors import score_percentiles
from games.services import game_abandon
from tests.factories import GameFactory, PlayerFactory, play


def test_the_rule_group_fields_are_rule_set_columns_that_change_the_outcome() -> None:
    assert set(RULE_GROUP_FIELDS) <= set(RULES_COLUMNS)
    base = RuleSet(size=7, noise_budget=6.0, moves_per_round=5, merge_label=MergeLabel.DESTINATION)
    relabelled = RuleSet(size=7, noise_budget=6.0, moves_per_round=5, merge_label=MergeLabel.MOVED)
    slower = RuleSet(
        size=7, noise_budget=6.0, moves_per_round=3, merge_label=MergeLabel.DESTINATION
    )
    assert rule_group(base) == rule_group(relabelled)  # a label changes no outcome
    assert rule_group(base) != rule_group(slower)
    assert rule_group(base).label == "z10-L7-b6-m5"


def _ended(player: Player, **rules: object) -> Game:
    game = play(GameFactory.create(player=player, size=5, **rules), moves=2)
    if game.is_active:
        game = game_abandon(game_id=game.pk, player=player)
    return game


@pytest.mark.django_db
def test_scores_are_compared_only_within_one_rule_group(player: Player) -> None:
    mine = _ended(player, seed=31)
    others = PlayerFactory.create()
    _ended(others, seed=32)  # the same rules: compared
    _ended(others, seed=33, noise_budget=3.0)  # another noise budget
    _ended(others, seed=34, moves_per_round=2)  # another number of moves per round
    _ended(others, seed=35, merge_label="moved")  # only the label differs: compared
    assert score_percentiles(games=[mine])[mine.pk][1] == 3
