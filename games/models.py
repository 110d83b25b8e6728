"""Database models of the games app: players, games, their events and boards.

A game is stored so that it can be replayed and checked exactly (see
``docs/rules.md``, "What a recorded game must hold"): the rule set and engine version
as columns, the seed, every engine event as one row of :class:`Event` (one
nullable column per engine event field, named as in ``games.engine.events``),
and the board after every step as a :class:`BoardSnapshot`. The engine's
compact state is kept on the game row so that a move needs no replay.

Games of the planar family (``games.engine.planar``) are stored the same
way: their rule set in the ``family``, ``modulus`` and ``error_rate`` columns
(``games.rulesets``), boards up to 64 x 64 (bots), and once the board is
clean, status ``finished`` with their logical outcome (``logical_charge``,
``logical_failure``).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.db.models.deletion import Collector
from django.db.models.functions import Now, TruncDate
from django.utils import timezone

from games.engine.families import NO_FAMILY, FamilyKind, stored_kind
from games.engine.rules import (
    MAX_FAMILY_SIZE,
    MAX_MODULUS,
    MAX_SIZE,
    MIN_MODULUS,
    MIN_SIZE,
    MergeLabel,
    RuleSet,
)
from games.engine.variants import variant_kinds
from games.rulesets import PLANAR_FAMILY, PLANAR_VARIANT, rules_from_columns

# The rule families whose games are recorded (the family column), "" the original game.
FAMILY_CHOICES = [(NO_FAMILY, "The original game"), (PLANAR_FAMILY, "Planar code")]


class Player(models.Model):
    """A pseudonymous player: no sign-up, identified by an API token.

    Only the SHA-256 of the token is stored. ``token_prefix`` (the first
    characters of the token) is not secret: it narrows the look-up and lets
    a player recognise a token without revealing it.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    token_prefix = models.CharField(max_length=12, db_index=True)
    token_hash = models.CharField(max_length=64, unique=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="decodoku_player",
    )
    # SHA-256 of the player's recovery code (see games.tokens), null until they make one.
    recovery_hash = models.CharField(max_length=64, null=True, blank=True, unique=True)
    recovery_created_at = models.DateTimeField(null=True, blank=True)
    consent_version = models.CharField(max_length=32, null=True, blank=True)  # noqa: DJ001
    consented_at = models.DateTimeField(null=True, blank=True)
    # When the person last answered the research question (yes or no); null: never
    # asked. "No" leaves consent_version null too, so only this field tells a player
    # who declined from one who was never asked (and the web asks the latter first).
    consent_decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_seen_at = models.DateTimeField(null=True, blank=True)
    # The name shown on leaderboards, as the player typed it (``games.names``), and
    # its comparison key (the confusable skeleton of the case-folded name, up to 7
    # characters per character), unique: two players cannot take names that look
    # alike (``Ada``, ``aDA``, ``Ada`` with a Cyrillic A). Never part of research data.
    display_name = models.CharField(max_length=24, null=True, blank=True)  # noqa: DJ001
    display_name_key = models.CharField(
        max_length=192, null=True, blank=True, unique=True
    )
    # The second comparison key: the skeleton of the name as typed, case-folded
    # (``AIan`` with a capital i and ``Alan`` share it), also unique.
    display_name_shape_key = models.CharField(
        max_length=192, null=True, blank=True, unique=True
    )
    # Set when the player was forgotten on request (``games.services.player_forget``):
    # the identity is gone, the row only keeps the games' pseudonym stable.
    forgotten_at = models.DateTimeField(null=True, blank=True)
    # One of the platform's own decoder bots (``games.services.player_for_bot``), set
    # by the server only: no request can set it. Research data takes a game without
    # consent only from such a player (``research_data_condition``), never because
    # of a field a client sent.
    is_platform_bot = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(consent_version__isnull=True) | Q(consented_at__isnull=False),
                name="player_consent_has_time",
            ),
            models.CheckConstraint(
                condition=Q(display_name__isnull=True) | Q(display_name_key__isnull=False),
                name="player_display_name_has_key",
            ),
            models.CheckConstraint(
                condition=Q(display_name__isnull=True) | Q(display_name_shape_key__isnull=False),
                name="player_display_name_has_shape_key",
            ),
        ]

    def __str__(self) -> str:
        return f"player {self.token_prefix}…"

    @property
    def research_consent(self) -> bool:
        return self.consent_version is not None

    @property
    def consent_decided(self) -> bool:
        """Whether the person has answered the research question (yes or no)."""
        return self.consent_decided_at is not None


class ConsentChange(models.Model):
    """One research-consent choice of a player, kept as history.

    A row is written when a player is created and each time they change
    their choice; ``version`` is null when they chose not to consent (or
    withdrew). The player's current choice is on :class:`Player`.
    """

    id = models.BigAutoField(primary_key=True)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="consent_changes")
    version = models.CharField(max_length=32, null=True, blank=True)  # noqa: DJ001
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["player", "at", "id"]

    def __str__(self) -> str:
        return f"consent {self.version or 'none'} of {self.player_id} at {self.at:%Y-%m-%d %H:%M}"


class OriginalDailyManager(models.Manager["DailyChallenge"]):
    """The original game's daily challenges only (``family`` empty): ``DailyChallenge.objects``."""

    def get_queryset(self) -> models.QuerySet[DailyChallenge]:
        return super().get_queryset().filter(family=NO_FAMILY)


class PlanarDailyManager(models.Manager["DailyChallenge"]):
    """The daily planar boards only: ``DailyChallenge.planar``."""

    def get_queryset(self) -> models.QuerySet[DailyChallenge]:
        return super().get_queryset().filter(family=PLANAR_FAMILY)


class DailyChallenge(models.Model):
    """The daily challenge of one (UTC) day: one game at the original rules, one seed for all.

    A day may also have a *daily planar board* (``family`` "planar", its own
    seed, ``games.daily.DAILY_PLANAR_RULES``): one row per day and family.
    ``DailyChallenge.objects`` reads the original challenges only, so that
    every reader of the daily challenge (its page, leaderboard, API, the
    bots' games) is unchanged; ``DailyChallenge.planar`` reads the planar
    boards and ``DailyChallenge.every_day`` both. A game's ``daily`` is
    either (related objects are read without that filter).

    The seed is derived from the date and a server secret
    (``games.daily.daily_seed``): it is the same for everyone who plays that day
    and is withheld from every page, the API and the exports until the day is
    over. Each player plays a day's challenge at most once (a constraint on
    :class:`Game`). ``bots_played_at`` is set once the platform's bots have
    played the day's seed (after the day closed, ``results``).
    """

    id = models.BigAutoField(primary_key=True)
    date = models.DateField()
    seed = models.BigIntegerField()
    size = models.PositiveSmallIntegerField()
    variant = models.CharField(max_length=16)
    noise_budget = models.FloatField()
    moves_per_round = models.PositiveSmallIntegerField()
    merge_label = models.CharField(max_length=16)
    # The original game's (no family, modulus or error rate), or a daily planar board's.
    family = models.CharField(max_length=16, blank=True, default=NO_FAMILY)
    modulus = models.PositiveSmallIntegerField(null=True, blank=True)
    error_rate = models.FloatField(null=True, blank=True)
    rules_key = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)
    bots_played_at = models.DateTimeField(null=True, blank=True)

    every_day = models.Manager()
    objects = OriginalDailyManager()
    planar = PlanarDailyManager()

    class Meta:
        ordering = ["-date"]
        default_manager_name = "objects"
        base_manager_name = "every_day"
        constraints = [
            models.UniqueConstraint(fields=["date", "family"], name="daily_one_per_day_and_family"),
        ]

    def __str__(self) -> str:
        if not self.kind.grouped:
            return f"daily planar board {self.date:%Y-%m-%d}"
        return f"daily challenge {self.date:%Y-%m-%d}"

    @property
    def rules(self) -> RuleSet:
        return rules_from_columns(self)

    @property
    def kind(self) -> FamilyKind:
        """The kind of the day's rule family (``games.engine.families``), as ``Game.kind``."""
        return stored_kind(self.family)


def research_data_condition(
    *,
    prefix: str = "",
    include_excluded: bool = False,
    include_unconsented: bool = False,
    include_practice: bool = False,
) -> Q:
    """The one definition of research data, as a condition on a game.

    A game is research data when all of these hold:

    - a curator has not excluded it (``excluded_from_research`` is false);
    - it may be used: a game of one of the platform's own bot players
      (``Player.is_platform_bot``, set by the server) always may (a bot has nobody
      to ask); any other game (web, API, uploaded save file) only with
      ``research_consent``. The game's ``source`` is not trusted for this;
    - it is a normal game: a practice game shows the groups, so the player is
      not solving the decoding problem and the game measures something else;
    - it stands for its save file once: an uploaded save counts as its first
      upload (the original, ``copy_of`` empty), unless that upload may not be
      used (its player gave no research consent); then the earliest copy
      (``copy_of``) whose player consented stands for it. So a save counts
      once whenever one of its uploaders consented, and nobody's answer
      depends on what others uploaded.

    Unfinished games are not excluded here: whoever needs finished games only
    adds ``finished()`` (the dashboard and the survival curves do; an export
    of games lists active ones too, with their status). Humans and bots are
    not separated here either: ``human()`` and ``bots()`` narrow the set.

    Each ``include_*`` flag drops one of the first three conditions (the research
    exports offer them as filters); with ``include_unconsented`` only originals
    stand for their saves. ``prefix`` is the lookup path from the
    queried model to the game (e.g. ``"game__"`` for rows of a game's events).
    """
    condition = Q()
    if not include_excluded:
        condition &= Q(**{f"{prefix}excluded_from_research": False})
    if not include_unconsented:
        condition &= Q(**{f"{prefix}player__is_platform_bot": True}) | Q(
            **{f"{prefix}research_consent": True}
        )
    if not include_practice:
        condition &= Q(**{f"{prefix}mode": "normal"})
    original = Q(**{f"{prefix}copy_of__isnull": True})
    if include_unconsented:
        return condition & original
    # A copy is the same game again: it stands for it only in place of an original
    # without consent, and then only the earliest consenting copy does.
    earlier_consenting_copy = Game.objects.filter(
        copy_of=OuterRef(f"{prefix}copy_of"), research_consent=True
    ).filter(
        Q(started_at__lt=OuterRef(f"{prefix}started_at"))
        | Q(started_at=OuterRef(f"{prefix}started_at"), pk__lt=OuterRef(f"{prefix}pk"))
    )
    stands_in = Q(**{f"{prefix}copy_of__research_consent": False}) & ~Q(
        Exists(earlier_consenting_copy)
    )
    return condition & (original | stands_in)


def seed_withheld_condition(*, prefix: str = "") -> Q:
    """The one definition of a game whose seed must not be shown, as a condition.

    The seed tells all the noise still to come: it is withheld while a game is
    active, and for a daily-challenge game while its day is open (every player
    of the day meets the same noise). Any other game played on the board of a
    day still open, the same seed and rule set as that day's challenge or
    planar board (the decoders' games on a person's daily board carry no
    ``daily``), would tell the same noise: its seed is withheld as well until
    the day is over. ``games.selectors.seed_withheld`` is the same rule for one
    loaded game.
    """
    open_day_board = DailyChallenge.every_day.filter(
        date__gte=TruncDate(Now()),
        seed=OuterRef(f"{prefix}seed"),
        rules_key=OuterRef(f"{prefix}rules_key"),
    )
    return (
        Q(**{f"{prefix}status": "active"})
        | Q(**{f"{prefix}daily__date__gte": TruncDate(Now())})
        | Q(Exists(open_day_board))
    )


def promote_a_copy(
    collector: Collector, field: models.Field, sub_objs: Iterable[Game], using: str
) -> None:
    """``on_delete`` of ``Game.copy_of``: the copies of a deleted original keep one original.

    Emptying every copy's ``copy_of`` (``SET_NULL``) would make them all
    originals of one save, which ``game_one_original_per_save`` refuses. For
    each deleted original, its earliest copy that is not deleted too becomes
    the original and the other copies name it. The deleted original is first
    made a copy of that one, as the updates run before the rows are deleted.
    """
    deleted = {game.pk for game in collector.data.get(Game, ())}
    copies = (
        Game.objects.using(using)
        .filter(pk__in=[game.pk for game in sub_objs])
        .exclude(pk__in=deleted)
        .order_by("started_at", "pk")
        .only("pk", "copy_of", "started_at")
    )
    by_original: dict[uuid.UUID | None, list[Game]] = {}
    for copy in copies:
        by_original.setdefault(copy.copy_of_id, []).append(copy)
    # The grouped updates run in the order they were first added: the ones that
    # point the other games at a promoted copy, then (last) the one that empties
    # the promoted copies' ``copy_of``.
    emptied: list[Any] = collector.field_updates.pop((field, None), [])
    for original_id, (first, *rest) in by_original.items():
        collector.add_field_update(field, first, [Game(pk=original_id), *rest])
        emptied.append([first])
    for objs in emptied:
        collector.add_field_update(field, None, objs)


class GameQuerySet(models.QuerySet["Game"]):
    """Composable filters of games; ``research_data()`` is the research set."""

    def research_data(
        self,
        *,
        include_excluded: bool = False,
        include_unconsented: bool = False,
        include_practice: bool = False,
    ) -> GameQuerySet:
        """The games that count as research data (see :func:`research_data_condition`)."""
        return self.filter(
            research_data_condition(
                include_excluded=include_excluded,
                include_unconsented=include_unconsented,
                include_practice=include_practice,
            )
        )

    def human(self) -> GameQuerySet:
        """Games played by people: on the web page, through the API or uploaded.

        Whoever is not one of the platform's bot players (``Player.is_platform_bot``)
        is a person here, whatever a client declared.
        """
        return self.exclude(player__is_platform_bot=True)

    def bots(self) -> GameQuerySet:
        """Games played by the platform's decoder bots (their players, set by the server)."""
        return self.filter(player__is_platform_bot=True)

    def practice(self) -> GameQuerySet:
        return self.filter(mode=Game.Mode.PRACTICE)

    def daily_challenge(self) -> GameQuerySet:
        """Games of a daily challenge (``Game.daily`` set), people's and bots'."""
        return self.filter(daily__isnull=False)

    def finished(self) -> GameQuerySet:
        """Games that ended (lost, abandoned, or a planar game's board cleaned)."""
        return self.exclude(status=Game.Status.ACTIVE)

    def original(self) -> GameQuerySet:
        """Games of the original game's rules (no rule family)."""
        return self.filter(family=NO_FAMILY)

    def planar(self) -> GameQuerySet:
        """Games of the planar code-capacity family."""
        return self.filter(family=PLANAR_FAMILY)


class Game(models.Model):
    """One game: its rule set, seed, status and the engine's current state."""

    class Source(models.TextChoices):
        WEB = "web", "Web page"
        API = "api", "API client"
        LEGACY_UPLOAD = "legacy_upload", "Uploaded save file"
        BOT = "bot", "Bot"

    class Mode(models.TextChoices):
        NORMAL = "normal", "Normal"
        PRACTICE = "practice", "Practice (groups shown)"

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        LOST = "lost", "Lost"
        ABANDONED = "abandoned", "Abandoned"
        # A planar game whose board is clean (logical_charge and logical_failure say how).
        FINISHED = "finished", "Finished (board clean)"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="games")
    # The daily challenge this game is (null: an ordinary game). The one definition
    # of a daily-challenge game; each player plays a day's challenge once.
    daily = models.ForeignKey(
        DailyChallenge, null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )

    # The rule set, one column per parameter, and its stable key.
    size = models.PositiveSmallIntegerField()
    # One value per variant kind (games.engine.variants): z10 and phi_lambda, the
    # arithmetic the engine plays; "colors", Decodoku: Colors save files (groups
    # observed, values unknown), only uploaded records have it; "planar", a game of the
    # planar family (values in Z_d, d = modulus).
    variant = models.CharField(
        max_length=16,
        choices=[(kind.stored, kind.stored.upper()) for kind in variant_kinds()],
    )
    # 0 for a planar game: one noise round at the start, no budget and no later rounds.
    noise_budget = models.FloatField()
    moves_per_round = models.PositiveSmallIntegerField()
    # Empty for a planar game (it has no groups to label).
    merge_label = models.CharField(
        max_length=16, blank=True, choices=[(m.value, m.name) for m in MergeLabel]
    )
    # The rule family ("" for the original game) and its parameters (planar: d and p).
    family = models.CharField(max_length=16, blank=True, default=NO_FAMILY,
                              choices=FAMILY_CHOICES)
    modulus = models.PositiveSmallIntegerField(null=True, blank=True)
    error_rate = models.FloatField(null=True, blank=True)
    rules_key = models.CharField(max_length=64)
    engine_version = models.PositiveIntegerField()
    # Drawn by the server (63 random bits); null only for uploaded save files.
    seed = models.BigIntegerField(null=True, blank=True)

    source = models.CharField(max_length=16, choices=Source.choices)
    bot_name = models.CharField(max_length=64, blank=True)
    bot_version = models.CharField(max_length=32, blank=True)
    mode = models.CharField(max_length=16, choices=Mode.choices, default=Mode.NORMAL)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)

    score = models.PositiveIntegerField(default=0)  # the clock t (planar: the moves made)
    rounds = models.PositiveIntegerField(default=0)
    moves_count = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)
    # A planar game's logical outcome, once its board is clean (status finished): the
    # charge carried across the left side, mod d, and whether it is a logical error.
    logical_charge = models.PositiveSmallIntegerField(null=True, blank=True)
    logical_failure = models.BooleanField(null=True, blank=True)
    # A finished planar game's odds from its first board (games.engine.planar.odds): the
    # posterior probability of the class it ended in and of the most likely class. Empty
    # for boards beyond the exact contraction's reach and for every other game.
    class_odds = models.FloatField(null=True, blank=True)
    best_class_odds = models.FloatField(null=True, blank=True)

    client_info = models.JSONField(default=dict, blank=True)
    research_consent = models.BooleanField(default=False)
    excluded_from_research = models.BooleanField(default=False)
    excluded_reason = models.CharField(max_length=200, blank=True)
    # Phi-Lambda save files show Phi/Lambda, not the numbers themselves.
    partially_observed = models.BooleanField(default=False)

    # ``games.engine.Game.to_state()``: play continues from it without a replay.
    state = models.JSONField(default=dict, blank=True)
    next_seq = models.PositiveIntegerField(default=0)

    # Null (not blank) when unset, so that the per-player uniqueness below
    # applies only to uploads.
    legacy_sha256 = models.CharField(max_length=64, null=True, blank=True, db_index=True)  # noqa: DJ001
    legacy_filename = models.CharField(max_length=255, blank=True)
    # The same game whatever file holds it (a CSV, a sheet of a workbook): the
    # SHA-256 of its boards (``games.engine.legacy.boards_digest``).
    legacy_boards_sha256 = models.CharField(  # noqa: DJ001
        max_length=64, null=True, blank=True, db_index=True
    )
    # Set on a player's private copy of a save file another player uploaded
    # first: each player has the game in their own list (nobody learns that
    # somebody else uploaded it), and research data holds the game once, as
    # the first upload (``research_data_condition``). Cleared when that first
    # upload is deleted, so the copy then stands for the game.
    copy_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=promote_a_copy, related_name="copies"
    )
    # Where an imported record was published (a name and an address), if known.
    source_name = models.CharField(max_length=200, blank=True)
    source_url = models.URLField(max_length=500, blank=True)
    # What the importer found in an uploaded save file (gaps, ambiguous moves, ...).
    import_report = models.JSONField(default=dict, blank=True)

    # Set when the player shares the finished game: the unguessable key of its
    # public replay page (/shared/<token>/); null while it is not shared.
    share_token = models.CharField(max_length=32, null=True, blank=True, unique=True)
    shared_at = models.DateTimeField(null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(size__gte=MIN_SIZE)
                & (
                    (Q(family=NO_FAMILY) & Q(size__lte=MAX_SIZE))
                    | (Q(family=PLANAR_FAMILY) & Q(size__lte=MAX_FAMILY_SIZE))
                ),
                name="game_size_range",
            ),
            models.CheckConstraint(
                condition=(
                    Q(family=NO_FAMILY) & Q(modulus__isnull=True) & Q(error_rate__isnull=True)
                )
                | (
                    Q(family=PLANAR_FAMILY)
                    & Q(variant=PLANAR_VARIANT)
                    & Q(modulus__isnull=False)
                    & Q(modulus__gte=MIN_MODULUS)
                    & Q(modulus__lte=MAX_MODULUS)
                    & Q(error_rate__isnull=False)
                ),
                name="game_family_columns",
            ),
            models.CheckConstraint(
                condition=(
                    Q(status="finished")
                    & Q(family=PLANAR_FAMILY)
                    & Q(logical_charge__isnull=False)
                    & Q(logical_failure__isnull=False)
                )
                | (
                    ~Q(status="finished")
                    & Q(logical_charge__isnull=True)
                    & Q(logical_failure__isnull=True)
                ),
                name="game_logical_outcome_when_finished",
            ),
            models.CheckConstraint(condition=Q(score__gte=0), name="game_score_non_negative"),
            # A save file (or the same boards in another file) is one game per player.
            models.UniqueConstraint(
                fields=["player", "legacy_sha256"], name="game_legacy_file_per_player"
            ),
            models.UniqueConstraint(
                fields=["player", "legacy_boards_sha256"], name="game_legacy_boards_per_player"
            ),
            # One original per save (its boards), whoever uploaded it: two players
            # uploading it at the same moment cannot both make the original.
            models.UniqueConstraint(
                fields=["legacy_boards_sha256"],
                condition=Q(copy_of__isnull=True, legacy_boards_sha256__isnull=False),
                name="game_one_original_per_save",
            ),
            models.CheckConstraint(
                condition=(Q(status="active") & Q(ended_at__isnull=True))
                | (~Q(status="active") & Q(ended_at__isnull=False)),
                name="game_status_matches_ended_at",
            ),
            models.CheckConstraint(
                condition=Q(seed__isnull=False) | Q(source="legacy_upload"),
                name="game_seed_unless_legacy",
            ),
            models.CheckConstraint(
                condition=Q(source="bot") | (Q(bot_name="") & Q(bot_version="")),
                name="game_bot_fields_only_for_bots",
            ),
            models.CheckConstraint(
                condition=Q(share_token__isnull=True) | ~Q(status="active"),
                name="game_shared_only_when_finished",
            ),
            models.UniqueConstraint(
                fields=["player", "daily"],
                condition=Q(daily__isnull=False),
                name="game_one_daily_per_player",
            ),
            models.CheckConstraint(
                condition=Q(daily__isnull=True) | Q(mode="normal"),
                name="game_daily_is_normal",
            ),
        ]
        indexes = [
            models.Index(fields=["player", "-started_at"], name="game_player_started"),
            models.Index(fields=["status", "variant", "size"], name="game_research_filter"),
            models.Index(fields=["source", "started_at"], name="game_source_started"),
            models.Index(fields=["started_at"], name="game_started"),
            # The dashboard's aggregates read finished games in (ended_at, id)
            # order from a watermark: the index makes that cost the new games only.
            models.Index(
                fields=["ended_at", "id"], condition=Q(ended_at__isnull=False), name="game_ended"
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.pk} ({self.rules_key}, {self.status}, t={self.score})"

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def rules(self) -> RuleSet:
        """The rule set the game is played by, from its columns (``games.rulesets``)."""
        return rules_from_columns(self)

    @property
    def kind(self) -> FamilyKind:
        """The kind of the game's rule family (``games.engine.families``): what differs
        between the original game and a planar one (``grouped`` etc.)."""
        return stored_kind(self.family)


# Cell-value and coordinate columns of Event, checked by constraints below.
EVENT_VALUE_COLUMNS = (
    "a",
    "aa",
    "value1_before",
    "value2_before",
    "value1_after",
    "value2_after",
    "value",
    "to_value_before",
    "to_value_after",
)
EVENT_COORDINATE_COLUMNS = (
    "row1",
    "col1",
    "row2",
    "col2",
    "from_row",
    "from_col",
    "to_row",
    "to_col",
)


def _value_constraints() -> list[models.CheckConstraint]:
    """Values 0-9; rows on a board of up to 64 x 64; columns also -1 and 64.

    A planar game's side edges and moves off the board name column -1 or L
    (``games.engine.planar``); its boards are up to ``MAX_FAMILY_SIZE``.
    """
    checks = [
        models.CheckConstraint(
            condition=Q(**{f"{name}__isnull": True})
            | (Q(**{f"{name}__gte": 0}) & Q(**{f"{name}__lte": 9})),
            name=f"event_{name}_0_9",
        )
        for name in EVENT_VALUE_COLUMNS
    ]
    for name in EVENT_COORDINATE_COLUMNS:
        low, high = (-1, MAX_FAMILY_SIZE) if "col" in name else (0, MAX_FAMILY_SIZE - 1)
        checks.append(
            models.CheckConstraint(
                condition=Q(**{f"{name}__isnull": True})
                | (Q(**{f"{name}__gte": low}) & Q(**{f"{name}__lte": high})),
                name=f"event_{name}_on_grid",
            )
        )
    return checks


class Event(models.Model):
    """One engine event of one game, in order (``seq`` counts from 0 per game).

    Each engine event field has a nullable column of the same name; a row's
    fields for its ``kind`` rebuild the engine event exactly
    (``games.recording.event_from_row``). ``client_time``, ``server_time``
    and ``note`` belong to moves only.
    """

    id = models.BigAutoField(primary_key=True)
    # No index of its own: the unique (game, seq) index serves every look-up by game.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="events", db_index=False
    )
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=16)

    t = models.IntegerField(null=True, blank=True)
    round = models.IntegerField(null=True, blank=True)
    index = models.IntegerField(null=True, blank=True)
    # noise errors
    row1 = models.IntegerField(null=True, blank=True)
    col1 = models.IntegerField(null=True, blank=True)
    row2 = models.IntegerField(null=True, blank=True)
    col2 = models.IntegerField(null=True, blank=True)
    a = models.IntegerField(null=True, blank=True)
    aa = models.IntegerField(null=True, blank=True)
    case = models.CharField(max_length=16, null=True, blank=True)  # noqa: DJ001
    weight = models.FloatField(null=True, blank=True)
    round_weight = models.FloatField(null=True, blank=True)
    value1_before = models.IntegerField(null=True, blank=True)
    value2_before = models.IntegerField(null=True, blank=True)
    value1_after = models.IntegerField(null=True, blank=True)
    value2_after = models.IntegerField(null=True, blank=True)
    group1_before = models.IntegerField(null=True, blank=True)
    group2_before = models.IntegerField(null=True, blank=True)
    group1_after = models.IntegerField(null=True, blank=True)
    group2_after = models.IntegerField(null=True, blank=True)
    # merges
    cause = models.CharField(max_length=16, null=True, blank=True)  # noqa: DJ001
    surviving = models.IntegerField(null=True, blank=True)
    absorbed = models.IntegerField(null=True, blank=True)
    size = models.IntegerField(null=True, blank=True)
    # round ends
    errors = models.IntegerField(null=True, blank=True)
    numbers = models.IntegerField(null=True, blank=True)
    # moves
    from_row = models.IntegerField(null=True, blank=True)
    from_col = models.IntegerField(null=True, blank=True)
    to_row = models.IntegerField(null=True, blank=True)
    to_col = models.IntegerField(null=True, blank=True)
    value = models.IntegerField(null=True, blank=True)
    to_value_before = models.IntegerField(null=True, blank=True)
    to_value_after = models.IntegerField(null=True, blank=True)
    from_group = models.IntegerField(null=True, blank=True)
    to_group_before = models.IntegerField(null=True, blank=True)
    to_group_after = models.IntegerField(null=True, blank=True)
    annihilated = models.BooleanField(null=True, blank=True)
    # jumps and regenerations
    from_t = models.IntegerField(null=True, blank=True)
    reason = models.CharField(max_length=32, null=True, blank=True)  # noqa: DJ001
    attempt = models.IntegerField(null=True, blank=True)
    # the loss
    group = models.IntegerField(null=True, blank=True)
    axis = models.CharField(max_length=16, null=True, blank=True)  # noqa: DJ001
    spanning_groups = models.IntegerField(null=True, blank=True)
    # a planar game's logical outcome
    charge = models.IntegerField(null=True, blank=True)
    failed = models.BooleanField(null=True, blank=True)

    # Moves of imported save files only (null for games played here): whether the
    # boards single the move out, and how many moves would explain the same two
    # boards (2 for an annihilation whose direction they cannot tell).
    move_certain = models.BooleanField(null=True, blank=True)
    explanations = models.PositiveSmallIntegerField(null=True, blank=True)

    # Moves only.
    client_time = models.DateTimeField(null=True, blank=True)
    server_time = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="event_game_seq_unique"),
            models.CheckConstraint(condition=Q(seq__gte=0), name="event_seq_non_negative"),
            *_value_constraints(),
        ]
        indexes = [
            models.Index(fields=["kind", "id"], name="event_kind_id"),
            # Finds a game's move by its number (retries, notes) without a scan.
            models.Index(
                fields=["game", "index"], condition=Q(kind="move"), name="event_game_move"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.seq} of game {self.game_id}"


class BoardSnapshot(models.Model):
    """The board after ``step`` moves (0: the first board) of one game.

    For uploaded save files ``step`` is the file's step number, which is the
    clock ``t``: a move that empties the board makes the clock jump, so such
    games have no board at the skipped steps.

    ``values`` holds one character per cell, row-major. For games played on
    the platform and Z10 save files each character is the cell's value, ``0``
    (empty) to ``9``. Phi-Lambda save files do not hold the values: their
    cells are ``0`` (empty), ``P`` (a Phi: a number other than 5) or ``L``
    (a Lambda: a 5). ``shown`` is set only when the player was shown something
    else (hard Phi-Lambda): what was displayed, in the same symbols.
    ``labels`` is the comma-separated group id of every cell (0 when empty).
    ``comment`` keeps the player's notes written next to this step in a save
    file, one per line.
    """

    # No index of its own: the unique (game, step) index serves every look-up by game.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="snapshots", db_index=False
    )
    step = models.PositiveIntegerField()
    t = models.PositiveIntegerField()
    values = models.CharField(max_length=MAX_FAMILY_SIZE * MAX_FAMILY_SIZE)
    shown = models.CharField(max_length=MAX_FAMILY_SIZE * MAX_FAMILY_SIZE, blank=True)
    labels = models.TextField()
    comment = models.TextField(blank=True)

    class Meta:
        ordering = ["game", "step"]
        constraints = [
            models.UniqueConstraint(fields=["game", "step"], name="snapshot_game_step_unique"),
        ]

    def __str__(self) -> str:
        return f"board {self.step} of game {self.game_id}"
