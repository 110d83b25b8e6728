"""PostgreSQL: the COPY fast path writes exactly the bytes of the portable path."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from core.pseudonyms import pseudonym
from games.models import Event, Game
from research.exports import writer
from research.exports.filters import filtered_queryset, parse_filters
from research.exports.tables import all_tables
from research.selectors import export_stream
from results.models import Sweep, SweepPoint, SweepThreshold
from results.services import game_analyse
from tests.factories import GameFactory, PlayerFactory, platform_bot_player, play
from tests.research.conftest import body_of, csv_rows, finish

pytestmark = pytest.mark.postgres


@pytest.fixture
def varied_games(consenting_player):
    games = [
        play(GameFactory(player=consenting_player, seed=5)),
        play(GameFactory(player=PlayerFactory(), size=4, variant="phi_lambda", seed=9), moves=8),
        play(GameFactory(player=PlayerFactory(consent_version=None), seed=21), moves=4),
        GameFactory(player=platform_bot_player(), source=Game.Source.BOT, noise_budget=4.5),
    ]
    Game.objects.filter(pk=games[3].pk).update(bot_name="greedy, v2", bot_version='"q"')
    Game.objects.filter(pk=games[1].pk).update(
        excluded_from_research=True, excluded_reason='a "test", with\nbreaks',
        started_at=datetime(2025, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
    )
    Event.objects.filter(kind="move", index=2).update(note='x,y "z"\r\nsecond line ✓')
    Event.objects.filter(kind="move", index=3).update(client_time=datetime(2026, 1, 1, tzinfo=UTC))
    game_analyse(game_id=games[0].pk)
    sweep = Sweep.objects.create(bots=["greedy"], sizes=[5], budgets=[3.0], games_per_point=4,
                                 seed=2**62, engine_version=1, status=Sweep.Status.DONE)
    point = SweepPoint.objects.create(sweep=sweep, bot_name="greedy", bot_version=1, size=5,
                                      noise_budget=0.1, games_target=4, games_done=4,
                                      mean_rounds=1 / 3, mean_ci_low=1e-5, mean_ci_high=1e15)
    SweepThreshold.objects.create(sweep=sweep, bot_name="greedy", note="no crossing, yet")
    SweepThreshold.objects.create(sweep=sweep, bot_name="random", threshold_budget=5.25,
                                  ci_low=4.999999999999999, ci_high=6.0)
    assert point.pk
    finish(*games)  # exports hold finished games only
    return games


def export_rows(client, table: str) -> list[dict[str, str]]:
    return csv_rows(body_of(client.get(f"/research/export/{table}.csv")))


def _both(table_name: str, params: dict[str, str]) -> tuple[bytes, bytes]:
    table = all_tables()[table_name]
    filters = parse_filters(params, table=table)
    queryset = filtered_queryset(table=table, filters=filters)
    portable = b"".join(writer.portable_chunks(table=table, queryset=queryset))
    fast = b"".join(writer.copy_chunks(table=table, queryset=queryset))
    return portable, fast


@pytest.mark.parametrize("table", list(all_tables()))
@pytest.mark.parametrize(
    "params",
    [{}, {"include_excluded": "1", "include_practice": "1"}, {"size": "4",
                                                            "include_excluded": "1"}],
    ids=["default", "everything", "filtered"],
)
def test_copy_and_portable_paths_write_identical_bytes(varied_games, table, params):
    # Each table with the filters of the set that apply to it (sweeps and puzzles take no
    # game filters).
    accepted = all_tables()[table].filter_names
    params = {name: value for name, value in params.items() if name in accepted}
    portable, fast = _both(table, params)
    assert portable == fast
    assert portable.count(b"\n") >= 1


def test_the_copy_path_gives_the_same_pseudonyms_as_python(varied_games):
    portable, fast = _both("players", {"include_practice": "1", "include_excluded": "1"})
    # Every player but the one who refused consent (never exported).
    expected = {pseudonym(game.player_id) for game in varied_games if game is not varied_games[2]}
    assert {row["player"] for row in csv_rows(fast)} == expected
    assert portable == fast


def test_downloads_use_copy_on_postgresql(researcher_client, varied_games, monkeypatch):
    used = []
    original = writer.copy_chunks

    def spy(**kwargs):
        used.append(kwargs["table"].name)
        return original(**kwargs)

    monkeypatch.setattr(writer, "copy_chunks", spy)
    body = body_of(researcher_client.get("/research/export/moves.csv", {"after_id": "0"}))
    assert used == ["moves"]
    assert len(csv_rows(body)) == Event.objects.filter(
        kind="move", game__research_consent=True, game__excluded_from_research=False
    ).count()


def test_a_copy_export_failing_midway_ends_visibly(researcher_client, varied_games, monkeypatch):
    monkeypatch.setattr(writer, "CHUNK_BYTES", 200)
    original = writer._copy_pieces

    def broken(*args):
        for count, piece in enumerate(original(*args)):
            if count == 10:
                raise RuntimeError("connection lost")
            yield piece

    monkeypatch.setattr(writer, "_copy_pieces", broken)
    response = researcher_client.get("/research/export/noise_errors.csv")
    received = []
    with pytest.raises(writer.ExportFailed):
        received.extend(response.streaming_content)  # keeps what came before the failure
    lines = b"".join(received).decode().splitlines()
    assert 2 < len(lines) <= 12
    assert lines[-1].startswith(writer.FAILURE_MARKER)
    assert all(line.count(",") == lines[0].count(",") for line in lines[1:-1])


def test_a_download_abandoned_by_the_client_leaves_the_connection_usable(
    varied_games, monkeypatch
):
    monkeypatch.setattr(writer, "CHUNK_BYTES", 200)
    table = all_tables()["noise_errors"]
    stream = export_stream(table=table, filters=parse_filters({}, table=table))
    assert next(stream).startswith(b"event_id,")
    assert next(stream)
    # What a WSGI server does when the client goes away: close the response's iterator.
    stream.close()
    assert Game.objects.count() == len(varied_games)
    rows = b"".join(export_stream(table=table, filters=parse_filters({}, table=table)))
    assert rows.count(b"\n") > 3
