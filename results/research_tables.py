"""The research tables of the results app: per-game analyses and threshold sweeps.

Analysis rows belong to a game and take the same filters and provenance
columns as the game tables. Sweep rows belong to no recorded game (sweep
games are replayed from their seeds, not stored): they carry the sweep's id,
seed and engine version instead, and take the filters ``sweep``, ``date_from``
/ ``date_to`` (when the sweep was created), ``engine_version`` and, where the
row has one, ``size``.
"""

from __future__ import annotations

from django.db.models import (
    BigIntegerField,
    BooleanField,
    Case,
    CharField,
    F,
    FloatField,
    IntegerField,
    TextChoices,
    Value,
    When,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce, NullIf

from core.research import Column, ColumnType, Table, register
from games.models import Game, seed_withheld_condition
from games.research_tables import provenance
from results.analysis.strategy import REFERENCE_BOTS
from results.models import (
    DecoderComparison,
    GameAnalysis,
    MoveAnalysis,
    MoveBotAgreement,
    MoveClass,
    RoundAnalysis,
    StrategyCoefficient,
    StrategyFit,
    StrategyPrediction,
    Sweep,
    SweepGame,
    SweepPoint,
    SweepPointCurve,
    SweepThreshold,
)
from results.selectors import STRATEGY_COHORTS, STRATEGY_SPLITS

_INT = ColumnType.INTEGER
_FLOAT = ColumnType.FLOAT
_STR = ColumnType.STRING
_BOOL = ColumnType.BOOLEAN
_TIME = ColumnType.DATETIME


def _allowed(choices: type[TextChoices]) -> tuple[str, ...]:
    return tuple(str(value) for value in choices.values)


def _sweep_provenance(prefix: str) -> tuple[Column, ...]:
    return (
        Column("sweep_id", ColumnType.UUID, "The sweep this row belongs to.", f"{prefix}id"),
        Column("sweep_seed", _INT,
               "The sweep's seed; each game's seed derives from it and the game's place "
               "in the grid. Up to 63 bits: read it as a 64-bit integer (a spreadsheet "
               "opening the CSV rounds 16 or more digits unless the column is imported "
               "as text).", f"{prefix}seed"),
        Column("engine_version", _INT, "Version of the game engine the sweep ran on.",
               f"{prefix}engine_version"),
        Column("family", _STR,
               "Empty for a budget sweep of the original game; planar for a threshold sweep "
               "of the planar code (a failure is a logical error); one_shot or sustained for "
               "a sweep of the game's spanning threshold (a failure is the game's loss rule: "
               "a group touching two opposite sides) (docs/rules.md).", f"{prefix}family",
               allowed=_allowed(Sweep.Kind)),
        Column("moves_per_round", _INT,
               "Moves between two noise rounds in a budget sweep (not used by threshold "
               "sweeps).", f"{prefix}moves_per_round", unit="moves"),
        Column("moves_per_cell", _FLOAT,
               "Sustained threshold sweeps: moves per cell per noise round (ceil(m L^2) moves "
               "between rounds).", f"{prefix}moves_per_cell", unit="moves per cell",
               nullable=True),
        Column("modulus", _INT,
               "Planar sweeps: the modulus d of the Z_d code (2 to 10); empty otherwise.",
               f"{prefix}modulus", values="2-10", nullable=True),
        Column("max_rounds", _INT,
               "Games still alive after this many rounds were stopped (censored); one-shot "
               "and planar shots stop after max_rounds L^2 moves (a stopped planar shot "
               "counts as failed).",
               f"{prefix}max_rounds", unit="rounds"),
    )


def _sweep_filters(prefix: str, *, size: str | None = None) -> dict[str, str]:
    paths = {
        "date": f"{prefix}created_at",
        "engine_version": f"{prefix}engine_version",
        "sweep": f"{prefix}id",
    }
    if size is not None:
        paths["size"] = size
    return paths


_POINT = (
    Column("bot_name", _STR, "The bot that played the point's games.", "point__bot_name"),
    Column("bot_version", _INT, "The bot's version.", "point__bot_version"),
    Column("board_size", _INT, "L: the board size of the point.", "point__size",
           unit="cells"),
    Column("noise_budget", _FLOAT, "The noise budget of the point (budget sweeps).",
           "point__noise_budget", unit="weight", nullable=True),
    Column("error_rate", _FLOAT, "The per-edge error rate p of the point (threshold sweeps).",
           "point__rate", unit="per edge per round", values="0-1", nullable=True),
)


def _tables() -> tuple[Table, ...]:
    coverage = _allowed(GameAnalysis.Coverage)
    move_classes = _allowed(MoveClass)
    sweep_status = _allowed(Sweep.Status)
    return (
        Table(
            name="game_analyses",
            title="Game analyses",
            description="One row per analysed game: how long it lasted and the noise it met.",
            queryset=GameAnalysis.objects.all,
            game_path="game__",
            row_id=None,
            order_by=("game__started_at", "game_id"),
            columns=(
                *provenance("game__"),
                Column("analysis_version", _INT, "Version of the analysis that wrote the row.",
                       "analysis_version"),
                Column("coverage", _STR, "How much of the game could be analysed.",
                       "coverage", allowed=coverage),
                Column("note", _STR, "What the analysis could not do, if anything.", "note"),
                Column("lost", _BOOL, "Whether the game was lost (abandoned: censored).",
                       "lost"),
                Column("survived_rounds", _INT,
                       "The noise round in which the game ended (1: the first).",
                       "survived_rounds", unit="rounds"),
                Column("survived_moves", _INT, "Moves made before the end.", "survived_moves",
                       unit="moves"),
                Column("score", _INT, "The clock t at the end.", "score", unit="moves"),
                Column("noise_errors", _INT, "Errors of every noise round; empty when the "
                       "record holds no noise (save files).", "noise_errors",
                       unit="errors", nullable=True),
                Column("new_numbers", _INT, "Errors that put numbers on empty cells.",
                       "new_numbers", unit="errors", nullable=True),
                Column("light_errors", _INT, "Errors of weight 0.1 (both cells occupied).",
                       "light_errors", unit="errors", nullable=True),
                Column("effective_error_rate", _FLOAT,
                       "noise_errors / (rounds * 2L(L-1)): errors per lattice edge per round.",
                       "effective_error_rate", unit="errors per edge per round",
                       nullable=True),
                Column("computed_at", _TIME, "When the analysis ran.", "computed_at"),
            ),
        ),
        Table(
            name="round_analyses",
            title="Round analyses",
            description="One row per noise round of an analysed game: the noise, then the "
            "board it left and its largest group.",
            queryset=RoundAnalysis.objects.all,
            game_path="game__",
            order_by=("id",),
            columns=(
                Column("round_analysis_id", _INT, "The row id (for after_id).", "id"),
                *provenance("game__"),
                Column("round", _INT, "The noise round (1: the first).", "round"),
                Column("t", _INT, "The clock at the round.", "t", unit="moves"),
                Column("errors", _INT, "Errors in the round.", "errors", unit="errors",
                       nullable=True),
                Column("new_numbers", _INT, "Errors that put numbers on empty cells.",
                       "new_numbers", unit="errors", nullable=True),
                Column("light_errors", _INT, "Errors of weight 0.1.", "light_errors",
                       unit="errors", nullable=True),
                Column("numbers", _INT, "Non-empty cells after the round.", "numbers",
                       unit="cells"),
                Column("largest_group_size", _INT, "Numbers in the largest group.",
                       "largest_group_size", unit="cells"),
                Column("largest_group_row_extent", _INT, "Rows the largest group spans.",
                       "largest_group_row_extent", unit="rows"),
                Column("largest_group_col_extent", _INT, "Columns the largest group spans.",
                       "largest_group_col_extent", unit="columns"),
                Column("max_group_extent", _INT,
                       "The widest row or column extent of any group (L: it spans).",
                       "max_group_extent", unit="cells"),
            ),
        ),
        Table(
            name="move_analyses",
            title="Move analyses",
            description="One row per move of an analysed game: what the move did.",
            queryset=MoveAnalysis.objects.all,
            game_path="game__",
            order_by=("id",),
            columns=(
                Column("move_analysis_id", _INT, "The row id (for after_id).", "id"),
                *provenance("game__"),
                Column("move_index", _INT, "The move's number (as index in moves).",
                       "move_index"),
                Column("round", _INT, "The noise round the move follows.", "round"),
                Column("move_class", _STR, "What the move did (the first class that applies).",
                       "move_class", allowed=move_classes),
            ),
        ),
        Table(
            name="move_bot_agreements",
            title="Bot agreement with moves",
            description="One row per (move, reference bot): whether the bot, shown the board "
            "the player saw, would have played the move.",
            queryset=MoveBotAgreement.objects.all,
            game_path="move__game__",
            order_by=("id",),
            columns=(
                Column("agreement_id", _INT, "The row id (for after_id).", "id"),
                *provenance("move__game__"),
                Column("move_index", _INT, "The move's number (as index in moves).",
                       "move__move_index"),
                Column("bot_name", _STR, "The reference bot.", "bot_name"),
                Column("bot_version", _INT, "The bot's version.", "bot_version"),
                Column("top1", _BOOL, "The bot's first choice has the same effect.", "top1"),
                Column("top3", _BOOL, "One of the bot's three best choices has the same effect.",
                       "top3"),
            ),
        ),
        Table(
            name="sweeps",
            title="Threshold sweeps",
            description="One row per sweep: a grid of (bot, L, budget) points played by "
            "seeded bot games.",
            queryset=Sweep.objects.all,
            game_path=None,
            row_id=None,
            order_by=("created_at", "id"),
            extra_filter_paths=_sweep_filters(""),
            columns=(
                *_sweep_provenance(""),
                Column("games_per_point", _INT, "Games played at each point.",
                       "games_per_point", unit="games"),
                Column("status", _STR, "The sweep's state.", "status", allowed=sweep_status),
                Column("created_at", _TIME, "When the sweep was created.", "created_at"),
                Column("started_at", _TIME, "When it started.", "started_at", nullable=True),
                Column("finished_at", _TIME, "When it finished.", "finished_at",
                       nullable=True),
            ),
        ),
        Table(
            name="sweep_points",
            title="Sweep points",
            description="One row per (bot, L, budget) of a sweep: lifetime statistics in "
            "noise rounds, with their 95% intervals.",
            queryset=SweepPoint.objects.all,
            game_path=None,
            order_by=("id",),
            extra_filter_paths=_sweep_filters("sweep__", size="size"),
            columns=(
                Column("point_id", _INT, "The row id (for after_id).", "id"),
                *_sweep_provenance("sweep__"),
                Column("bot_name", _STR, "The bot.", "bot_name"),
                Column("bot_version", _INT, "The bot's version.", "bot_version"),
                Column("board_size", _INT, "L: the board size.", "size", unit="cells"),
                Column("noise_budget", _FLOAT, "The noise budget (budget sweeps).",
                       "noise_budget", unit="weight", nullable=True),
                Column("error_rate", _FLOAT, "The per-edge error rate p (threshold sweeps).",
                       "rate", unit="per edge per round", values="0-1", nullable=True),
                Column("games_target", _INT, "Games (shots) to play.", "games_target",
                       unit="games"),
                Column("games_done", _INT, "Games (shots) played.", "games_done",
                       unit="games"),
                Column("losses", _INT, "Games lost, or shots failed.", "losses", unit="games"),
                Column("censored", _INT, "Games stopped before an outcome.", "censored",
                       unit="games"),
                Column("failures", _INT,
                       "Threshold sweeps: the failures counted in failure_rate (failed shots; "
                       "for sustained sweeps the losses in the hazard plateau's rounds).",
                       "failures", unit="games", nullable=True),
                Column("trials", _INT,
                       "Threshold sweeps: the trials of failure_rate (one-shot: shots that "
                       "finished; sustained: game-rounds at risk in the plateau, or in all "
                       "rounds when there is no plateau).", "trials", nullable=True),
                Column("failure_rate", _FLOAT,
                       "failures / trials: the failure probability (one-shot) or the loss "
                       "rate per round (sustained).", "failure_rate", values="0-1",
                       nullable=True),
                Column("failure_ci_low", _FLOAT, "Its 95% Wilson interval, low end.",
                       "failure_ci_low", values="0-1", nullable=True),
                Column("failure_ci_high", _FLOAT, "Its 95% Wilson interval, high end.",
                       "failure_ci_high", values="0-1", nullable=True),
                *(
                    Column(name, _FLOAT, meaning, name, unit=unit, nullable=True)
                    for name, meaning, unit in (
                        ("mean_rounds", "Kaplan-Meier restricted mean lifetime.", "rounds"),
                        ("mean_ci_low", "Its 95% bootstrap interval, low end.", "rounds"),
                        ("mean_ci_high", "Its 95% bootstrap interval, high end.", "rounds"),
                        ("median_rounds", "Median lifetime.", "rounds"),
                        ("median_ci_low", "Its 95% interval, low end.", "rounds"),
                        ("median_ci_high", "Its 95% interval, high end.", "rounds"),
                        ("plateau_hazard", "Late-round hazard: losses per game at risk "
                         "per round.", "per round"),
                        ("plateau_ci_low", "Its 95% Wilson interval, low end.", "per round"),
                        ("plateau_ci_high", "Its 95% Wilson interval, high end.",
                         "per round"),
                    )
                ),
                Column("plateau_start_round", _INT, "The round the plateau starts at.",
                       "plateau_start_round", unit="rounds", nullable=True),
            ),
        ),
        Table(
            name="sweep_point_curves",
            title="Sweep survival and hazard curves",
            description="One row per (point, round): the Kaplan-Meier survival and the "
            "hazard of the point's games.",
            queryset=SweepPointCurve.objects.all,
            game_path=None,
            order_by=("id",),
            extra_filter_paths=_sweep_filters("point__sweep__", size="point__size"),
            columns=(
                Column("curve_id", _INT, "The row id (for after_id).", "id"),
                *_sweep_provenance("point__sweep__"),
                Column("point_id", _INT, "The point (see sweep_points).", "point_id"),
                *_POINT,
                Column("round", _INT, "The noise round.", "round", unit="rounds"),
                Column("at_risk", _INT, "Games that reached the round.", "at_risk",
                       unit="games"),
                Column("events", _INT, "Games lost in the round.", "events", unit="games"),
                Column("censored", _INT, "Games stopped in the round.", "censored",
                       unit="games"),
                Column("survival", _FLOAT, "Kaplan-Meier survival just after the round.",
                       "survival", values="0-1"),
                Column("ci_low", _FLOAT, "Log-log Greenwood 95% band, low end.", "ci_low",
                       values="0-1"),
                Column("ci_high", _FLOAT, "Its high end.", "ci_high", values="0-1"),
                Column("hazard", _FLOAT, "events / at_risk.", "hazard", values="0-1",
                       nullable=True),
                Column("hazard_ci_low", _FLOAT, "Wilson 95% interval, low end.",
                       "hazard_ci_low", values="0-1"),
                Column("hazard_ci_high", _FLOAT, "Its high end.", "hazard_ci_high",
                       values="0-1"),
            ),
        ),
        Table(
            name="sweep_games",
            title="Sweep games",
            description="One row per game of a sweep: its seed and how long it lasted (the "
            "game replays from the seed; its events are not stored).",
            queryset=SweepGame.objects.all,
            game_path=None,
            order_by=("id",),
            extra_filter_paths=_sweep_filters("chunk__point__sweep__", size="chunk__point__size"),
            columns=(
                Column("sweep_game_id", _INT, "The row id (for after_id).", "id"),
                *_sweep_provenance("chunk__point__sweep__"),
                Column("point_id", _INT, "The point (see sweep_points).", "chunk__point_id"),
                *(
                    Column(c.name, c.type, c.meaning, f"chunk__{c.source}", unit=c.unit)
                    for c in _POINT
                ),
                Column("game_index", _INT, "The game's number within its point.",
                       "game_index"),
                Column("seed", _INT, "The game's seed; a threshold shot's 64-bit seed is "
                       "stored signed (add 2^64 to a negative value). Read it as a 64-bit "
                       "integer (a spreadsheet rounds 16 or more digits unless the column is "
                       "imported as text).", "seed"),
                Column("rounds", _INT, "The noise round in which it ended (1 for a one-shot "
                       "shot).", "rounds", unit="rounds"),
                Column("moves", _INT, "Moves made.", "moves", unit="moves"),
                Column("score", _INT, "The clock t at the end (threshold sweeps: the moves).",
                       "score", unit="moves"),
                Column("lost", _BOOL, "The game was lost (a threshold shot failed).", "lost"),
                Column("censored", _BOOL, "Stopped before an outcome (at max_rounds).",
                       "censored"),
            ),
        ),
        Table(
            name="sweep_thresholds",
            title="Sweep thresholds",
            description="One row per (sweep, bot): the estimated threshold budget (budget "
            "sweeps), or the threshold error rate by crossings of adjacent-L curves and by a "
            "finite-size-scaling fit side by side (threshold sweeps); empty with a message "
            "when no crossing was found.",
            queryset=SweepThreshold.objects.all,
            game_path=None,
            order_by=("id",),
            extra_filter_paths=_sweep_filters("sweep__"),
            columns=(
                Column("threshold_id", _INT, "The row id (for after_id).", "id"),
                *_sweep_provenance("sweep__"),
                Column("bot_name", _STR, "The bot.", "bot_name"),
                Column("threshold_budget", _FLOAT, "The estimated threshold noise budget.",
                       "threshold_budget", unit="weight", nullable=True),
                Column("ci_low", _FLOAT, "Its 95% interval, low end.", "ci_low",
                       unit="weight", nullable=True),
                Column("ci_high", _FLOAT, "Its 95% interval, high end.", "ci_high",
                       unit="weight", nullable=True),
                Column("crossing_fraction", _FLOAT,
                       "Share of bootstrap resamples in which the curves crossed.",
                       "crossing_fraction", values="0-1", nullable=True),
                Column("note", _STR, "Why there is no estimate, if there is none.", "note"),
                *(
                    Column(name, _FLOAT, meaning, name, unit=unit, nullable=True)
                    for name, meaning, unit in (
                        ("crossing", "Threshold sweeps: the inverse-variance-weighted mean "
                         "of the crossings of adjacent-L failure curves (empty when they do "
                         "not cross).", "per edge"),
                        ("crossing_low", "Its 95% bootstrap interval, low end.", "per edge"),
                        ("crossing_high", "Its 95% bootstrap interval, high end.",
                         "per edge"),
                        ("scaling_p_th", "The threshold of the finite-size-scaling fit "
                         "logit P = f((p - p_th) L^(1/nu)), f quadratic.", "per edge"),
                        ("scaling_low", "Its 95% bootstrap interval, low end.", "per edge"),
                        ("scaling_high", "Its 95% bootstrap interval, high end.", "per edge"),
                        ("scaling_nu", "The fit's exponent nu.", ""),
                        ("scaling_nu_low", "Its 95% bootstrap interval, low end.", ""),
                        ("scaling_nu_high", "Its 95% bootstrap interval, high end.", ""),
                        ("scaling_chi2_dof", "The fit's chi-square per degree of freedom.",
                         ""),
                    )
                ),
                Column("crossing_at_edge", _BOOL,
                       "The crossing lies in the first or last interval of the rates swept.",
                       "crossing_at_edge", nullable=True),
                Column("methods_agree", _BOOL,
                       "The two methods' 95% intervals overlap (empty when either is "
                       "missing).", "methods_agree", nullable=True),
                Column("direction", _STR,
                       "crossing; below (failure falls with L everywhere: below threshold "
                       "everywhere); above (rises everywhere); unclear.", "direction",
                       allowed=("", "crossing", "below", "above", "unclear")),
                Column("message", _STR,
                       "What was found, in words: points left out, disagreement, a crossing "
                       "at the edge.", "message"),
            ),
        ),
    )


register(*_tables())


def _not_cleaned(prefix: str) -> Case:
    """True when the game at ``prefix`` ended without cleaning its board (abandoned)."""
    return Case(
        When(**{f"{prefix}status": Game.Status.FINISHED}, then=Value(False)),
        default=Value(True),
        output_field=BooleanField(),
    )


def _comparison_table() -> Table:
    """People against the decoders: one row per (person's planar game, planar decoder)."""
    return Table(
        name="decoder_comparisons",
        title="People against the decoders",
        description="One row per person's ended planar game (board cleaned or abandoned) and "
        "planar decoder: the decoder played the same board (rule set and seed), and how the "
        "two corrections compare (docs/humans-vs-decoders.md). A game that did not clean the "
        "board counts as a logical failure on either side (see human_abandoned, "
        "bot_abandoned). Several people may play one board (a daily planar board): the "
        "decoder's game there is one observation, repeated on each person's row, so pair by "
        "board (rules_key and seed), not by row. Its rows follow the person's game.",
        queryset=DecoderComparison.objects.all,
        game_path="human_game__",
        order_by=("id",),
        columns=(
            Column("comparison_id", _INT, "The row id (for after_id).", "id"),
            *provenance("human_game__"),
            Column("player", ColumnType.PSEUDONYM,
                   "The person's pseudonym (see players).", "human_game__player_id"),
            Column("seed", _STR,
                   "The seed of the board both played (typed as text, as in games: a "
                   "spreadsheet rounds 16 or more digits). Empty while it is withheld: a "
                   "daily planar board's until its day is over.",
                   Cast(Case(When(seed_withheld_condition(prefix="human_game__"),
                                  then=Value(None)),
                             default=F("human_game__seed"), output_field=BigIntegerField()),
                        output_field=CharField()),
                   nullable=True),
            Column("daily_date", _STR,
                   "The UTC day (YYYY-MM-DD) whose daily planar board the person played, as "
                   "in games; empty for any other board.",
                   Cast("human_game__daily__date", output_field=CharField()), nullable=True,
                   values="YYYY-MM-DD"),
            Column("human_logical_failure", _BOOL,
                   "The person's correction left a logical error (a charge carried from one "
                   "side of the board to the other), or the person abandoned the game "
                   "(counted as failed).", "human_failed"),
            Column("human_abandoned", _BOOL,
                   "The person gave up before the board was clean (counted as failed).",
                   _not_cleaned("human_game__")),
            Column("bot_name", _STR, "The planar decoder that played the same board.",
                   "decoder"),
            Column("bot_version", _INT,
                   "The decoder's version: an integer, as bot_version in sweep_points, "
                   "move_bot_agreements and decodoku_bot_answers.",
                   Cast("decoder_version", output_field=IntegerField())),
            Column("bot_game_id", ColumnType.UUID,
                   "The decoder's recorded game (a bot game, see games).", "bot_game_id"),
            Column("bot_logical_failure", _BOOL,
                   "The decoder's correction left a logical error, or it did not clean the "
                   "board (counted as failed).", "bot_failed"),
            Column("bot_abandoned", _BOOL,
                   "The decoder's game stopped (its move cap) before the board was clean "
                   "(counted as failed).", _not_cleaned("bot_game__")),
            Column("same_outcome", _BOOL,
                   "Both failed or neither did.", "same_outcome"),
            Column("same_class", _BOOL,
                   "The two net corrections differ by stabilisers only (the same homology "
                   "class, the same logical charge); empty when either game did not clean "
                   "the board.", "same_class", nullable=True),
            Column("same_chain", _BOOL,
                   "The two net corrections carry the same charge along every edge; empty "
                   "when either game did not clean the board.", "same_chain", nullable=True),
            Column("human_class_odds", _FLOAT,
                   "The posterior probability of the class the person's game ended in, from "
                   "the optimal decoder (games.class_odds). Empty for an abandoned game (it "
                   "ended in no class; the comparison page counts it as 0, the probability "
                   "that it succeeds) and for a board beyond the exact computation.",
                   "human_game__class_odds", values="0-1", nullable=True),
            Column("bot_class_odds", _FLOAT,
                   "The same for the decoder's game (games.class_odds of bot_game_id); empty "
                   "when the decoder did not clean the board or the board is beyond the exact "
                   "computation.", "bot_game__class_odds", values="0-1", nullable=True),
            Column("best_class_odds", _FLOAT,
                   "The board's most likely class's probability (what the optimal decoder "
                   "chooses: the best any decoder can do on this board), from whichever of "
                   "the two games has it; empty beyond the exact computation or when neither "
                   "game cleaned the board.",
                   Coalesce("human_game__best_class_odds", "bot_game__best_class_odds"),
                   values="0-1", nullable=True),
        ),
    )


register(_comparison_table())


def _cohort(prefix: str) -> Case:
    """A fit's cohort as the strategy command names it (stored empty for every game)."""
    return Case(When(**{f"{prefix}cohort": ""}, then=Value("all")),
                default=F(f"{prefix}cohort"), output_field=CharField())


_SCORE_MEANINGS = {
    "top1": ("Held-out top-1 accuracy: the share of moves made that were the move given the "
             "highest probability (ties shared as a fair random order would share them).",
             "0-1"),
    "top3": ("Held-out top-3 accuracy: the share of moves made among the three given the "
             "highest probabilities.", "0-1"),
    "loglik": ("Held-out mean natural log-likelihood per move (0 is perfect; the random "
               "bot's is the chance level).", ""),
}


def _json_number(path: str, field: FloatField | IntegerField) -> Cast:
    """A number stored in JSON, empty for a JSON null (SQLite reads a null's text as 'null')."""
    return Cast(NullIf(KT(path), Value("null")), output_field=field)


def _heldout_columns() -> tuple[Column, ...]:
    """The cross-validated scores of the model and of every reference bot, one column each."""
    columns = []
    for who in ("model", *REFERENCE_BOTS):
        path = "heldout__model" if who == "model" else f"heldout__bots__{who}"
        owner = ("the fitted model" if who == "model"
                 else f"the {who} bot (a softmax of its scores, temperature fitted on the "
                 "training folds)")
        for score, (meaning, values) in _SCORE_MEANINGS.items():
            columns.append(Column(
                f"{who}_{score}", _FLOAT, f"{meaning} Of {owner}; empty when not defined.",
                _json_number(f"{path}__{score}", FloatField()),
                values=values, nullable=True,
            ))
    return tuple(columns)


def _cohort_test_columns() -> tuple[Column, ...]:
    """A split fit's test of whether its cohorts weigh the features differently."""
    path = "by_cohort__test__"
    tests: tuple[tuple[str, ColumnType, str, str, FloatField | IntegerField], ...] = (
        ("cohort_lr", _FLOAT, "lr", "The likelihood ratio of the cohorts fitted apart against "
         "every move fitted together (it counts every move as independent, so it overstates).",
         FloatField()),
        ("cohort_lr_df", _INT, "df", "Its degrees of freedom: the cohorts' weights together "
         "less the pooled fit's.", IntegerField()),
        ("cohort_lr_p", _FLOAT, "lr_p", "Its chi-square p-value.", FloatField()),
        ("cohort_wald_p", _FLOAT, "wald_p", "The p-value of a Wald test of the cohorts' "
         "differences with covariances clustered by player; empty when too few players.",
         FloatField()),
        ("cohort_permutation_p", _FLOAT, "permutation_p", "The p-value of the likelihood "
         "ratio when the cohorts are permuted among the players; empty when not made.",
         FloatField()),
    )
    return tuple(
        Column(name, kind, f"{meaning} Empty for a fit not split into cohorts.",
               _json_number(f"{path}{key}", field), nullable=True)
        for name, kind, key, meaning, field in tests
    )


_FIT = (
    Column("fit_id", _INT, "The strategy fit (see strategy_fits).", "fit_id"),
    Column("cohort", _STR, "The games the fit took: all, one variant (z10, phi_lambda) or one "
           "source (played_here, imported); or all, split into cohorts of skill, variant or "
           "source and each fitted alone too (skill, variant, source).", _cohort("fit__"),
           allowed=STRATEGY_COHORTS),
)


def _strategy_tables() -> tuple[Table, ...]:
    """The strategy model's fits (docs/strategy.md): aggregates of research data only.

    A fit reads research data alone (``strategy_moves``), so its aggregates
    need no filter of their own; its per-move predictions belong to their
    games and follow the games' rule like every other game table.
    """
    return (
        Table(
            name="strategy_fits",
            title="Strategy fits",
            description="One row per fit of the strategy model (a conditional logit over the "
            "legal moves of each board, docs/strategy.md) to people's moves of research data: "
            "the data it saw, its versions, its size and its scores on players it never saw "
            "(cross-validation grouped by player). Fits are never changed; a refit is a new "
            "row.",
            queryset=StrategyFit.objects.all,
            game_path=None,
            order_by=("id",),
            extra_filter_paths={"date": "created_at"},
            columns=(
                Column("fit_id", _INT, "The row id (for after_id).", "id"),
                Column("created_at", _TIME, "When the fit was stored.", "created_at"),
                Column("data_cutoff", _INT,
                       "The id of the last stored event when the moves were read: the fit saw "
                       "no later move.", "data_cutoff"),
                Column("feature_set_version", _INT,
                       "Version of the move features (games.engine.strategy).",
                       "feature_set_version"),
                Column("model_version", _INT, "Version of the fitting code.", "model_version"),
                Column("cohort", _STR, _FIT[1].meaning, _cohort(""), allowed=STRATEGY_COHORTS),
                Column("folds", _INT, "Folds of the cross-validation.", "folds"),
                Column("seed", _INT, "The seed that dealt the players into folds.", "seed"),
                Column("player_cap", _INT,
                       "No player counts for more than this many moves (each of a player's n "
                       "moves weighs min(1, cap / n)).", "player_cap", unit="moves"),
                Column("moves", _INT, "Moves fitted.", "n_moves", unit="moves"),
                Column("players", _INT,
                       "Players (units) fitted: a player for games played here, a save file "
                       "for imported games.", "n_players"),
                Column("games", _INT, "Games that gave at least one move.", "n_games",
                       unit="games"),
                Column("loglik", _FLOAT, "The weighted log-likelihood of the fit on all its "
                       "moves.", "loglik"),
                *_heldout_columns(),
                *_cohort_test_columns(),
            ),
        ),
        Table(
            name="strategy_coefficients",
            title="Strategy coefficients",
            description="One row per (fit, feature): the fitted weight of the feature in the "
            "strategy model and its 95% interval (cluster-robust by player). A feature the "
            "moves cannot tell apart from the others is not fitted and has no row.",
            queryset=StrategyCoefficient.objects.all,
            game_path=None,
            order_by=("id",),
            extra_filter_paths={"date": "fit__created_at"},
            columns=(
                Column("coefficient_id", _INT, "The row id (for after_id).", "id"),
                *_FIT,
                Column("split_cohort", _STR,
                       "For a fit split into cohorts (cohort skill, variant or source): the "
                       "cohort fitted alone whose weight this is (skill: low, middle, high "
                       "score tertile within the rule group; variant: z10, phi_lambda; source: "
                       "played_here, imported); empty for the weights fitted to every move.",
                       "cohort", allowed=("", *(name for names in STRATEGY_SPLITS.values()
                                                for name in names))),
                Column("feature", _STR, "The feature (its meaning: docs/strategy.md).",
                       "feature"),
                Column("coef", _FLOAT, "Its fitted weight: the change of the log-odds of a "
                       "move per unit of the feature.", "coef", nullable=True),
                Column("se", _FLOAT, "Its standard error, clustered by player.", "se",
                       nullable=True),
                Column("lower", _FLOAT, "Its 95% interval, low end.", "lower", nullable=True),
                Column("upper", _FLOAT, "Its 95% interval, high end.", "upper", nullable=True),
            ),
        ),
        Table(
            name="strategy_predictions",
            title="Strategy predictions",
            description="One row per (fit, held-out move): the probability the fitted model "
            "and each reference bot gave the move the player made, each trained on the folds "
            "that did not hold the player. Its rows follow the move's game.",
            queryset=StrategyPrediction.objects.all,
            game_path="game__",
            order_by=("id",),
            columns=(
                Column("prediction_id", _INT, "The row id (for after_id).", "id"),
                *_FIT,
                *provenance("game__"),
                Column("player", ColumnType.PSEUDONYM, "The player's pseudonym (see players).",
                       "game__player_id"),
                Column("move_seq", _INT, "The move's event in its game (seq in events).",
                       "move_seq"),
                Column("fold", _INT, "The fold that held the move out (0 first).", "fold"),
                Column("legal_moves", _INT, "Legal moves of the board the player saw.",
                       "legal_moves", unit="moves"),
                Column("explanations", _INT,
                       "Legal moves that explain the move made: 2 for an imported annihilation "
                       "(either number moved onto the other), else 1; each probability is "
                       "summed over them.", "explanations", values="1-2"),
                Column("weight", _FLOAT, "The move's weight in the fit (min(1, cap / n) for "
                       "a player of n moves).", "weight", values="0-1"),
                Column("p_model", _FLOAT, "The probability the fitted model gave the move.",
                       "p_model", values="0-1"),
                *(
                    Column(f"p_{bot}", _FLOAT,
                           f"The probability the {bot} bot gave the move (a softmax of its "
                           "scores, temperature fitted on the training folds).", f"p_{bot}",
                           values="0-1")
                    for bot in REFERENCE_BOTS
                ),
            ),
        ),
    )


register(*_strategy_tables())
