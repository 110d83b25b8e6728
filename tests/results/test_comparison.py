"""People against the planar decoders: the decoders replay each person's board, the statistics,
the pages and the research table."""

from __future__ import annotations

from datetime import timedelta
from fractions import Fraction

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from core.pseudonyms import pseudonym
from core.stats.paired import board_sign_test, mcnemar_exact
from games.daily import today
from games.engine.planar import lattice
from games.models import DailyChallenge, Game
from games.services import game_abandon, planar_bot_game
from games.services.daily import daily_planar_start
from research.exports.filters import filtered_queryset, parse_filters
from research.exports.tables import get_table
from research.selectors import RESEARCHERS_GROUP
from results import comparison
from results.analysis.corrections import compare_corrections, flux, net_chain
from results.models import DecoderComparison
from results.services.comparison import (
    comparison_enqueue_pending,
    comparison_play,
    decoders_for,
)
from tests.factories import PlanarGameFactory, PlayerFactory, play_planar
from tests.research.conftest import body_of, csv_rows


@pytest.fixture
def researcher_client(db) -> Client:
    user = User.objects.create_user("ada", password="a-long-test-password")
    user.groups.add(Group.objects.get(name=RESEARCHERS_GROUP))
    client = Client()
    client.force_login(user)
    return client


# -- the chains (pure) ---------------------------------------------------------------------

SIZE = 3


def test_a_move_adds_its_value_along_its_edge_and_opposite_moves_cancel():
    geometry = lattice(SIZE)
    right = geometry.edge_of(0, 1)
    chain = net_chain(size=SIZE, modulus=5, moves=[(0, 0, 0, 1, 2)])
    assert chain[right] == 2
    assert sum(chain) == 2
    back = net_chain(size=SIZE, modulus=5, moves=[(0, 0, 0, 1, 2), (0, 1, 0, 0, 2)])
    assert not any(back)
    # Off the board through the left side: from the outside end's point of view, -v.
    off = net_chain(size=SIZE, modulus=5, moves=[(1, 0, 1, -1, 3)])
    assert off[geometry.left_edge(1)] == 2
    assert flux(size=SIZE, modulus=5, chain=off) == 2


def test_a_move_that_follows_no_edge_is_refused():
    with pytest.raises(ValueError, match="follows no edge"):
        net_chain(size=SIZE, modulus=2, moves=[(0, 0, 1, 1, 1)])
    with pytest.raises(ValueError, match="off the"):
        net_chain(size=SIZE, modulus=2, moves=[(3, 0, 2, 0, 1)])


def test_corrections_differing_by_a_plaquette_are_in_one_class_not_one_chain():
    # A number at (0, 0) and one at (1, 1), d = 2: joined by way of (0, 1) or of (1, 0).
    top = net_chain(size=SIZE, modulus=2, moves=[(0, 0, 0, 1, 1), (0, 1, 1, 1, 1)])
    left = net_chain(size=SIZE, modulus=2, moves=[(0, 0, 1, 0, 1), (1, 0, 1, 1, 1)])
    agreement = compare_corrections(size=SIZE, modulus=2, first=top, second=left)
    assert (agreement.same_class, agreement.same_chain) == (True, False)
    same = compare_corrections(size=SIZE, modulus=2, first=top, second=top)
    assert (same.same_class, same.same_chain) == (True, True)


def test_corrections_through_opposite_sides_are_in_different_classes():
    # One number in the middle row's middle cell: off through the left, or through the right.
    out_left = net_chain(size=SIZE, modulus=2, moves=[(1, 1, 1, 0, 1), (1, 0, 1, -1, 1)])
    out_right = net_chain(size=SIZE, modulus=2, moves=[(1, 1, 1, 2, 1), (1, 2, 1, 3, 1)])
    agreement = compare_corrections(size=SIZE, modulus=2, first=out_left, second=out_right)
    assert (agreement.same_class, agreement.same_chain) == (False, False)


def test_corrections_of_different_boards_are_refused():
    one = net_chain(size=SIZE, modulus=2, moves=[(0, 0, 0, 1, 1)])
    other = net_chain(size=SIZE, modulus=2, moves=[(1, 0, 1, 1, 1)])
    with pytest.raises(ValueError, match="same board"):
        compare_corrections(size=SIZE, modulus=2, first=one, second=other)


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        (0, 0, 1.0),
        (5, 0, 0.0625),  # 2 / 2^5
        (1, 9, 0.021484375),  # 2 (1 + 10) / 2^10
        (9, 1, 0.021484375),
        (3, 1, 0.625),  # 2 (1 + 4) / 2^4
        (3, 3, 1.0),  # capped
    ],
)
def test_the_exact_mcnemar_p_value(first, second, expected):
    assert mcnemar_exact(first, second) == expected


def test_the_mcnemar_test_refuses_negative_counts():
    with pytest.raises(ValueError, match="non-negative"):
        mcnemar_exact(-1, 2)


@pytest.mark.parametrize(
    ("differences", "ahead", "behind", "expected"),
    [
        ([], 0, 0, 1.0),
        ([0, 0], 0, 0, 1.0),
        ([Fraction(1, 7) - 1], 0, 1, 1.0),  # one board: no test can tell anything
        ([1, 1, 1, 1, 1], 5, 0, 0.0625),
        ([0.5, -1, 0, Fraction(-2, 3)], 1, 2, 1.0),
    ],
)
def test_the_sign_test_across_boards(differences, ahead, behind, expected):
    result = board_sign_test(differences)
    assert (result.boards, result.first_ahead, result.second_ahead) == (
        len(differences),
        ahead,
        behind,
    )
    assert result.p_value == expected


@given(st.lists(st.fractions(min_value=-1, max_value=1), max_size=30))
def test_the_sign_test_is_symmetric_and_counts_only_signs(differences):
    result = board_sign_test(differences)
    flipped = board_sign_test([-value for value in differences])
    assert flipped.p_value == result.p_value
    assert (flipped.first_ahead, flipped.second_ahead) == (result.second_ahead, result.first_ahead)
    assert result.p_value == mcnemar_exact(result.first_ahead, result.second_ahead)


@pytest.mark.parametrize("bad", [[2], [-1.5], [float("nan")], [True], ["0.5"]])
def test_the_sign_test_refuses_what_is_no_difference_of_rates(bad):
    with pytest.raises(ValueError, match="difference"):
        board_sign_test(bad)


# -- the decoders on a person's board --------------------------------------------------------


def _finished_person_game(
    seed: int = 5001, *, source: str = Game.Source.WEB, decoder: str = "clustering"
) -> Game:
    game = PlanarGameFactory.create(seed=seed, source=source)
    game = play_planar(game, decoder=decoder)
    assert game.status == Game.Status.FINISHED
    return game


@pytest.mark.django_db
def test_the_decoders_play_a_finished_person_game_after_the_commit(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        game = _finished_person_game()
    # Nothing before the commit: the game's end only queued work for after it.
    assert not DecoderComparison.objects.exists()
    assert not Game.objects.bots().exists()
    with django_capture_on_commit_callbacks(execute=True):
        for callback in callbacks:
            callback()
    rows = {row.decoder: row for row in DecoderComparison.objects.filter(human_game=game)}
    assert sorted(rows) == ["clustering", "matching", "optimal"]  # every decoder of d = 2
    for decoder, row in rows.items():
        bot = row.bot_game
        assert (bot.source, bot.bot_name, bot.seed, bot.rules_key) == (
            Game.Source.BOT,
            decoder,
            game.seed,
            game.rules_key,
        )
        assert bot.status == Game.Status.FINISHED
        assert row.human_failed == game.logical_failure
        assert row.bot_failed == bot.logical_failure
        assert row.same_outcome == (game.logical_failure == bot.logical_failure)
        # Same class exactly when the logical charges are the same.
        assert row.same_class == (game.logical_charge == bot.logical_charge)
    # The person played the clustering decoder's own plan: the same correction.
    assert (rows["clustering"].same_class, rows["clustering"].same_chain) == (True, True)
    # The decoders' own games did not start comparisons of their own.
    assert DecoderComparison.objects.count() == 3


@pytest.mark.django_db
def test_a_modulus_matching_does_not_decode_gets_the_other_decoders(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        game = PlanarGameFactory.create(seed=5003, modulus=3)
        game = play_planar(game)
    decoders = DecoderComparison.objects.order_by("decoder").values_list("decoder", flat=True)
    assert list(decoders) == ["clustering", "optimal"]
    assert {row.human_game for row in DecoderComparison.objects.all()} == {game}


@pytest.mark.django_db
def test_playing_twice_records_nothing_new(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = _finished_person_game(5002, source=Game.Source.API)
    games, rows = Game.objects.count(), DecoderComparison.objects.count()
    assert rows == 3
    assert comparison_play(game_id=game.pk) == 0
    assert comparison_enqueue_pending() == 0
    assert (Game.objects.count(), DecoderComparison.objects.count()) == (games, rows)


@pytest.mark.django_db
def test_a_bot_game_already_recorded_is_found_again_by_rules_seed_and_name(
    django_capture_on_commit_callbacks,
):
    game = _finished_person_game(5004)  # its callbacks are not run: no comparison yet
    bot = planar_bot_game(rules=game.rules, bot_name="matching", seed=game.seed)
    games = Game.objects.count()
    assert comparison_play(game_id=game.pk) == 3
    assert Game.objects.count() == games + 2  # only clustering's and optimal's games are new
    assert DecoderComparison.objects.get(human_game=game, decoder="matching").bot_game == bot


@pytest.mark.django_db
def test_pending_boards_are_queued_and_played(django_capture_on_commit_callbacks):
    game = _finished_person_game(5005)
    with django_capture_on_commit_callbacks(execute=True):
        assert comparison_enqueue_pending() == 1
    assert DecoderComparison.objects.filter(human_game=game).count() == 3


@pytest.mark.django_db
def test_games_that_are_not_a_persons_finished_planar_game_are_not_played():
    active = PlanarGameFactory.create(seed=5006)
    bot = planar_bot_game(rules=active.rules, bot_name="clustering", seed=5006)
    assert comparison_play(game_id=active.pk) == 0
    assert comparison_play(game_id=bot.pk) == 0
    assert not DecoderComparison.objects.exists()


# -- the statistics on a constructed set ------------------------------------------------------

# Six boards at L = 5, p = 0.1, d = 2, person and matching, in order:
# (person failed, decoder failed, same class, same chain); None: the decoder did not clean.
SET = [
    (False, False, True, True),
    (False, True, False, False),
    (False, True, False, False),
    (False, True, None, None),
    (True, False, False, False),
    (True, True, True, False),
]


def _constructed(*, consent: bool = True) -> list[Game]:
    player = PlayerFactory.create()
    games = []
    for index, (human, bot, klass, chain) in enumerate(SET):
        game = PlanarGameFactory.create(player=player, seed=7000 + index)
        Game.objects.filter(pk=game.pk).update(
            status=Game.Status.FINISHED,
            logical_failure=human,
            logical_charge=int(human),
            research_consent=consent,
            ended_at=timezone.now(),
        )
        DecoderComparison.objects.create(
            human_game=game,
            bot_game=game,
            decoder="matching",
            decoder_version="1",
            human_failed=human,
            bot_failed=bot,
            same_outcome=human == bot,
            same_class=klass,
            same_chain=chain,
        )
        games.append(game)
    return games


@pytest.mark.django_db
def test_the_paired_statistics_of_a_known_set():
    _constructed()
    _constructed(consent=False)  # not research data: left out of every figure
    [group] = comparison.comparison_groups()
    assert (group.key.size, group.key.error_rate, group.key.modulus) == (5, 0.1, 2)
    assert (group.human.successes, group.human.trials) == (4, 6)
    assert group.human.lower == pytest.approx(0.29999, abs=1e-4)
    assert group.human.upper == pytest.approx(0.90324, abs=1e-4)
    [side] = group.decoders
    assert side.decoder == "matching"
    assert (side.human.successes, side.human.trials) == (4, 6)
    assert (side.bot.successes, side.bot.trials) == (2, 6)
    assert side.bot.lower == pytest.approx(0.09676, abs=1e-4)
    assert (side.boards, side.people) == (6, 1)
    assert (side.people_ahead, side.decoder_ahead, side.pairing.ties) == (3, 1, 2)
    assert side.p_value == 0.625  # one person per board: the sign test is McNemar's
    assert (side.human_abandoned, side.bot_abandoned) == (0, 0)
    assert (side.same_outcome.successes, side.same_outcome.trials) == (2, 6)
    assert (side.same_class.successes, side.same_class.trials) == (2, 5)
    assert (side.same_chain.successes, side.same_chain.trials) == (1, 5)


@pytest.mark.django_db
def test_the_research_table_holds_research_data_only():
    kept = _constructed()
    _constructed(consent=False)
    table = get_table("decoder_comparisons")
    assert table is not None
    rows = filtered_queryset(table=table, filters=parse_filters({}, table=table))
    assert sorted(rows.values_list("human_game_id", flat=True)) == sorted(g.pk for g in kept)


# -- the pages -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_comparison_page_shows_each_group_and_links_each_game(client):
    games = _constructed()
    response = client.get(reverse("results:compare"))
    assert response.status_code == 200
    text = response.content.decode()
    assert "L=5, p=0.1, d=2" in text
    assert "People: 4 of 6 games solved, 0.667 (95% interval 0.300\u20130.903)" in " ".join(
        text.split()
    )
    assert "0.625" in text  # the sign test's p-value
    assert "6 boards, 1 person" in text
    for game in games:
        assert reverse("results:compare-game", args=[game.pk]) in text


@pytest.mark.django_db
def test_a_game_page_shows_the_decoders_on_its_seed(client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = _finished_person_game(5007)
    response = client.get(reverse("results:compare-game", args=[game.pk]))
    assert response.status_code == 200
    text = response.content.decode()
    assert f"seed {game.seed}" in text
    assert 'data-decoder="matching"' in text
    assert 'data-decoder="clustering"' in text


@pytest.mark.django_db
def test_a_game_page_of_no_research_game_is_not_found(client):
    [game, *_] = _constructed(consent=False)
    assert client.get(reverse("results:compare-game", args=[game.pk])).status_code == 404
    assert client.get("/compare/not-a-uuid/").status_code == 404


@pytest.mark.django_db
def test_the_dashboard_plot_gives_each_success_rate_with_its_interval(client):
    _constructed()
    body = client.get("/dashboard/data/compare/").json()
    assert body["games"] == 6
    people, matching = body["series"]
    assert (people["who"], people["size"], people["modulus"], people["rates"]) == (
        "people",
        5,
        2,
        [0.1],
    )
    assert (people["successes"], people["games"]) == ([4], [6])
    assert people["lower"][0] == pytest.approx(0.29999, abs=1e-4)
    assert (matching["who"], matching["successes"], matching["games"]) == ("matching", [2], [6])
    [family] = body["view"]["families"]
    assert (family["label"], family["names"], family["members"]) == (
        "L=5, d=2",
        ["people", "matching"],
        [0, 1],
    )
    csv = client.get("/dashboard/data/compare/?format=csv").content.decode().splitlines()
    assert csv[0] == (
        "who,size,modulus,rate,games,successes,success_rate,lower95,upper95,"
        "odds_boards,class_odds,class_odds_lower95,class_odds_upper95,best_class_odds"
    )
    assert csv[1].startswith("people,5,2,0.1,6,4,0.666667,")
    # The board-size filter applies.
    assert client.get("/dashboard/data/compare/?size=7").json()["series"] == []


# -- the board is the unit of pairing --------------------------------------------------------


@pytest.mark.django_db
def test_seven_people_on_one_board_count_as_one_board_against_one_decoder_game():
    """Seven people, one seed, one decoder game: one observation of the decoder, not seven.

    Counted per game, the decoder alone succeeded on six "boards" (McNemar p = 0.031).
    """
    games = []
    for index in range(7):
        game = PlanarGameFactory.create(seed=7100)
        failed = index > 0  # one person of seven cleaned the board without a logical error
        Game.objects.filter(pk=game.pk).update(
            status=Game.Status.FINISHED,
            logical_failure=failed,
            logical_charge=int(failed),
            ended_at=timezone.now(),
        )
        games.append(game)
    for game in games:
        DecoderComparison.objects.create(
            human_game=game,
            bot_game=games[0],  # stands for the decoder's single game on the board
            decoder="matching",
            decoder_version="1",
            human_failed=game.pk != games[0].pk,
            bot_failed=False,
            same_outcome=game.pk == games[0].pk,
        )
    [group] = comparison.comparison_groups()
    [side] = group.decoders
    assert (side.boards, side.people) == (1, 7)
    assert (side.human.successes, side.human.trials) == (1, 7)
    assert (side.bot.successes, side.bot.trials) == (1, 1)
    assert (side.people_ahead, side.decoder_ahead) == (0, 1)
    assert side.p_value == 1.0


@pytest.mark.django_db
def test_the_dashboard_counts_a_decoder_once_per_board(client):
    games = [PlanarGameFactory.create(seed=7200) for _ in range(3)]
    for game in games:
        Game.objects.filter(pk=game.pk).update(
            status=Game.Status.FINISHED, logical_failure=False, logical_charge=0,
            ended_at=timezone.now(),
        )
    bot = games[0]  # stands for the decoder's single game on the board
    for game in games:
        DecoderComparison.objects.create(
            human_game=game, bot_game=bot, decoder="matching", decoder_version="1",
            human_failed=False, bot_failed=True, same_outcome=False,
        )
    people, matching = client.get("/dashboard/data/compare/").json()["series"]
    assert (people["successes"], people["games"]) == ([3], [3])
    assert (matching["successes"], matching["games"]) == ([0], [1])


# -- abandoned games count alike on both sides --------------------------------------------------


def _abandoned_person_game(seed: int) -> Game:
    game = play_planar(PlanarGameFactory.create(seed=seed, source=Game.Source.WEB), moves=1)
    return game_abandon(game_id=game.pk, player=game.player)


@pytest.mark.django_db
def test_a_persons_abandoned_game_is_compared_as_a_failure(client):
    game = _abandoned_person_game(5101)
    assert game.status == Game.Status.ABANDONED
    assert comparison_play(game_id=game.pk) == len(decoders_for(size=game.size, modulus=2))
    for row in DecoderComparison.objects.filter(human_game=game):
        assert row.human_failed is True
        assert (row.same_class, row.same_chain) == (None, None)  # no class without a clean board
    [group] = comparison.comparison_groups()
    assert (group.human.successes, group.human.trials) == (0, 1)
    for side in group.decoders:
        assert (side.human.successes, side.human.trials, side.human_abandoned) == (0, 1, 1)
    page = client.get(reverse("results:compare-game", args=[game.pk])).content.decode()
    assert "abandoned (counted as failed)" in page


@pytest.mark.django_db
def test_an_abandoned_game_is_recorded_in_the_export(researcher_client):
    game = _abandoned_person_game(5102)
    comparison_play(game_id=game.pk)
    response = researcher_client.get("/research/export/decoder_comparisons.csv")
    rows = csv_rows(body_of(response))
    assert len(rows) == len(decoders_for(size=game.size, modulus=2))
    for row in rows:
        assert (row["human_abandoned"], row["human_logical_failure"]) == ("true", "true")
        assert row["bot_abandoned"] == "false"


# -- the comparison rows name the person, the day and an integer version --------------------------


@pytest.mark.django_db
def test_a_comparison_row_names_the_persons_pseudonym_the_daily_date_and_an_integer_version(
    researcher_client,
):
    game = play_planar(daily_planar_start(player=PlayerFactory.create()))
    day = today() - timedelta(days=1)
    DailyChallenge.every_day.filter(pk=game.daily_id).update(date=day)
    decoders = decoders_for(size=game.size, modulus=game.modulus or 0)
    assert comparison_play(game_id=game.pk) == len(decoders)
    rows = csv_rows(body_of(researcher_client.get("/research/export/decoder_comparisons.csv")))
    assert sorted(row["bot_name"] for row in rows) == decoders
    for row in rows:
        assert row["player"] == pseudonym(game.player_id)
        assert row["daily_date"] == day.isoformat()
        assert row["bot_version"] == "1"
        assert row["seed"] == str(game.seed)
    answers = get_table("decodoku_bot_answers")
    compared = get_table("decoder_comparisons")
    assert answers is not None
    assert compared is not None
    [answers_version] = [c.type for c in answers.columns if c.name == "bot_version"]
    [compared_version] = [c.type for c in compared.columns if c.name == "bot_version"]
    assert compared_version == answers_version == "integer"


def test_the_optimal_decoder_plays_peoples_boards_only_where_its_exact_contraction_reaches():
    assert decoders_for(size=6, modulus=10) == ["clustering", "optimal"]
    assert decoders_for(size=7, modulus=10) == ["clustering"]
    assert decoders_for(size=16, modulus=2) == ["clustering", "matching", "optimal"]
    assert decoders_for(size=21, modulus=2) == ["clustering", "matching"]
