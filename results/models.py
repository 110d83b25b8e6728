"""Database models of the results app: per-game analyses and threshold sweeps.

Per game (written by ``results.services.analysis``, one row set per game):
:class:`GameAnalysis` (survival and realized noise), :class:`RoundAnalysis`
(noise and the largest group after each noise round), :class:`MoveAnalysis`
(what each move did) and :class:`MoveBotAgreement` (whether each reference
bot would have played it).

Threshold sweeps (``results.services.sweeps``): a :class:`Sweep` is a grid of
(bot, L, noise budget) points, each played by seeded games in chunks
(:class:`SweepChunk`, one row per finished chunk with its games'
outcomes in :class:`SweepGame`), summarised per point (:class:`SweepPoint`,
its curve in :class:`SweepPointCurve`) and per bot (:class:`SweepThreshold`).
Curves are rows, not JSON, so that exports stay flat tables.
"""

from __future__ import annotations

import uuid

from django.db import models
from django.db.models import Q
from django.utils import timezone

from games.engine.families import NO_FAMILY
from games.engine.rules import Family as EngineFamily
from games.models import Game


class GameAnalysis(models.Model):
    """What one finished game shows: how long it lasted and how much noise it met.

    ``survived_rounds`` is the noise round in which the game ended (1: the
    first), the duration used by the survival statistics; ``lost`` says
    whether the game was lost (an abandoned game is censored).
    Noise totals count errors of every round (``light_errors``: those of
    weight 0.1, which hit two numbers). ``effective_error_rate`` is errors
    per edge of the lattice per round: noise_errors / (rounds * 2L(L-1)).
    The noise totals and the rate are null when the record does not hold the
    noise (uploaded save files); ``coverage`` says how much could be analysed.
    """

    class Coverage(models.TextChoices):
        FULL = "full", "Full replay from the seed"
        BOARDS = "boards", "Stored boards and moves (no noise events)"
        PARTIAL = "partial", "Partially observed boards (Phi-Lambda save file)"
        NONE = "none", "Nothing could be analysed"

    game = models.OneToOneField(
        Game, primary_key=True, related_name="analysis", on_delete=models.CASCADE
    )
    analysis_version = models.PositiveSmallIntegerField()
    coverage = models.CharField(max_length=16, choices=Coverage.choices)
    note = models.CharField(max_length=300, blank=True)
    lost = models.BooleanField()
    survived_rounds = models.PositiveIntegerField()
    survived_moves = models.PositiveIntegerField()
    score = models.PositiveIntegerField()
    noise_errors = models.PositiveIntegerField(null=True, blank=True)
    new_numbers = models.PositiveIntegerField(null=True, blank=True)
    light_errors = models.PositiveIntegerField(null=True, blank=True)
    effective_error_rate = models.FloatField(null=True, blank=True)
    computed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "game analyses"
        indexes = [
            models.Index(fields=["analysis_version"], name="analysis_version"),
            # The dashboard reads analyses in (computed_at, game) order from a watermark.
            models.Index(fields=["computed_at", "game"], name="analysis_computed"),
        ]

    def __str__(self) -> str:
        return f"analysis of game {self.game_id} (v{self.analysis_version})"


class MoveClass(models.TextChoices):
    """What a move did, the first that applies in this order.

    ``unclassified``: the record does not show enough to tell (a Phi's value
    is unknown in partially observed save files).
    """

    ANNIHILATION = "annihilation", "Annihilation"
    SAME_GROUP = "same_group", "Joins two numbers of the same group"
    MERGE_GROUPS = "merge_groups", "Merges two groups"
    TOWARD_CENTROID = "toward_centroid", "Toward the group's centroid"
    TOWARD_COMPLEMENT = "toward_complement", "Toward the nearest complement"
    AWAY_FROM_EDGE = "away_from_edge", "Away from an edge"
    OTHER = "other", "Other"
    UNCLASSIFIED = "unclassified", "Not enough information"


class MoveAnalysis(models.Model):
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="move_analyses", db_index=False
    )
    move_index = models.PositiveIntegerField()  # 1-based, as games.Event.index of moves
    round = models.PositiveIntegerField()
    move_class = models.CharField(max_length=24, choices=MoveClass.choices)

    class Meta:
        ordering = ["game", "move_index"]
        verbose_name_plural = "move analyses"
        constraints = [
            models.UniqueConstraint(fields=["game", "move_index"], name="move_analysis_unique"),
        ]

    def __str__(self) -> str:
        return f"move {self.move_index} of game {self.game_id}: {self.move_class}"


class MoveBotAgreement(models.Model):
    """Whether a reference bot, shown the board the player saw, would have played the move.

    ``top1``: the bot's first choice has the same effect; ``top3``: one of its
    three best choices does (``games.engine.bots.same_effect``).
    """

    move = models.ForeignKey(MoveAnalysis, on_delete=models.CASCADE, related_name="agreements")
    bot_name = models.CharField(max_length=64)
    bot_version = models.PositiveSmallIntegerField()
    top1 = models.BooleanField()
    top3 = models.BooleanField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["move", "bot_name"], name="move_bot_agreement_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.bot_name} on {self.move}"


class RoundAnalysis(models.Model):
    """One noise round of a game: the noise, then the board it left.

    ``numbers`` and the largest group describe the board right after the
    round's noise. The largest group is the one with the most numbers (ties:
    the widest); ``max_group_extent`` is the widest row or column extent of
    any group, how close the board came to spanning (L means it spans).
    Noise columns are null when the record does not hold the noise.
    """

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="round_analyses", db_index=False
    )
    round = models.PositiveIntegerField()
    t = models.PositiveIntegerField()
    errors = models.PositiveIntegerField(null=True, blank=True)
    new_numbers = models.PositiveIntegerField(null=True, blank=True)
    light_errors = models.PositiveIntegerField(null=True, blank=True)
    numbers = models.PositiveIntegerField()
    largest_group_size = models.PositiveIntegerField()
    largest_group_row_extent = models.PositiveIntegerField()
    largest_group_col_extent = models.PositiveIntegerField()
    max_group_extent = models.PositiveIntegerField()

    class Meta:
        ordering = ["game", "round"]
        verbose_name_plural = "round analyses"
        constraints = [
            models.UniqueConstraint(fields=["game", "round"], name="round_analysis_unique"),
        ]

    def __str__(self) -> str:
        return f"round {self.round} of game {self.game_id}"


class Sweep(models.Model):
    """A threshold sweep: every point of the grid, ``games_per_point`` games each.

    Two kinds. A *budget sweep* (``family`` empty) plays the original game's
    rules at every (bot, L, noise budget); a game still alive after
    ``max_rounds`` noise rounds is stopped and counted as censored. A
    *threshold sweep* plays a rule family for threshold studies (``one_shot``
    or ``sustained``, ``games.engine.families``, judged by the game's
    spanning rule; or ``planar``, ``games.engine.planar``, judged by logical
    failure) at every (bot, L, per-edge error rate ``p``), with
    ``moves_per_cell`` for the sustained family and ``modulus`` for the
    planar one; its games are called shots.

    Games are replayable from (bot, bot version, rule set, seed, engine
    version); the seed of each game is derived from ``seed`` and its place
    in the grid (``results.analysis.sweeps.game_seed`` for budget sweeps,
    ``games.engine.families.shot_seed`` for threshold sweeps).
    """

    class Kind(models.TextChoices):
        """The kind of sweep, stored in ``family``: a budget sweep of the original game (no
        family, ``NO_FAMILY``) or a threshold sweep of one of the engine's rule families
        (``games.engine.rules.Family``), whose values these are."""

        BUDGET = NO_FAMILY, "Budget sweep of the original game"
        ONE_SHOT = EngineFamily.ONE_SHOT.value, "One-shot (the game's spanning rule)"
        SUSTAINED = EngineFamily.SUSTAINED.value, "Sustained noise (the game's spanning rule)"
        PLANAR = EngineFamily.PLANAR.value, "Planar code capacity (logical failure)"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    family = models.CharField(max_length=16, choices=Kind.choices, default=Kind.BUDGET,
                              blank=True)
    bots = models.JSONField()
    sizes = models.JSONField()
    budgets = models.JSONField()  # [] for a threshold sweep
    rates = models.JSONField(default=list, blank=True)  # [] for a budget sweep
    moves_per_cell = models.FloatField(null=True, blank=True)  # sustained only
    modulus = models.PositiveSmallIntegerField(null=True, blank=True)  # planar only: d of Z_d
    # Planar only: the first record_shots shots of every point are also recorded as games.
    record_shots = models.PositiveIntegerField(default=0)
    games_per_point = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    moves_per_round = models.PositiveSmallIntegerField(default=5)
    max_rounds = models.PositiveIntegerField(default=300)
    chunk_size = models.PositiveIntegerField(default=25)
    engine_version = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"sweep {self.pk} ({self.status})"


class SweepPoint(models.Model):
    """One (bot, L, budget) or (bot, L, p) of a sweep and its statistics.

    Means are the Kaplan-Meier restricted means in rounds (plain means
    without censoring), with percentile-bootstrap intervals; the plateau is
    the late-round hazard (``core.stats.hazard_plateau``) with its Wilson
    interval. Points of threshold sweeps also carry ``failures`` out of
    ``trials`` with a Wilson interval: failed shots out of the shots that
    finished (one-shot), or losses out of the game-rounds at risk of the
    hazard plateau (sustained; of all rounds when no plateau is found).
    Statistics stay empty until every chunk of the point is done
    (``summarised``).
    """

    sweep = models.ForeignKey(Sweep, on_delete=models.CASCADE, related_name="points")
    bot_name = models.CharField(max_length=64)
    bot_version = models.PositiveSmallIntegerField()
    size = models.PositiveSmallIntegerField()
    noise_budget = models.FloatField(null=True, blank=True)  # budget sweeps
    rate = models.FloatField(null=True, blank=True)  # threshold sweeps: p per edge
    games_target = models.PositiveIntegerField()
    games_done = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    censored = models.PositiveIntegerField(default=0)
    summarised = models.BooleanField(default=False)
    failures = models.PositiveIntegerField(null=True, blank=True)
    trials = models.PositiveBigIntegerField(null=True, blank=True)
    failure_rate = models.FloatField(null=True, blank=True)
    failure_ci_low = models.FloatField(null=True, blank=True)
    failure_ci_high = models.FloatField(null=True, blank=True)
    mean_rounds = models.FloatField(null=True, blank=True)
    mean_ci_low = models.FloatField(null=True, blank=True)
    mean_ci_high = models.FloatField(null=True, blank=True)
    median_rounds = models.FloatField(null=True, blank=True)
    median_ci_low = models.FloatField(null=True, blank=True)
    median_ci_high = models.FloatField(null=True, blank=True)
    plateau_hazard = models.FloatField(null=True, blank=True)
    plateau_ci_low = models.FloatField(null=True, blank=True)
    plateau_ci_high = models.FloatField(null=True, blank=True)
    plateau_start_round = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["sweep", "bot_name", "size", "noise_budget", "rate"]
        constraints = [
            models.UniqueConstraint(
                fields=["sweep", "bot_name", "size", "noise_budget"], name="sweep_point_unique"
            ),
            models.UniqueConstraint(
                fields=["sweep", "bot_name", "size", "rate"], name="sweep_point_rate_unique"
            ),
            models.CheckConstraint(
                condition=Q(noise_budget__isnull=True) ^ Q(rate__isnull=True),
                name="sweep_point_budget_or_rate",
            ),
        ]

    def __str__(self) -> str:
        if self.rate is not None:
            return f"{self.bot_name} L={self.size} p={self.rate:g}"
        return f"{self.bot_name} L={self.size} b={self.noise_budget:g}"


class SweepPointCurve(models.Model):
    """One round of a point's curves.

    ``at_risk``: games that reached the round; ``events``: games lost in it;
    ``survival`` and its band: Kaplan-Meier just after the round (log-log
    Greenwood band); ``hazard``: events / at_risk with its Wilson interval.
    """

    point = models.ForeignKey(SweepPoint, on_delete=models.CASCADE, related_name="curve")
    round = models.PositiveIntegerField()
    at_risk = models.PositiveIntegerField()
    events = models.PositiveIntegerField()
    censored = models.PositiveIntegerField()
    survival = models.FloatField()
    ci_low = models.FloatField()
    ci_high = models.FloatField()
    hazard = models.FloatField(null=True, blank=True)
    hazard_ci_low = models.FloatField()
    hazard_ci_high = models.FloatField()

    class Meta:
        ordering = ["point", "round"]
        constraints = [
            models.UniqueConstraint(fields=["point", "round"], name="sweep_curve_unique"),
        ]

    def __str__(self) -> str:
        return f"round {self.round} of {self.point}"


class SweepChunk(models.Model):
    """A finished chunk of games of one point: games ``first_game`` .. ``+ games - 1``.

    A row exists only once its games are stored, in the same transaction, so
    that resuming a sweep runs exactly the chunks that have no row.
    """

    point = models.ForeignKey(SweepPoint, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    first_game = models.PositiveIntegerField()
    games = models.PositiveIntegerField()
    seconds = models.FloatField()
    worker = models.CharField(max_length=200, blank=True)
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["point", "index"]
        constraints = [
            models.UniqueConstraint(fields=["point", "index"], name="sweep_chunk_unique"),
        ]

    def __str__(self) -> str:
        return f"chunk {self.index} of {self.point}"


class SweepGame(models.Model):
    """The outcome of one sweep game, a ``ShotOutcome`` stored (its events are not stored: it
    replays from its seed).

    ``rounds``: the noise round in which it ended (1 for a one-shot shot);
    ``lost``: the game was lost (a shot failed); ``censored``: it was stopped
    before either (at the sweep's ``max_rounds``). In budget sweeps a game is
    either lost or censored; a one-shot shot that is neither was decoded.
    ``seed`` is the game's 64-bit seed; shot seeds of 2**63 or more are
    stored as signed 64-bit integers (add 2**64 to a negative one).
    """

    chunk = models.ForeignKey(SweepChunk, on_delete=models.CASCADE, related_name="outcomes")
    game_index = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    rounds = models.PositiveIntegerField()
    moves = models.PositiveIntegerField()
    score = models.PositiveIntegerField()
    lost = models.BooleanField()
    censored = models.BooleanField(default=False)
    # A planar shot kept as a full game (``--record``): the same seed, moves and outcome.
    game = models.OneToOneField(Game, on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="sweep_shot")

    class Meta:
        ordering = ["chunk", "game_index"]
        constraints = [
            models.UniqueConstraint(fields=["chunk", "game_index"], name="sweep_game_unique"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_index} of {self.chunk.point}"


class SweepThreshold(models.Model):
    """A bot's threshold estimated from a sweep.

    Budget sweeps: the threshold budget (``core.stats.estimate_threshold``),
    null with ``note`` saying why when no crossing was found in the swept
    range. Threshold sweeps (``core.stats.threshold_from_rates``): the
    crossing of adjacent-L curves and the finite-size-scaling fit side by
    side, each with its bootstrap interval, null when the curves do not
    cross in the swept range; ``message`` says what was found (the
    direction when nothing crosses, points left out, disagreement, a
    crossing at the edge of the range) and ``detail`` holds the crossing of
    each pair of sizes and the points left out.
    """

    sweep = models.ForeignKey(Sweep, on_delete=models.CASCADE, related_name="thresholds")
    bot_name = models.CharField(max_length=64)
    threshold_budget = models.FloatField(null=True, blank=True)
    ci_low = models.FloatField(null=True, blank=True)
    ci_high = models.FloatField(null=True, blank=True)
    crossing_fraction = models.FloatField(null=True, blank=True)
    note = models.CharField(max_length=300, blank=True)
    crossing = models.FloatField(null=True, blank=True)
    crossing_low = models.FloatField(null=True, blank=True)
    crossing_high = models.FloatField(null=True, blank=True)
    crossing_at_edge = models.BooleanField(null=True, blank=True)
    scaling_p_th = models.FloatField(null=True, blank=True)
    scaling_low = models.FloatField(null=True, blank=True)
    scaling_high = models.FloatField(null=True, blank=True)
    scaling_nu = models.FloatField(null=True, blank=True)
    scaling_nu_low = models.FloatField(null=True, blank=True)
    scaling_nu_high = models.FloatField(null=True, blank=True)
    scaling_chi2_dof = models.FloatField(null=True, blank=True)
    methods_agree = models.BooleanField(null=True, blank=True)
    direction = models.CharField(max_length=16, blank=True)
    message = models.TextField(blank=True)
    detail = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["sweep", "bot_name"]
        constraints = [
            models.UniqueConstraint(fields=["sweep", "bot_name"], name="sweep_threshold_unique"),
            models.CheckConstraint(
                condition=Q(threshold_budget__isnull=True) | Q(threshold_budget__gt=0),
                name="sweep_threshold_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"threshold of {self.bot_name} in {self.sweep_id}"


# The comparison's links name the games they join by the imported model.


class DecoderComparison(models.Model):
    """A person's ended planar game and one planar decoder's game on the same board.

    Written by ``results.services.comparison`` after the person's game ends:
    the decoder plays the same rule set and seed (an ordinary bot game,
    ``bot_game``), and the row records how the two corrections compare.
    ``same_outcome``: both or neither failed (a logical error). ``same_class``:
    the two net corrections differ by stabilisers only (the same homology
    class: the same logical charge); ``same_chain``: the same net charge on
    every edge. The last two are null when either game did not clean the
    board (abandoned, the person's or the decoder's: counted as failed).
    """

    human_game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="decoder_comparisons"
    )
    bot_game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    decoder = models.CharField(max_length=32)
    decoder_version = models.CharField(max_length=32)
    human_failed = models.BooleanField()
    bot_failed = models.BooleanField()
    same_outcome = models.BooleanField()
    same_class = models.BooleanField(null=True, blank=True)
    same_chain = models.BooleanField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["human_game", "decoder"]
        constraints = [
            models.UniqueConstraint(
                fields=["human_game", "decoder"], name="decoder_comparison_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.decoder} on the board of game {self.human_game_id}"


class StrategyFit(models.Model):
    """One fit of the strategy model to people's moves (``results.services.strategy``).

    Every fit is a new row; none is ever changed. ``data_cutoff`` is the id of
    the last stored event when the moves were read, so a fit names the data
    it saw; ``feature_set_version`` and ``model_version`` name the features
    (``games.engine.strategy``) and the fitting code (``core.stats.choice``).
    ``coefficients`` lists ``{"name", "coef", "se", "lower", "upper"}`` per
    feature (95% intervals clustered by player); ``heldout`` holds the
    cross-validated scores of the model and of each bot. A fit of a split
    (``cohort`` skill, variant or source) also fits each cohort apart and holds
    in ``by_cohort`` their weights and the tests of whether they differ
    (``strategy_fit_summary`` shows its shape); other fits have none.
    """

    created_at = models.DateTimeField(default=timezone.now)
    data_cutoff = models.BigIntegerField()
    feature_set_version = models.PositiveIntegerField()
    model_version = models.PositiveIntegerField()
    features = models.JSONField()
    cohort = models.CharField(max_length=64, blank=True)
    folds = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    player_cap = models.PositiveIntegerField()
    n_moves = models.PositiveIntegerField()
    n_players = models.PositiveIntegerField()
    n_games = models.PositiveIntegerField()
    loglik = models.FloatField()
    coefficients = models.JSONField()
    heldout = models.JSONField()
    by_cohort = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"strategy fit {self.pk} ({self.n_moves} moves, {self.n_players} players)"


class StrategyCoefficient(models.Model):
    """One fitted weight of a strategy fit, as a row (the fit's ``coefficients``, one per feature).

    Stored beside the fit's JSON so that the research tables can list them;
    written once with the fit and never changed. ``cohort`` is empty for the
    fit's own weights; a fit of a split has a row per cohort and feature too,
    named by the cohort (``low``, ``z10``, ``imported``, ...).
    """

    fit = models.ForeignKey(StrategyFit, on_delete=models.CASCADE, related_name="coefficient_rows")
    position = models.PositiveSmallIntegerField()  # the feature's place in the fit's features
    feature = models.CharField(max_length=64)
    cohort = models.CharField(max_length=64, blank=True, default="")
    coef = models.FloatField(null=True)
    se = models.FloatField(null=True)
    lower = models.FloatField(null=True)
    upper = models.FloatField(null=True)

    class Meta:
        ordering = ["fit", "cohort", "position"]
        constraints = [
            models.UniqueConstraint(fields=["fit", "cohort", "feature"],
                                    name="strategy_coefficient_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.feature} of {self.cohort + ' in ' if self.cohort else ''}{self.fit}"


class StrategyPrediction(models.Model):
    """One held-out move of a strategy fit: the probability each model gave the move made.

    The probabilities come from the fit's cross-validation: the model, and
    each reference bot through its fitted softmax, trained on the folds that
    did not hold the move's player. A move the boards fix only up to its
    direction (an annihilation) has ``explanations`` 2, and its probability
    is the sum over both. The row belongs to the move's game, so it leaves
    the research tables with that game's consent and is deleted with it.
    """

    fit = models.ForeignKey(StrategyFit, on_delete=models.CASCADE, related_name="predictions")
    game = models.ForeignKey(Game, on_delete=models.CASCADE,
                             related_name="strategy_predictions")
    move_seq = models.PositiveIntegerField()  # the ``seq`` of the move's event in its game
    fold = models.PositiveSmallIntegerField()
    legal_moves = models.PositiveIntegerField()
    explanations = models.PositiveSmallIntegerField()
    weight = models.FloatField()
    p_model = models.FloatField()
    p_random = models.FloatField()
    p_greedy = models.FloatField()
    p_clustering = models.FloatField()
    p_player = models.FloatField()

    class Meta:
        ordering = ["fit", "id"]
        constraints = [
            models.UniqueConstraint(fields=["fit", "game", "move_seq"],
                                    name="strategy_prediction_unique"),
        ]

    def __str__(self) -> str:
        return f"move {self.move_seq} of {self.game_id} in {self.fit}"
