"""A bad filter in the dashboard's address shows the page with the error beside the filter."""

from __future__ import annotations

import re

import pytest
from django.test import Client


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "field", "words"),
    [
        ("size=99", "size", "size must be a whole number"),
        ("variant=z11", "variant", "variant must be one of"),
        ("budget=abc", "budget", "budget must be a positive number"),
        ("source=a%20b", "source", "source must be"),
        ("from=2026-02-30", "from", "from must be a date"),
        ("from=2026-11-05&to=2026-11-01", "to", "from must not be after to"),
    ],
)
def test_a_bad_filter_shows_the_page_with_the_error_beside_it(
    client: Client, query: str, field: str, words: str
) -> None:
    response = client.get(f"/dashboard/?{query}")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "The threshold dashboard" in page
    assert '"error"' not in page.split("<body", 1)[1].split("<script", 1)[0]
    control = re.search(rf'<(?:select|input)[^>]*id="filter-{field}"[^>]*>', page)
    assert control is not None
    assert 'aria-invalid="true"' in control.group(0)
    assert f'aria-describedby="filter-{field}-error"' in control.group(0)
    message = re.search(rf'<p class="field-error" id="filter-{field}-error">([^<]*)</p>', page)
    assert message is not None
    assert words in message.group(1)


@pytest.mark.django_db
def test_good_filters_show_no_error(client: Client) -> None:
    response = client.get("/dashboard/?size=7&variant=z10")
    assert response.status_code == 200
    assert "field-error" not in response.content.decode()


@pytest.mark.django_db
def test_the_data_endpoints_keep_their_json_error_body(client: Client) -> None:
    response = client.get("/dashboard/data/survival/?size=99")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"
    assert "size" in response.json()["error"]["message"]
