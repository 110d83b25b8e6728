# The client package (decodoku_client) is generated at run time, so mypy cannot see it.
# mypy: disable-error-code="import-not-found"
"""A client generated from /api/v1/schema/ by openapi-python-client plays a game,
uploads a save file and reads errors through its typed models."""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.test import APIClient

GENERATOR = shutil.which("openapi-python-client") or str(
    Path(sys.executable).with_name("openapi-python-client")
)
SAVE = Path(__file__).resolve().parents[1] / "fixtures" / "legacy-saves" / "PL_normal_205.csv"

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def client_package(tmp_path, monkeypatch):
    if not Path(GENERATOR).exists():
        pytest.skip("openapi-python-client is not installed (requirements-dev.txt)")
    schema = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    (tmp_path / "schema.json").write_text(json.dumps(schema.json()))
    subprocess.run(
        [GENERATOR, "generate", "--path", "schema.json", "--meta", "none",
         "--output-path", "decodoku_client"],
        cwd=tmp_path, check=True, capture_output=True, timeout=300,
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    return importlib.import_module("decodoku_client")


def test_a_generated_client_plays_uploads_and_reads_errors(client_package, live_server):
    from decodoku_client import AuthenticatedClient, Client
    from decodoku_client.api.games import games_create, games_moves_create, games_retrieve
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

    game = games_create.sync(client=client, body=GameCreateRequest())
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
    assert isinstance(games_retrieve.sync(game_id=game.id, client=client), GameState)

    # A stale step: 409 with the error body, typed.
    stale = games_moves_create.sync(game_id=game.id, client=client, body=move.from_dict(
        {"step": 7, "from": list(source), "to": list(target)}
    ))
    assert isinstance(stale, Error)
    assert stale.error.code == "stale_step"
    assert stale.error.current_step == 1

    with SAVE.open("rb") as handle:
        upload = imports_create.sync(
            client=client,
            body=ImportRequest(file=File(payload=handle, file_name=SAVE.name)),
        )
    assert isinstance(upload, ImportResult), upload
    assert upload.game.source.value == "legacy_upload"

    # Not a save file: 4xx with the error body, typed.
    refused = imports_create.sync(
        client=client,
        body=ImportRequest(file=File(payload=b"not,a,save\n", file_name="x.csv")),
    )
    assert isinstance(refused, Error)
    assert refused.error.code
