# The client package (decodoku_client) is generated at run time, so mypy cannot see it.
# mypy: disable-error-code="import-not-found"
"""A client generated from /api/v1/schema/ by openapi-python-client plays a game,
reads its events through the typed model of each kind, uploads a save file,
solves a puzzle step and reads errors through its typed models."""

from __future__ import annotations

import importlib
import json
import subprocess
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from tests.conftest import openapi_generator

GENERATOR = str(openapi_generator())
SAVE = Path(__file__).resolve().parents[1] / "fixtures" / "legacy-saves" / "PL_normal_205.csv"

# How openapi-python-client says that it left part of the schema out of the client.
SKIPPED = ("Unable to process schema", "Cannot parse response", "Unable to parse")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.openapi_client,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def client_package(tmp_path, monkeypatch):
    schema = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    (tmp_path / "schema.json").write_text(json.dumps(schema.json()))
    generated = subprocess.run(
        [GENERATOR, "generate", "--path", "schema.json", "--meta", "none",
         "--output-path", "decodoku_client"],
        cwd=tmp_path, check=True, capture_output=True, text=True, timeout=300,
    )
    # The generator drops what it cannot read (a clash of model names dropped every
    # puzzles model) with a warning, not an error: the schema must give none.
    output = generated.stdout + generated.stderr
    dropped = [line for line in output.splitlines() if line.startswith(SKIPPED)]
    assert not dropped, output
    monkeypatch.syspath_prepend(str(tmp_path))
    return importlib.import_module("decodoku_client")


def test_a_generated_client_plays_uploads_and_reads_errors(client_package, live_server):
    from decodoku_client import AuthenticatedClient, Client
    from decodoku_client.api.games import (
        games_abandon,
        games_create,
        games_moves_create,
        games_retrieve,
    )
    from decodoku_client.api.imports import imports_create
    from decodoku_client.api.players import players_create
    from decodoku_client.models import (
        Error,
        GameCreateRequest,
        GameState,
        ImportRequest,
        ImportResult,
        MoveCreateRequest,
        MoveResult,
        PlayerCreated,
        PlayerCreateRequest,
    )
    from decodoku_client.types import File

    anonymous = Client(base_url=live_server.url)
    created = players_create.sync(client=anonymous, body=PlayerCreateRequest())
    assert isinstance(created, PlayerCreated)
    client = AuthenticatedClient(base_url=live_server.url, token=created.token, prefix="Token")

    # Practice mode: the answer to a move carries its events.
    game = games_create.sync(client=client, body=GameCreateRequest.from_dict({"mode": "practice"}))
    assert isinstance(game, GameState)
    rows = game.board.rows
    size = len(rows)
    source, target = next(
        ((r, c), (r2, c2))
        for r in range(size) for c in range(size) if rows[r][c] != "0"
        for r2, c2 in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c))
        if 0 <= r2 < size and 0 <= c2 < size
    )
    move = MoveCreateRequest.from_dict({"step": 0, "from": list(source), "to": list(target)})
    result = games_moves_create.sync(game_id=game.id, client=client, body=move)
    assert isinstance(result, MoveResult)
    assert result.step == 1
    assert "move" in _typed_kinds(result.events)
    assert isinstance(games_retrieve.sync(game_id=game.id, client=client), GameState)

    # A stale step: 409 with the error body, typed.
    stale = games_moves_create.sync(game_id=game.id, client=client, body=move.from_dict(
        {"step": 7, "from": list(source), "to": list(target)}
    ))
    assert isinstance(stale, Error)
    assert stale.error.code == "stale_step"
    assert stale.error.current_step == 1

    # Once the game has ended it shows every event: each one parsed by its kind's model.
    ended = games_abandon.sync(game_id=game.id, client=client)
    assert isinstance(ended, GameState)
    assert {"round_start", "noise", "round_end", "move"} <= _typed_kinds(ended.events)

    with SAVE.open("rb") as handle:
        upload = imports_create.sync(
            client=client,
            body=ImportRequest(file=File(payload=handle, file_name=SAVE.name)),
        )
    assert isinstance(upload, ImportResult), upload
    assert upload.game.source.value == "legacy_upload"
    # A Phi-Lambda save does not tell the values a move carried: null in its move events.
    assert {"move", "loss"} <= _typed_kinds(upload.game.events)
    moves = [event for event in upload.game.events if event.kind == "move"]
    assert moves
    assert all(move.value is None and move.from_group > 0 for move in moves)

    # Not a save file: 4xx with the error body, typed.
    refused = imports_create.sync(
        client=client,
        body=ImportRequest(file=File(payload=b"not,a,save\n", file_name="x.csv")),
    )
    assert isinstance(refused, Error)
    assert refused.error.code


def _typed_kinds(events) -> set[str]:
    """The kinds of the events, each checked to be parsed by its own kind's model."""
    from decodoku_client import models

    assert events
    for event in events:
        name = "".join(part.capitalize() for part in event.kind.split("_")) + "Event"
        assert type(event) is getattr(models, name), (event, name)
        assert not event.additional_properties, event  # every field is declared
    return {event.kind for event in events}


def test_a_generated_client_plays_a_puzzle(client_package, live_server):
    from decodoku_client import AuthenticatedClient, Client
    from decodoku_client.api.players import players_create
    from decodoku_client.api.puzzles import (
        puzzles_actions_create,
        puzzles_create,
        puzzles_finish,
        puzzles_list,
    )
    from decodoku_client.models import (
        Error,
        PaginatedPuzzleAttemptList,
        PlayerCreateRequest,
        PuzzleActionCreateRequest,
        PuzzleActionResult,
        PuzzleAttempt,
        PuzzleAttemptCreateRequest,
        PuzzleRecordedAction,
    )

    anonymous = Client(base_url=live_server.url)
    created = players_create.sync(client=anonymous, body=PlayerCreateRequest())
    client = AuthenticatedClient(base_url=live_server.url, token=created.token, prefix="Token")

    attempt = puzzles_create.sync(
        client=client, body=PuzzleAttemptCreateRequest.from_dict({"kind": "kenken", "size": 4})
    )
    assert isinstance(attempt, PuzzleAttempt), attempt
    entry = PuzzleActionCreateRequest.from_dict(
        {"step": 0, "kind": "entry", "payload": {"cell": [0, 0], "value": 1}}
    )
    acted = puzzles_actions_create.sync(attempt_id=attempt.id, client=client, body=entry)
    assert isinstance(acted, PuzzleActionResult), acted
    assert isinstance(acted.attempt, PuzzleAttempt)
    assert acted.attempt.step == acted.action.step == 1

    stale = puzzles_actions_create.sync(attempt_id=attempt.id, client=client, body=entry.from_dict(
        {"step": 5, "kind": "entry", "payload": {"cell": [0, 1], "value": 2}}
    ))
    assert isinstance(stale, Error)
    assert stale.error.code == "stale_step"

    finished = puzzles_finish.sync(attempt_id=attempt.id, client=client)
    assert isinstance(finished, PuzzleAttempt)
    assert [type(action) for action in finished.actions] == [PuzzleRecordedAction]
    listed = puzzles_list.sync(client=client)
    assert isinstance(listed, PaginatedPuzzleAttemptList)
    assert [a.id for a in listed.results] == [attempt.id]
