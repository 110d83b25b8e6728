"""Database models of the puzzles: puzzles, players' attempts and every action in them.

A puzzle row holds everything needed to regenerate and check it: its kind,
size, seed, engine version and requested difficulty as columns, its JSON
description and solution. An attempt is one player solving one puzzle; its
actions are stored in order (``step`` 1, 2, ...) with their time, payload,
what the player was told (``result``) and, for entries, the technique that
justified them. Replaying the actions through the engine gives the grid at
every step.

Which attempts are research data is decided in one place,
:func:`attempt_research_condition` (``Attempt.objects.research_data()``): the
statistics page and the research exports use it.
"""

from __future__ import annotations

import uuid

from django.db import models
from django.db.models import BooleanField, Exists, OuterRef, Q, Subquery
from django.utils import timezone

from games.models import Player
from puzzles.engines.answer_key import DIGEST_LENGTH

# Puzzle kind names, sub-kinds included ("futoshiki-adjacent").
KIND_MAX_LENGTH = 24
# The solution as text: one character per cell, up to the largest Latin grid (16 x 16).
SOLUTION_CELLS_MAX_LENGTH = 256
# The requested_difficulty of a puzzle a player entered (the editor, a file, a puzzle ID).
OWN = "own"


class Puzzle(models.Model):
    """One generated puzzle; many attempts may share it."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=KIND_MAX_LENGTH)
    size = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    engine_version = models.PositiveIntegerField()
    # What was asked for ("" for the kind's default); the rating is what it is.
    requested_difficulty = models.CharField(max_length=16, blank=True)
    difficulty = models.CharField(max_length=16)
    hardest_technique = models.CharField(max_length=32)
    solver_steps = models.PositiveIntegerField()
    # The solver's technique counts on this puzzle: {"naked_single": 12, ...}.
    solver_techniques = models.JSONField(default=dict)
    definition = models.JSONField()
    solution = models.JSONField()
    # The solution as text, row by row, one character per cell (1-9, then A for 10,
    # B for 11, ...): what the exports write.
    solution_cells = models.CharField(max_length=SOLUTION_CELLS_MAX_LENGTH, blank=True)
    # The answer key (``puzzles.engines.answer_key.solution_digest``: kind, size and
    # solution). Two rows with the same digest have the same answer, however each was
    # made (a seed, a puzzle ID, the editor with one more given): a player shown the
    # solution of one has seen the solution of the other.
    solution_digest = models.CharField(max_length=DIGEST_LENGTH)
    created_at = models.DateTimeField(default=timezone.now)
    # A published Decodoku puzzle's number (its first, docs/decodoku-puzzles.md);
    # null for generated puzzles. Its seed column then holds the same number.
    number = models.PositiveSmallIntegerField(null=True, blank=True)
    # Who first entered an own puzzle (``OWN``): the row is their work, made when they
    # made it, so their consent decides whether it is research data
    # (:func:`puzzle_research_condition`). Null for generated and published puzzles, and
    # once that player's data is deleted.
    author = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "size", "seed", "engine_version", "requested_difficulty"],
                name="puzzle_generation_unique",
            ),
            models.UniqueConstraint(
                fields=["kind", "number", "engine_version"],
                condition=Q(number__isnull=False),
                name="puzzle_published_number_unique",
            ),
            models.CheckConstraint(condition=Q(seed__gte=0), name="puzzle_seed_non_negative"),
            # An empty digest would make every puzzle without one the same puzzle.
            models.CheckConstraint(
                condition=~Q(solution_digest=""), name="puzzle_solution_digest_set"
            ),
        ]
        indexes = [
            models.Index(fields=["kind", "size", "difficulty"], name="puzzle_kind_size"),
            models.Index(fields=["solution_digest"], name="puzzle_solution_digest"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.size}x{self.size} seed {self.seed} ({self.difficulty})"


def attempt_research_condition(*, prefix: str = "") -> Q:
    """The one definition of research data among puzzle attempts, as a condition.

    An attempt is research data when all of these hold:

    - the player consented (``research_consent``, copied when it started);
    - a curator has not excluded it (``excluded_from_research``);
    - the player had not seen the puzzle's solution (``seen_solution``): an
      attempt at a puzzle whose solution they had already been shown (by
      solving or giving up on it, or on any puzzle with the same solution
      digest) measures their memory, not how they solve it;
    - it has ended (solved or given up): an open attempt is incomplete, and
      whether it is a replay is only settled when it ends (another attempt of
      the player at the same puzzle may end first and show the solution).

    ``prefix`` is the lookup path from the queried model to the attempt (e.g.
    ``"attempt__"`` for its actions).
    """
    return Q(
        **{
            f"{prefix}research_consent": True,
            f"{prefix}excluded_from_research": False,
            f"{prefix}seen_solution": False,
        }
    ) & ~Q(**{f"{prefix}status": "active"})


def puzzle_research_condition() -> Q:
    """The one definition of research data among puzzle rows, as a condition on a puzzle.

    A generated or published puzzle holds nothing about a person: it is
    research data. A puzzle a player entered (``requested_difficulty`` ``OWN``)
    is their work, and its row tells when they made it: it is research data
    only when its author's first attempt at it was made with research consent
    (the consent the row was created under). Another player's consent does not
    count, nor does an own puzzle whose author's data was deleted.
    """
    authors_first = (
        Attempt.objects.filter(puzzle=OuterRef("pk"), player=OuterRef("author"))
        .order_by("started_at", "pk")
        .values("research_consent")[:1]
    )
    return ~Q(requested_difficulty=OWN) | Q(Subquery(authors_first, output_field=BooleanField()))


def solution_withheld_condition() -> Q:
    """The one definition of a puzzle whose seed and solution must not leave, as a condition.

    Either would give the answer away to whoever is solving it: they are
    withheld while any attempt (anyone's) at a puzzle with the same answer key
    (``solution_digest``) is open, as the API withholds them from the player.
    """
    open_attempts = Attempt.objects.filter(
        puzzle__solution_digest=OuterRef("solution_digest"), status=Attempt.Status.ACTIVE
    )
    return Q(Exists(open_attempts))


def same_answer_condition(puzzle: Puzzle, *, prefix: str = "puzzle__") -> Q:
    """Rows at ``puzzle`` or at any puzzle with the same answer key (``solution_digest``).

    The one rule of "the same puzzle" for replays: whoever was shown the
    solution of one of them knows the answer of all, whether they start it
    again from its seed, from its puzzle ID or from the editor with more givens.
    """
    return Q(**{f"{prefix}solution_digest": puzzle.solution_digest})


class AttemptQuerySet(models.QuerySet["Attempt"]):
    def research_data(self) -> AttemptQuerySet:
        """The attempts that count as research data (see :func:`attempt_research_condition`).

        Every reader of research data goes through it: the statistics page,
        the research tables (``puzzles/research_tables.py``), and, through
        :meth:`actions`, the actions of those attempts.
        """
        return self.filter(attempt_research_condition())

    def actions(self) -> models.QuerySet[Action]:
        """The actions of these attempts (``Attempt.objects.research_data().actions()``)."""
        return Action.objects.filter(attempt__in=self)


class Attempt(models.Model):
    """A player solving a puzzle."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        SOLVED = "solved", "Solved"
        ABANDONED = "abandoned", "Abandoned"

    class Source(models.TextChoices):
        WEB = "web", "Web page"
        API = "api", "API client"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    puzzle = models.ForeignKey(Puzzle, on_delete=models.PROTECT, related_name="attempts")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="puzzle_attempts")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    source = models.CharField(max_length=16, choices=Source.choices)
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The number of actions recorded: the step the next action must send.
    steps = models.PositiveIntegerField(default=0)
    # The player's grid now (see puzzles.engines.latin_play): play needs no replay.
    state = models.JSONField(default=dict)
    entries_count = models.PositiveIntegerField(default=0)
    wrong_entries = models.PositiveIntegerField(default=0)
    hints_count = models.PositiveIntegerField(default=0)
    checks_count = models.PositiveIntegerField(default=0)
    undos_count = models.PositiveIntegerField(default=0)
    client_info = models.JSONField(default=dict, blank=True)
    research_consent = models.BooleanField(default=False)
    excluded_from_research = models.BooleanField(default=False)
    # The player had seen the solution of this puzzle before the attempt ended:
    # another of their attempts at it, or at any puzzle with the same answer key
    # (``Puzzle.solution_digest``), had been solved or given up (which shows the
    # solution). Not research data.
    seen_solution = models.BooleanField(default=False)

    objects = AttemptQuerySet.as_manager()

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(status="active") & Q(finished_at__isnull=True))
                | (~Q(status="active") & Q(finished_at__isnull=False)),
                name="attempt_status_matches_finished_at",
            ),
        ]
        indexes = [
            models.Index(fields=["player", "-started_at"], name="attempt_player_started"),
            models.Index(fields=["status", "finished_at"], name="attempt_status_finished"),
        ]

    def __str__(self) -> str:
        return f"attempt {self.pk} ({self.puzzle.kind}, {self.status})"

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def solve_seconds(self) -> float | None:
        if self.status != self.Status.SOLVED or self.finished_at is None:
            return None
        return (self.finished_at - self.started_at).total_seconds()


class Action(models.Model):
    """One action of an attempt, in order: entry, erase, candidate, undo, hint or check."""

    class Kind(models.TextChoices):
        ENTRY = "entry", "Entry"
        ERASE = "erase", "Erase"
        CANDIDATE = "candidate", "Candidate mark"
        UNDO = "undo", "Undo"
        HINT = "hint", "Hint"
        CHECK = "check", "Check"

    attempt = models.ForeignKey(
        Attempt, on_delete=models.CASCADE, related_name="actions", db_index=False
    )
    step = models.PositiveIntegerField()  # 1 for the first action
    # Free text, not choices: other puzzle kinds have actions of their own.
    kind = models.CharField(max_length=16)
    payload = models.JSONField(default=dict)
    result = models.JSONField(default=dict)
    # The cell and value of entries, erasures and candidate marks (as exported).
    row = models.PositiveSmallIntegerField(null=True, blank=True)
    col = models.PositiveSmallIntegerField(null=True, blank=True)
    value = models.PositiveSmallIntegerField(null=True, blank=True)
    # What a hint said and what a check found (as exported; ``result`` has it all).
    hint_kind = models.CharField(max_length=32, blank=True)
    hint_row = models.PositiveSmallIntegerField(null=True, blank=True)
    hint_col = models.PositiveSmallIntegerField(null=True, blank=True)
    hint_value = models.PositiveSmallIntegerField(null=True, blank=True)
    wrong_count = models.PositiveSmallIntegerField(null=True, blank=True)
    # 2mino toggles: ``row``/``col`` are the bar's first cell, these its second, and
    # how many pairs the toggle (or a reset) formed and broke (as exported).
    row_b = models.PositiveSmallIntegerField(null=True, blank=True)
    col_b = models.PositiveSmallIntegerField(null=True, blank=True)
    pairs_formed = models.PositiveSmallIntegerField(null=True, blank=True)
    pairs_broken = models.PositiveSmallIntegerField(null=True, blank=True)
    # For entries: the simplest technique that justified it, or "not_justified".
    technique = models.CharField(max_length=32, blank=True)
    # For entries: whether the value is the solution's.
    correct = models.BooleanField(null=True, blank=True)
    server_time = models.DateTimeField(default=timezone.now)
    client_time = models.DateTimeField(null=True, blank=True)
    elapsed_ms = models.BigIntegerField()  # since the attempt started, by the server's clock

    class Meta:
        ordering = ["attempt", "step"]
        constraints = [
            models.UniqueConstraint(fields=["attempt", "step"], name="action_attempt_step_unique"),
            models.CheckConstraint(condition=Q(step__gte=1), name="action_step_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.step} of attempt {self.attempt_id}"


class RevealedSolution(models.Model):
    """A solution the puzzle checker showed a player (``check/`` with ``reveal``).

    Nothing else about the check is kept: only that this player has seen the
    solution with this answer key (``Puzzle.solution_digest``), so that their
    attempts at any puzzle with it are marked ``seen_solution``, as after an
    attempt that ended.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    solution_digest = models.CharField(max_length=DIGEST_LENGTH)
    revealed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "solution_digest"], name="revealed_solution_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"solution {self.solution_digest[:12]} shown to {self.player_id}"


class DecodokuBotAnswer(models.Model):
    """A decoder bot's answer on a Decodoku puzzle: its links and the top-left corner.

    One row per puzzle and bot (``puzzles.engines.decodoku.bots``), written by
    the task ``puzzles.decode_decodoku`` once an attempt at the puzzle ends.
    ``links`` is the explanation (link numbers, ascending), ``links_count``
    their number; ``correct`` compares ``corner`` with the puzzle's recorded
    top-left value (null when none is recorded). ``optimal`` and ``ties`` are
    the exact solver's (null and [] for the other bots).
    """

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="bot_answers")
    bot = models.CharField(max_length=16)
    bot_version = models.PositiveIntegerField()
    corner = models.PositiveSmallIntegerField()
    links = models.JSONField(default=list)
    links_count = models.PositiveSmallIntegerField()
    correct = models.BooleanField(null=True, blank=True)
    optimal = models.BooleanField(null=True, blank=True)
    ties = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["puzzle", "bot"]
        constraints = [
            models.UniqueConstraint(
                fields=["puzzle", "bot", "bot_version"], name="decodoku_bot_answer_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.bot} on {self.puzzle_id}: {self.corner} with {self.links_count} links"
