"""Puzzle IDs: the description as one line, shown during play, and played back from it."""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzles.engines import futoshiki, kenken, puzzle_id
from puzzles.engines.latin import PuzzleError
from puzzles.models import Attempt, Puzzle

FROM_ID = "/api/v1/puzzles/from-id/"
ATTEMPTS = "/api/v1/puzzles/"


def pack(body: Any) -> str:
    raw = zlib.compress(json.dumps(body).encode())
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@pytest.mark.parametrize("module", [kenken, futoshiki])
@pytest.mark.parametrize("size", [4, 6, 9])
def test_an_id_reads_back_as_the_same_puzzle(module: Any, size: int) -> None:
    generated = module.generate(size=size, seed=7)
    text = puzzle_id.encode(generated.puzzle)
    assert text.startswith(f"{module.KIND}:{size}:")
    assert puzzle_id.decode(text) == generated.puzzle.to_dict()
    # The ID is one word of a URL: nothing to escape.
    assert all(ch.isalnum() or ch in ":-_" for ch in text)


@pytest.mark.parametrize("module", [kenken, futoshiki])
def test_an_id_holds_neither_seed_nor_solution(module: Any) -> None:
    generated = module.generate(size=5, seed=11)
    text = puzzle_id.encode(generated.puzzle)
    body = json.loads(zlib.decompress(base64.urlsafe_b64decode(text.split(":")[2] + "==")))
    assert not set(body) & {"seed", "solution", "difficulty", "kind", "size"}
    # The stored description (with its solution) gives the same ID as the puzzle object.
    assert puzzle_id.encode_definition(generated.to_dict()) == text


def test_every_registered_kind_with_a_description_gets_ids_without_code_of_its_own() -> None:
    from puzzles.engines.registry import KINDS

    with_ids = set()
    for name, kind in KINDS.items():
        generated = kind.generate(size=min(kind.default_size, 6), seed=3)
        if not callable(getattr(generated.puzzle, "to_dict", None)):
            with pytest.raises(PuzzleError, match="no IDs"):
                puzzle_id.encode(generated.puzzle)
            continue
        text = puzzle_id.encode(generated.puzzle)
        assert puzzle_id.decode(text) == generated.puzzle.to_dict()
        with_ids.add(name)
    # The Latin-square kinds (variants included); 2mino and Decodoku have no description object.
    assert {"kenken", "futoshiki"} <= with_ids
    assert not with_ids & {"2mino", "decodoku"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("kenken-5-hard-1234", "kind:size:description"),
        ("kenken:4:", "kind:size:description"),
        ("chess:4:eJw", "unknown puzzle kind"),
        ("kenken:4:abc!", "kind:size:description"),
        ("kenken:4:AAAA", "damaged"),
        ("kenken:4:" + pack({"cages": []}), "not a valid kenken"),
        ("kenken:4:" + pack([1, 2]), "not a puzzle description"),
        ("kenken:4:" + pack({"cages": [], "solution": [[1]]}), "may not hold 'solution'"),
        ("futoshiki:99:" + pack({"givens": [], "relations": []}), "size"),
        ("kenken:4:" + "A" * 5000, "at most"),
    ],
)
def test_a_bad_id_is_refused_with_a_clear_message(text: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        puzzle_id.decode(text)


def test_an_id_that_unpacks_into_a_huge_document_is_refused() -> None:
    bomb = base64.urlsafe_b64encode(zlib.compress(b" " * 1_000_000, 9)).decode().rstrip("=")
    with pytest.raises(PuzzleError, match="too large"):
        puzzle_id.decode(f"kenken:4:{bomb}")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-20, 100) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(
    kind=st.sampled_from(["kenken", "futoshiki", "2mino", "decodoku"]),
    size=st.integers(0, 99),
    body=st.dictionaries(
        st.sampled_from(["cages", "givens", "relations", "x"]), json_values, max_size=3
    ),
)
def test_a_hostile_but_well_packed_id_gives_a_puzzle_or_a_puzzle_error(
    kind: str, size: int, body: dict[str, Any]
) -> None:
    try:
        definition = puzzle_id.decode(f"{kind}:{size}:{pack(body)}")
    except PuzzleError:
        return
    assert definition["kind"] == kind


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=60) | st.from_regex(r"[a-z0-9-]{1,12}:[0-9]{1,2}:[A-Za-z0-9_-]{0,40}"))
def test_any_text_gives_a_puzzle_or_a_puzzle_error(text: str) -> None:
    try:
        definition = puzzle_id.decode(text)
    except PuzzleError as error:
        message = str(error)
    else:
        message = ""
        assert definition["kind"] == text.split(":", 1)[0]
    assert message or definition


# -- the API -------------------------------------------------------------------


def test_an_active_attempt_shows_its_id_and_the_id_plays_the_same_puzzle(api) -> None:
    started = api.post(ATTEMPTS, {"kind": "futoshiki", "size": 5, "seed": 3}, format="json")
    assert started.status_code == 201
    attempt = started.json()
    assert attempt["status"] == "active"
    assert "seed" not in attempt
    assert "solution" not in attempt
    text = attempt["puzzle_id"]
    assert text.startswith("futoshiki:5:")
    again = api.post(FROM_ID, {"id": text}, format="json")
    assert again.status_code == 201, again.json()
    body = again.json()
    assert body["puzzle_id"] == text
    assert body["kind"] == "futoshiki"
    assert body["size"] == 5
    stored = Puzzle.objects.get(pk=Attempt.objects.get(pk=body["id"]).puzzle_id)
    original = Puzzle.objects.get(pk=Attempt.objects.get(pk=attempt["id"]).puzzle_id)
    assert stored.solution == original.solution
    # The same ID twice: one stored puzzle.
    third = api.post(FROM_ID, {"id": text}, format="json").json()
    assert Attempt.objects.get(pk=third["id"]).puzzle_id == stored.pk


def test_a_kenken_id_plays_too(api) -> None:
    text = puzzle_id.encode(kenken.generate(size=4, seed=5).puzzle)
    response = api.post(FROM_ID, {"id": text}, format="json")
    assert response.status_code == 201
    assert response.json()["puzzle_id"] == text


@pytest.mark.parametrize(
    ("kind", "size"),
    [
        ("kenken-multiply", 6),
        ("futoshiki-adjacent", 5),
        ("futoshiki-adjacent", 12),
        ("futoshiki", 10),
    ],
)
def test_the_variants_and_the_large_grids_show_an_id_that_plays_the_same_puzzle(
    api, kind: str, size: int
) -> None:
    started = api.post(ATTEMPTS, {"kind": kind, "size": size, "seed": 2}, format="json")
    assert started.status_code == 201, started.json()
    text = started.json()["puzzle_id"]
    assert text.startswith(f"{kind}:{size}:")
    again = api.post(FROM_ID, {"id": text}, format="json")
    assert again.status_code == 201, again.json()
    body = again.json()
    assert (body["kind"], body["size"], body["puzzle_id"]) == (kind, size, text)
    first = Attempt.objects.get(pk=started.json()["id"]).puzzle
    second = Attempt.objects.get(pk=body["id"]).puzzle
    assert second.solution == first.solution
    assert second.definition == first.definition | {"engine_version": second.engine_version}


@pytest.mark.parametrize(
    ("prefix", "body", "named"),
    [
        # A multiplication-only KenKen with a sum in it.
        (
            "kenken-multiply:4:",
            {"cages": [{"cells": [[0, 0], [0, 1]], "op": "+", "target": 3}], "operations": ["x"]},
            "kenken-multiply cages use x only",
        ),
        # A bar between cells that are not neighbours.
        (
            "futoshiki-adjacent:4:",
            {"bars": [{"a": [0, 0], "b": [2, 2]}], "mode": "adjacent"},
            "bar 0",
        ),
        # Larger than the variant is made.
        ("futoshiki-adjacent:17:", {"bars": [], "mode": "adjacent"}, "size"),
        ("kenken-multiply:10:", {"cages": [], "operations": ["x"]}, "size"),
    ],
)
def test_a_variant_id_that_breaks_its_kind_s_rules_gets_a_400(
    api, prefix: str, body: dict[str, Any], named: str
) -> None:
    response = api.post(FROM_ID, {"id": prefix + pack(body)}, format="json")
    assert response.status_code == 400
    assert named in json.dumps(response.json()["error"])
    assert not Attempt.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {"id": "kenken:4:AAAA"},
        {"id": "nonsense"},
        {"id": 12},
        {},
        {"id": "x" * 5000},
        {"id": "futoshiki:4:" + pack({"givens": [], "relations": []})},  # many solutions
        {"id": "kenken:4:" + pack({"cages": [{"cells": [[0, 0]], "op": "=", "target": 99}]})},
    ],
)
def test_a_bad_id_gets_a_400(api, body: dict[str, Any]) -> None:
    response = api.post(FROM_ID, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"]["message"]


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    text=st.text(max_size=80)
    | st.builds(
        lambda kind, size, body: f"{kind}:{size}:{pack(body)}",
        st.sampled_from(["kenken", "futoshiki", "2mino"]),
        st.integers(0, 12),
        st.dictionaries(st.sampled_from(["cages", "givens", "relations"]), json_values, max_size=2),
    )
)
def test_a_hostile_id_never_gets_a_500(api, text: str) -> None:
    response = api.post(FROM_ID, {"id": text}, format="json")
    assert response.status_code in (201, 400), (text, response.content)
