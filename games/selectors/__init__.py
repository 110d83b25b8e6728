"""Reads: finding players and games, and what a player may see of a game.

What is shown follows the rules of the game and of the research:

* group ids of an active game are never shown in normal mode (inferring them
  is the research problem); practice mode shows them;
* in the Phi-Lambda variant an active game shows a 5 as ``L`` (Lambda) and
  every other number as ``P`` (Phi), never the number itself;
* the seed of an active game is never shown (it would reveal all the noise
  to come);
* once a game has ended everything is shown: seed, values, groups, every
  event and the board after every step (the replay);
* a planar game (``games.engine.planar``) shows its values (Z_d) while it
  is active but neither its events nor its noise: they tell the charge
  carried across the sides, the logical outcome, which is shown only once
  the board is clean (``outcome``).

Boards are given as rows of one character per cell: ``0`` for empty and the
value ``1``-``9``, or the symbols above (and, for partially observed save
files, those of ``games.recording.PARTIAL_SYMBOLS``).

The reads are split by what they are about, one module each: ``players``,
``scores`` (percentiles), ``games``, ``visibility`` (what a player may see:
the views of boards, events, rules and outcomes), ``sharing`` and ``daily``.
Every public name is also importable from ``games.selectors`` itself.
"""

from games.selectors.daily import (
    daily_challenge_by_date,
    daily_days,
    daily_leaderboard,
    daily_player_game,
    daily_today_view,
    daily_view,
)
from games.selectors.games import (
    game_board_at,
    game_events,
    game_get_for_player,
    game_last_step,
    game_list_for_player,
    game_snapshots,
)
from games.selectors.players import (
    days_streaks,
    display_names,
    player_by_id,
    player_by_recovery_code,
    player_by_token,
    player_consent_view,
    player_games_view,
    player_label,
    player_personal_bests,
)
from games.selectors.scores import (
    SCORE_COUNTS_SECONDS,
    ScoreGroup,
    score_counts,
    score_percentiles,
)
from games.selectors.sharing import (
    SHARE_TOKEN_PATTERN,
    TIMES,
    VARIANT_LABELS,
    share_text,
    shared_game_by_token,
    shared_game_view,
)
from games.selectors.visibility import (
    MASKED_VALUES,
    Visibility,
    board_view,
    class_odds_text,
    event_view,
    game_public_view,
    game_visibility,
    move_public_view,
    open_day_board,
    outcome_view,
    rules_view,
    seed_withheld,
    snapshot_view,
)

__all__ = [
    "MASKED_VALUES",
    "SCORE_COUNTS_SECONDS",
    "SHARE_TOKEN_PATTERN",
    "TIMES",
    "VARIANT_LABELS",
    "ScoreGroup",
    "Visibility",
    "board_view",
    "class_odds_text",
    "daily_challenge_by_date",
    "daily_days",
    "daily_leaderboard",
    "daily_player_game",
    "daily_today_view",
    "daily_view",
    "days_streaks",
    "display_names",
    "event_view",
    "game_board_at",
    "game_events",
    "game_get_for_player",
    "game_last_step",
    "game_list_for_player",
    "game_public_view",
    "game_snapshots",
    "game_visibility",
    "move_public_view",
    "open_day_board",
    "outcome_view",
    "player_by_id",
    "player_by_recovery_code",
    "player_by_token",
    "player_consent_view",
    "player_games_view",
    "player_label",
    "player_personal_bests",
    "rules_view",
    "score_counts",
    "score_percentiles",
    "seed_withheld",
    "share_text",
    "shared_game_by_token",
    "shared_game_view",
    "snapshot_view",
]
