"""The research page's download form: errors beside the field, good requests sent on."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.research.conftest import finish


def control(page: str, name: str) -> str:
    found = re.search(rf'<(?:select|input)[^>]*id="{name}"[^>]*>', page)
    assert found is not None, name
    return found.group(0)


@pytest.mark.parametrize(
    ("query", "field", "words"),
    [
        ("table=games&size=99", "size", "must be between"),
        ("table=games&variant=z11", "variant", "is not one of"),
        ("table=games&date_from=yesterday", "date_from", "is not a date"),
        ("table=games&player=abc", "player", "is not a pseudonym"),
        ("table=games&include_practice=maybe", "include_practice", "is not 1/0"),
        ("table=moves&after_id=x", "after_id", "is not a whole number"),
    ],
)
def test_a_bad_filter_shows_the_page_with_the_error_beside_the_field(
    researcher_client: Client, query: str, field: str, words: str
) -> None:
    response = researcher_client.get(f"/research/?{query}")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "<h1>Research data</h1>" in page
    assert 'aria-invalid="true"' in control(page, f"f-{field}")
    message = re.search(rf'<span class="field-error" id="f-{field}-error">([^<]*)</span>', page)
    assert message is not None
    assert words in message.group(1)


def test_the_page_keeps_what_was_typed(researcher_client: Client) -> None:
    page = researcher_client.get("/research/?table=moves&size=99&variant=z10").content.decode()
    assert 'value="99"' in control(page, "f-size")
    assert '<option value="z10" selected>' in page
    assert re.search(r'<option value="moves"[^>]* selected>', page)


def test_an_unknown_table_is_named_beside_the_table_select(researcher_client: Client) -> None:
    response = researcher_client.get("/research/?table=nope")
    assert response.status_code == 400
    page = response.content.decode()
    assert 'aria-invalid="true"' in control(page, "table")
    assert "There is no export table" in page


def test_a_filter_of_another_table_is_refused_beside_it(researcher_client: Client) -> None:
    response = researcher_client.get("/research/?table=games&sweep=")
    assert response.status_code == 302  # an empty field is no filter
    response = researcher_client.get(
        "/research/?table=games&sweep=00000000-0000-0000-0000-000000000000"
    )
    assert response.status_code == 400
    assert "does not apply to the table games" in response.content.decode()


def test_good_filters_are_sent_on_to_the_export(researcher_client: Client) -> None:
    response = researcher_client.get(
        "/research/?table=moves&size=7&variant=&date_from=2026-01-01&gzip=1"
    )
    assert response.status_code == 302
    assert response["Location"] == "/research/export/moves.csv?size=7&date_from=2026-01-01&gzip=1"


@pytest.mark.parametrize("url", ["/research/", "/research/?table=games"])
def test_the_plain_page_has_no_error(researcher_client: Client, url: str) -> None:
    response = researcher_client.get(url)
    assert response.status_code in (200, 302)
    if response.status_code == 200:
        assert "field-error" not in response.content.decode()


def test_the_export_itself_keeps_the_json_error_body(researcher_client: Client) -> None:
    response = researcher_client.get("/research/export/games.csv?size=99")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid_filter"
    assert error["field"] == "size"


def test_fixed_choices_are_selects_of_the_codebook_values(researcher_client: Client) -> None:
    page = researcher_client.get("/research/").content.decode()
    for name, values in (("variant", ("z10", "phi_lambda", "colors")),
                         ("source", ("web", "api", "legacy_upload", "bot")),
                         ("status", ("lost", "abandoned"))):
        assert control(page, f"f-{name}").startswith("<select")
        for value in values:
            assert f'<option value="{value}">{value}</option>' in page
    # Exports hold finished games only: the form does not offer active games.
    assert '<option value="active">' not in page


def test_the_form_sends_parquet_requests_to_the_parquet_export(
    researcher_client: Client,
) -> None:
    response = researcher_client.get("/research/?table=moves&size=7&format=parquet")
    assert response.status_code == 302
    assert response["Location"] == "/research/export/moves.parquet?size=7"
    response = researcher_client.get("/research/?table=moves&format=parquet&gzip=1")
    assert response.status_code == 400
    assert 'aria-invalid="true"' in control(response.content.decode(), "f-gzip")
    response = researcher_client.get("/research/?table=moves&format=xlsx")
    assert response.status_code == 400
    assert 'aria-invalid="true"' in control(response.content.decode(), "f-format")


def test_a_game_id_leads_to_its_page(researcher_client: Client, short_game) -> None:
    finish(short_game)  # game pages show finished games only
    response = researcher_client.get(f"/research/?game={short_game.pk}")
    assert response.status_code == 302
    assert response["Location"] == f"/research/games/{short_game.pk}/"
    response = researcher_client.get("/research/?game=not-a-game")
    assert response.status_code == 400
    page = response.content.decode()
    assert 'aria-invalid="true"' in control(page, "f-game")
    assert "no game has the id" in page


@pytest.mark.parametrize("name", ["include_excluded", "include_practice"])
def test_a_checkbox_filter_is_explained_as_a_checkbox(researcher_client: Client, name: str) -> None:
    page = researcher_client.get("/research/").content.decode()
    assert 'type="checkbox"' in control(page, f"f-{name}")
    found = re.search(rf'<small id="f-{name}-help">([^<]*)</small>', page)
    assert found is not None
    assert "1 to" not in found.group(1)
    assert found.group(1).startswith("also export ")


def test_the_export_command_explains_its_switches_without_a_value() -> None:
    from django.core.management import load_command_class

    command = load_command_class("research", "export_csv")
    text = command.create_parser("manage.py", "export_csv").format_help()
    assert "1 to include" not in text
    assert "also export practice games" in " ".join(text.split())
