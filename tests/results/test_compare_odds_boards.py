"""Class odds of people against the decoders and the optimum, per board and per (L, p, d);
and the comparison's pages found from the game's end, the menu and My games."""

from __future__ import annotations

import math
import statistics
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from core.sessions import PLAYER_SESSION_KEY
from core.stats.means import mean_interval
from games.models import Game, Player
from results import comparison
from results.models import DecoderComparison
from tests.factories import PlanarGameFactory, PlayerFactory, play_planar

# -- the mean and its interval (pure) --------------------------------------------------------


def test_the_mean_and_its_t_interval_worked_by_hand() -> None:
    # mean 0.65, s = 0.1291, s / sqrt(4) = 0.06455, t(0.975, 3) = 3.1824: half-width 0.2054.
    mean = mean_interval([0.5, 0.6, 0.7, 0.8])
    assert (mean.n, mean.mean) == (4, pytest.approx(0.65))
    assert mean.lower == pytest.approx(0.4446, abs=1e-4)
    assert mean.upper == pytest.approx(0.8554, abs=1e-4)


def test_the_interval_is_cut_to_the_range_and_needs_two_values() -> None:
    wide = mean_interval([0.0, 1.0])
    assert (wide.lower, wide.upper) == (0.0, 1.0)
    assert mean_interval([0.3]) == mean_interval([0.3]).__class__(1, 0.3, None, None)
    assert mean_interval([]).mean is None
    assert mean_interval([-0.5, 0.5], low=-1.0).mean == 0.0


@pytest.mark.parametrize("bad", [[1.5], [-0.1], [math.nan], [True], ["0.5"]])
def test_a_value_outside_the_range_is_refused(bad) -> None:
    with pytest.raises(ValueError, match="must"):
        mean_interval(bad)


@given(st.lists(st.floats(min_value=0, max_value=1), min_size=2, max_size=40))
def test_the_interval_holds_the_mean_and_agrees_with_scipy(values) -> None:
    mean = mean_interval(values)
    assert mean.lower is not None
    assert mean.upper is not None
    assert mean.mean is not None
    assert 0 <= mean.lower <= mean.mean + 1e-12
    assert mean.mean - 1e-12 <= mean.upper <= 1
    spread = statistics.stdev(values)
    if spread > 1e-9:
        low, high = stats.t.interval(0.95, len(values) - 1, loc=sum(values) / len(values),
                                     scale=stats.sem(values))
        assert mean.lower == pytest.approx(max(0.0, low), abs=1e-9)
        assert mean.upper == pytest.approx(min(1.0, high), abs=1e-9)


# -- the odds of a known set of boards -------------------------------------------------------

# Per board (seed): the people's games (class odds, best class odds; None odds and a
# best of None is a board beyond the exact computation; "abandoned" a game given up), the
# decoder's game (its class odds and best; "abandoned"), as stored.
Odds = tuple[float | None, float | None] | str
BOARDS: dict[int, tuple[list[Odds], Odds]] = {
    7300: ([(0.9, 0.9), (0.1, 0.9)], (0.9, 0.9)),
    7301: (["abandoned"], (0.6, 0.6)),
    7302: ([(0.7, 0.7)], "abandoned"),
    7303: ([(None, None)], (0.0, 0.0)),  # beyond the exact computation: no odds (left out)
}


def _ended(game: Game, *, odds: Odds, consent: bool) -> None:
    if odds == "abandoned":
        Game.objects.filter(pk=game.pk).update(
            status=Game.Status.ABANDONED, ended_at=timezone.now(), research_consent=consent)
        return
    assert not isinstance(odds, str)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, logical_failure=False, logical_charge=0,
        class_odds=odds[0], best_class_odds=odds[1], ended_at=timezone.now(),
        research_consent=consent)


def _known_boards() -> dict[int, list[Game]]:
    people: dict[int, list[Game]] = {}
    for seed, (games, bot) in BOARDS.items():
        # The decoder's game: a game that is not research data stands for it (only its
        # status and odds are read through the comparison row).
        bot_game = PlanarGameFactory.create(seed=seed)
        _ended(bot_game, odds=bot if bot != "abandoned" else "abandoned", consent=False)
        if bot == "abandoned":
            Game.objects.filter(pk=bot_game.pk).update(best_class_odds=None)
        for odds in games:
            game = PlanarGameFactory.create(seed=seed)
            _ended(game, odds=odds, consent=True)
            game.refresh_from_db()
            bot_game.refresh_from_db()
            DecoderComparison.objects.create(
                human_game=game, bot_game=bot_game, decoder="matching", decoder_version="1",
                human_failed=game.status != Game.Status.FINISHED,
                bot_failed=bot_game.status != Game.Status.FINISHED,
                same_outcome=game.status == bot_game.status,
            )
            people.setdefault(seed, []).append(game)
    return people


@pytest.mark.django_db
def test_the_class_odds_of_people_decoder_and_optimum_on_the_same_boards() -> None:
    _known_boards()
    [group] = comparison.comparison_groups()
    [side] = group.decoders
    odds = side.odds
    assert odds is not None
    # Per board (people's mean, decoder's, best): 7300 (0.5, 0.9, 0.9), 7301 (0, 0.6, 0.6),
    # 7302 (0.7, 0, 0.7); 7303 has no odds.
    assert odds.boards == 3
    assert odds.people.mean == pytest.approx(0.4)
    assert odds.decoder is not None
    assert odds.decoder.mean == pytest.approx(0.5)
    assert odds.best.mean == pytest.approx((0.9 + 0.6 + 0.7) / 3)
    assert odds.difference is not None
    assert odds.difference.mean == pytest.approx(-0.1)
    expected = mean_interval([0.5, 0.0, 0.7])
    assert (odds.people.lower, odds.people.upper) == (expected.lower, expected.upper)
    assert (odds.games, odds.games_best) == (4, 2)
    assert group.odds is not None
    assert group.odds.boards == 3
    assert group.odds.people.mean == pytest.approx(0.4)
    assert side.odds_words.startswith(
        "On the 3 boards matching played with odds: people's class right with probability 0.40")
    assert "matching's 0.50" in side.odds_words
    assert group.odds.words.startswith(
        "On 3 boards with odds, the class people chose was right with probability 0.40")
    assert "2 of 4 people's games ended in the class the best decoder would have chosen" in (
        group.odds.words)


@pytest.mark.django_db
def test_the_page_and_the_dashboard_give_the_odds(client: Client) -> None:
    _known_boards()
    text = " ".join(client.get(reverse("results:compare")).content.decode().split())
    assert "On 3 boards with odds, the class people chose was right with probability 0.40" in text
    assert 'data-odds-boards="3"' in text
    assert "most likely class 0.90" in text  # per board, in the games' list
    people, matching = client.get("/dashboard/data/compare/").json()["series"]
    assert people["odds_boards"] == [3]
    assert people["class_odds"] == [pytest.approx(0.4)]
    assert matching["class_odds"] == [pytest.approx(0.5)]
    assert matching["best_class_odds"] == [pytest.approx(0.733333, abs=1e-6)]
    assert people["words"][0].startswith("On 3 boards with odds")
    assert matching["words"][0].startswith("On the 3 boards matching played with odds")


# -- found: the game's end, the menu, My games; your own game marked -------------------------


def _browser_of(player: Player) -> Client:
    browser = Client()
    session = browser.session
    session[PLAYER_SESSION_KEY] = str(player.pk)
    session.save()
    return browser


def _played(django_capture_on_commit_callbacks, player: Player | None = None) -> Game:
    with django_capture_on_commit_callbacks(execute=True):
        game = play_planar(
            PlanarGameFactory.create(seed=5003, source=Game.Source.WEB,
                                     **({"player": player} if player else {})),
            decoder="clustering")
    assert game.status == Game.Status.FINISHED
    return game


@pytest.mark.django_db
def test_the_menu_on_every_page_links_to_the_comparison(client: Client) -> None:
    for url in ("/", reverse("results:compare")):
        page = client.get(url).content.decode()
        assert f'href="{reverse("results:compare")}"' in page


@pytest.mark.django_db
def test_the_play_page_names_the_comparison_for_a_planar_games_end(client: Client) -> None:
    page = client.get(reverse("web:play")).content.decode()
    assert f'data-compare-url="{reverse("results:compare")}"' in page
    assert 'id="gameover-compare-link"' in page


@pytest.mark.django_db
def test_your_own_game_is_marked_and_listed_first(django_capture_on_commit_callbacks) -> None:
    player = PlayerFactory.create()
    mine = _played(django_capture_on_commit_callbacks, player)
    other = _played(django_capture_on_commit_callbacks)
    page = _browser_of(player).get(reverse("results:compare")).content.decode()
    assert 'id="compare-mine"' in page
    assert f'<li data-game="{mine.pk}" data-mine class="is-mine">' in page
    assert f'<li data-game="{other.pk}">' in page
    assert "<strong>Your game</strong> of" in page
    # A stranger's view marks nothing.
    stranger = Client().get(reverse("results:compare")).content.decode()
    assert "data-mine" not in stranger
    assert "Your game" not in stranger


@pytest.mark.django_db
def test_a_compared_games_page_draws_both_corrections_and_links_your_replay(
    django_capture_on_commit_callbacks,
) -> None:
    player = PlayerFactory.create()
    game = _played(django_capture_on_commit_callbacks, player)
    url = reverse("results:compare-game", args=[game.pk])
    page = _browser_of(player).get(url).content.decode()
    assert f'href="{reverse("web:play")}?game={game.pk}"' in page
    rows = DecoderComparison.objects.filter(human_game=game)
    for row in rows:
        assert f'<figure class="compare-picture" data-decoder="{row.decoder}"' in page
    # The person played clustering's own plan: the same edges; the pictures hold both lines.
    assert 'data-decoder="clustering" data-differing="0"' in page
    assert 'class="chain chain-person"' in page
    assert 'class="chain chain-bot"' in page
    # Another visitor sees the pictures but no replay link (only its player can replay it).
    stranger = Client().get(url).content.decode()
    assert "?game=" not in stranger
    assert "compare-picture" in stranger


@pytest.mark.django_db
def test_a_link_to_a_game_that_is_not_compared_explains_why(client: Client) -> None:
    game = PlanarGameFactory.create(seed=5004)
    response = client.get(reverse("results:compare-game", args=[game.pk]))
    assert response.status_code == 404
    text = response.content.decode()
    assert "not compared with the decoders" in text
    assert f'href="{reverse("results:compare")}"' in text
    assert client.get(reverse("results:compare-game", args=[uuid.uuid4()])).status_code == 404


@pytest.mark.django_db
def test_my_games_lists_the_compared_planar_games(django_capture_on_commit_callbacks) -> None:
    player = PlayerFactory.create()
    game = _played(django_capture_on_commit_callbacks, player)
    page = _browser_of(player).get(reverse("web:me")).content.decode()
    assert 'id="compare-section"' in page
    assert f'href="{reverse("results:compare-game", args=[game.pk])}"' in page
    fresh = _browser_of(PlayerFactory.create()).get(reverse("web:me")).content.decode()
    assert "No planar game of yours has been compared" in fresh
    assert f'href="{reverse("results:compare")}"' in fresh


# -- the export: each row carries both games' class odds and the board's best ---------------


@pytest.mark.django_db
def test_the_comparison_rows_export_the_class_odds_of_both_games_and_the_board(
    django_capture_on_commit_callbacks,
) -> None:
    from django.contrib.auth.models import Group, User

    from research.selectors import RESEARCHERS_GROUP
    from tests.research.conftest import body_of, csv_rows

    game = _played(django_capture_on_commit_callbacks)
    user = User.objects.create_user("ada", password="a-long-test-password")
    user.groups.add(Group.objects.get(name=RESEARCHERS_GROUP))
    researcher = Client()
    researcher.force_login(user)
    rows = csv_rows(body_of(researcher.get("/research/export/decoder_comparisons.csv")))
    assert rows
    for row in rows:
        bot = Game.objects.get(pk=row["bot_game_id"])
        assert float(row["human_class_odds"]) == pytest.approx(game.class_odds)
        assert float(row["bot_class_odds"]) == pytest.approx(bot.class_odds)
        assert float(row["best_class_odds"]) == pytest.approx(game.best_class_odds)
    [optimal] = [row for row in rows if row["bot_name"] == "optimal"]
    assert optimal["bot_class_odds"] == optimal["best_class_odds"]


@pytest.mark.django_db
def test_a_withheld_boards_odds_wait_for_its_day(client: Client) -> None:
    from games.services.daily import daily_planar_start

    game = play_planar(daily_planar_start(player=PlayerFactory.create()))
    # The daily board (d = 10, L = 7) is beyond the exact computation: odds as a smaller
    # board would have them, stored while the day is still open.
    Game.objects.filter(pk=game.pk).update(class_odds=0.5, best_class_odds=0.7)
    [group] = comparison.comparison_groups()
    assert group.odds is not None
    assert group.odds.boards == 0
    row = comparison.comparison_game(game_id=game.pk)
    assert row is not None
    assert row.seed is None
    assert (row.class_odds, row.board_best, row.odds_text) == (None, None, "")
    page = client.get(reverse("results:compare-game", args=[game.pk])).content.decode()
    assert "probability" not in page
