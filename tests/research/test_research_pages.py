"""The research page's preview, its date pickers, and the page of one game."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Event, Game
from tests.research.conftest import body_of, csv_rows
from tests.research.test_form_errors import control


def preview_cells(page: str) -> tuple[list[str], list[list[str]]]:
    table = page.split('<table class="research-table">', 1)[1].split("</table>", 1)[0]
    head = re.findall(r'<th scope="col">([^<]*)</th>', table)
    rows = [
        [html.unescape(cell) for cell in re.findall(r"<td>([^<]*)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>", 1)[1], re.S)
    ]
    return head, rows


def test_the_preview_shows_the_count_and_the_first_rows_of_the_download(
    researcher_client: Client, lost_game: Game, short_game: Game
) -> None:
    query = "table=noise_errors&size=7&variant=z10"
    response = researcher_client.get(f"/research/?{query}&preview=1")
    assert response.status_code == 200
    page = response.content.decode()
    export = researcher_client.get("/research/export/noise_errors.csv?size=7&variant=z10")
    download = csv_rows(body_of(export))
    assert len(download) > 10
    assert {row["game_id"] for row in download} == {str(lost_game.pk)}  # the L5 game left out
    count = re.search(r'<p id="preview-count" role="status"><strong>(\d+)</strong>', page)
    assert count is not None
    assert int(count.group(1)) == len(download)
    head, rows = preview_cells(page)
    assert head == list(download[0])
    assert rows == [list(row.values()) for row in download[:10]]
    assert 'href="/research/export/noise_errors.csv?size=7&amp;variant=z10"' in page
    assert 'href="/research/export/noise_errors.parquet?size=7&amp;variant=z10"' in page
    # The wide table scrolls in a focusable region named by its caption.
    assert re.search(r'<div class="table-scroll" role="region" aria-labelledby="preview-caption" '
                     r'tabindex="0">', page)


def test_a_preview_of_nothing_says_so(researcher_client: Client, lost_game: Game) -> None:
    page = researcher_client.get("/research/?table=games&status=abandoned&preview=1")
    assert page.status_code == 200
    text = page.content.decode()
    assert "<strong>0</strong> rows match these filters." in text
    assert '<table class="research-table">' not in text


def test_a_bad_filter_in_a_preview_is_named_beside_the_field(researcher_client: Client) -> None:
    response = researcher_client.get("/research/?table=games&size=2&preview=1")
    assert response.status_code == 400
    page = response.content.decode()
    assert 'aria-invalid="true"' in control(page, "f-size")
    assert 'id="preview-count"' not in page


def test_the_dates_are_date_pickers_and_a_typed_time_is_kept(researcher_client: Client) -> None:
    page = researcher_client.get("/research/").content.decode()
    for name in ("date_from", "date_to"):
        assert 'type="date"' in control(page, f"f-{name}")
    assert 'type="number"' in control(page, "f-size")
    assert 'min="3"' in control(page, "f-size")
    page = researcher_client.get(
        "/research/?table=games&date_from=2026-01-01T10:00&date_to=2026-02-30&preview=1"
    ).content.decode()
    assert 'type="date" value="2026-01-01T10:00"' not in page
    assert 'type="text" value="2026-01-01T10:00"' in control(page, "f-date_from")
    assert 'type="text" value="2026-02-30"' in control(page, "f-date_to")


def test_every_filter_names_the_tables_that_take_it(researcher_client: Client) -> None:
    page = researcher_client.get("/research/").content.decode()
    option = re.search(r'<option value="sweeps" data-filters="([^"]*)"', page)
    assert option is not None
    assert option.group(1).split() == ["date_from", "date_to", "engine_version", "sweep"]


def test_the_page_of_a_game(researcher_client: Client, lost_game: Game) -> None:
    response = researcher_client.get(f"/research/games/{lost_game.pk}/")
    assert response.status_code == 200
    page = response.content.decode()
    save = f"/research/games/{lost_game.pk}/save.txt"
    assert f'<a class="button button-primary" href="{save}" download>' in page
    assert researcher_client.get(save).status_code == 200
    replay = re.search(
        r'<script id="replay-data" type="application/json">(.*?)</script>', page, re.S
    )
    assert replay is not None
    boards = json.loads(replay.group(1))["boards"]
    assert len(boards) == lost_game.moves_count + 1
    events = Event.objects.filter(game=lost_game).count()
    assert f"{events} events" in page
    assert page.count("<tr><td>") == min(events, 50)
    assert lost_game.rules_key in page
    if events > 50:
        assert 'href="?events_page=2#events-title"' in page
        second = researcher_client.get(f"/research/games/{lost_game.pk}/?events_page=2")
        assert second.content.decode().count("<tr><td>") == min(events - 50, 50)


def test_an_unknown_game_is_a_page_saying_so(researcher_client: Client) -> None:
    for game_id in ("not-a-uuid", "00000000-0000-0000-0000-000000000000"):
        response = researcher_client.get(f"/research/games/{game_id}/")
        assert response.status_code == 404
        assert "<h1>No such game</h1>" in response.content.decode()


@pytest.mark.django_db
def test_the_page_of_a_game_is_for_researchers(client: Client, lost_game: Game) -> None:
    response = client.get(f"/research/games/{lost_game.pk}/")
    assert response.status_code == 302
    assert "/research/login/" in response["Location"]
    client.force_login(User.objects.create_user("eve"))
    assert client.get(f"/research/games/{lost_game.pk}/").status_code == 403


def test_every_table_previews_as_many_rows_as_it_downloads(
    researcher_client: Client, lost_game: Game
) -> None:
    from research.exports.tables import all_tables

    for name in all_tables():
        response = researcher_client.get(f"/research/?table={name}&preview=1")
        assert response.status_code == 200, name
        page = response.content.decode()
        count = re.search(r'<p id="preview-count" role="status"><strong>(\d+)</strong>', page)
        assert count is not None, name
        rows = csv_rows(body_of(researcher_client.get(f"/research/export/{name}.csv")))
        assert int(count.group(1)) == len(rows), name
        if rows:
            assert preview_cells(page)[1] == [list(row.values()) for row in rows[:10]], name
