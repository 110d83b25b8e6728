"""A planar game's class odds said in words: on the game's end (the API) and on /compare/."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from games.selectors import class_odds_text
from results.models import DecoderComparison
from tests.factories import PlanarGameFactory, play_planar


def test_the_words_when_the_game_ended_in_the_most_likely_class() -> None:
    assert class_odds_text(odds=0.834, best_odds=0.834) == (
        "You chose the class the best decoder would have chosen; it was right with "
        "probability 0.83."
    )


def test_the_words_when_a_more_likely_class_existed() -> None:
    assert class_odds_text(odds=0.27, best_odds=0.61, second_person=False) == (
        "The most likely class had probability 0.61; the person's 0.27."
    )


def test_no_words_without_odds() -> None:
    assert class_odds_text(odds=None, best_odds=None) == ""


@pytest.mark.django_db
def test_the_compare_page_says_the_persons_odds_and_each_decoders(
    client, django_capture_on_commit_callbacks
) -> None:
    # Seed 10 at d = 3, L = 4, p = 0.15: the clustering decoder's class has probability
    # 0.137, the most likely class (the optimal decoder's) 0.718.
    with django_capture_on_commit_callbacks(execute=True):
        game = play_planar(
            PlanarGameFactory.create(seed=10, size=4, modulus=3, error_rate=0.15,
                                     source=Game.Source.WEB),
            decoder="clustering",
        )
    assert game.status == Game.Status.FINISHED
    page = client.get(reverse("results:compare-game", args=[game.pk])).content.decode()
    assert "The most likely class had probability 0.72; the person&#x27;s 0.14." in page
    optimal = DecoderComparison.objects.get(human_game=game, decoder="optimal").bot_game
    assert optimal.class_odds == pytest.approx(0.718, abs=0.001)
    assert "data-odds>0.72</td>" in page
    assert "data-odds>0.14</td>" in page
