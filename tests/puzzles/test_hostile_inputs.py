"""Hostile input never crashes the engines or the API: a clear refusal, state unchanged."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzles.engines import futoshiki, kenken, latin_play
from puzzles.engines.latin import PuzzleError
from puzzles.models import Action
from puzzles.services import attempt_start

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=30,
)
CELL_LIKE = st.lists(st.integers(-3, 12), min_size=0, max_size=3) | JSON
KENKEN_LIKE = st.fixed_dictionaries(
    {
        "size": st.integers(2, 10) | JSON,
        "cages": st.lists(
            st.fixed_dictionaries(
                {
                    "cells": st.lists(CELL_LIKE, max_size=5),
                    "op": st.sampled_from(["+", "-", "x", "/", "=", "*", "%"]) | JSON,
                    "target": st.integers(-5, 50) | JSON,
                }
            ),
            max_size=20,
        )
        | JSON,
    }
)
FUTOSHIKI_LIKE = st.fixed_dictionaries(
    {
        "size": st.integers(3, 10) | JSON,
        "givens": st.lists(st.lists(st.integers(-2, 10), max_size=4), max_size=6) | JSON,
        "relations": st.lists(
            st.fixed_dictionaries({"a": CELL_LIKE, "b": CELL_LIKE, "op": st.sampled_from("<>=")}),
            max_size=6,
        )
        | JSON,
    }
)


def attempt(function: Callable[[Any], Any], data: Any) -> tuple[Any, str]:
    """What ``function(data)`` gives, or None and the refusal's message."""
    try:
        return function(data), ""
    except PuzzleError as exc:
        return None, str(exc)


@settings(max_examples=300, deadline=None)
@given(KENKEN_LIKE | JSON)
def test_any_json_is_a_kenken_or_a_clear_refusal(data):
    puzzle, refusal = attempt(kenken.from_dict, data)
    assert (puzzle is None) == bool(refusal)
    if puzzle is not None:
        assert puzzle.to_dict()["size"] == data["size"]


@settings(max_examples=300, deadline=None)
@given(FUTOSHIKI_LIKE | JSON)
def test_any_json_is_a_futoshiki_or_a_clear_refusal(data):
    puzzle, refusal = attempt(futoshiki.from_dict, data)
    assert (puzzle is None) == bool(refusal)
    if puzzle is not None:
        assert puzzle.to_dict()["size"] == data["size"]


GAME = futoshiki.generate(size=4, seed=3, difficulty="easy")


@settings(max_examples=300, deadline=None)
@given(
    kind=st.sampled_from([*latin_play.ACTION_KINDS, "jump", ""]) | st.text(max_size=5),
    payload=st.fixed_dictionaries({"cell": CELL_LIKE, "value": st.integers(-2, 9) | JSON}) | JSON,
)
def test_any_action_applies_or_is_refused_without_touching_the_state(kind, payload):
    state = latin_play.empty_state(GAME.puzzle)
    before = repr(state)
    outcome, refusal = attempt(
        lambda p: latin_play.apply_action(GAME.puzzle, GAME.solution, state, kind, p), payload
    )
    assert (outcome is None) == bool(refusal)
    if outcome is not None:
        assert outcome.state is not state
    assert repr(state) == before


@pytest.mark.django_db
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=st.dictionaries(st.sampled_from(["step", "kind", "payload", "x"]), JSON, max_size=4))
def test_hostile_action_requests_get_4xx_and_store_nothing(api, player, body):
    attempt = attempt_start(player=player, kind="kenken", size=4, seed=1)
    response = api.post(f"/api/v1/puzzles/{attempt.pk}/actions/", body, format="json")
    assert response.status_code < 500
    if response.status_code >= 400:
        assert "error" in response.json()
        assert not Action.objects.filter(attempt=attempt).exists()
