"""The "How to use and cite this data" page, rendered from files of the repository."""

from __future__ import annotations

import html

import yaml
from django.conf import settings
from django.test import Client, override_settings

from games.web.consent import CONSENT_VERSION
from research.citation import read_citation


def test_citation_cff_is_citation_file_format_1_2_0() -> None:
    data = yaml.safe_load((settings.BASE_DIR / "CITATION.cff").read_text(encoding="utf-8"))
    assert data["cff-version"] == "1.2.0"
    for key in ("message", "title", "authors", "license", "version", "date-released"):
        assert data[key], key
    assert data["authors"] == [{"name": "The Decodoku Lab contributors"}]
    assert data["license"] == "CC-BY-4.0"


def test_the_page_renders_the_citation_from_citation_cff(researcher_client: Client) -> None:
    response = researcher_client.get("/research/cite/")
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    data = yaml.safe_load((settings.BASE_DIR / "CITATION.cff").read_text(encoding="utf-8"))
    assert data["title"] in page
    assert data["authors"][0]["name"] in page
    assert str(data["version"]) in page
    assert str(data["date-released"]) in page
    assert read_citation().text in page


def test_the_citation_follows_the_file(tmp_path) -> None:
    path = tmp_path / "CITATION.cff"
    path.write_text(
        "cff-version: 1.2.0\nmessage: Cite us.\ntitle: A title\n"
        "authors:\n  - given-names: Ada\n    family-names: Lovelace\n"
        "version: 3\ndate-released: 2030-01-02\nlicense: CC-BY-4.0\n",
        encoding="utf-8",
    )
    citation = read_citation(path=path)
    assert citation.text == "Ada Lovelace (2030). A title (version 3)."


def test_the_page_states_licence_pseudonyms_and_consent(researcher_client: Client) -> None:
    page = researcher_client.get("/research/cite/").content.decode()
    assert "CC BY 4.0" in page
    assert "HMAC-SHA256" in page  # from docs/research-data.md, section Pseudonyms
    assert f"Version {CONSENT_VERSION} (current)" in page
    assert "random player number" in page  # the consent wording itself


def test_the_contact_is_the_configured_address(researcher_client: Client) -> None:
    with override_settings(DECODOKU_RESEARCH_CONTACT="data@example.org"):
        page = researcher_client.get("/research/cite/").content.decode()
    assert 'href="mailto:data@example.org"' in page
    with override_settings(DECODOKU_RESEARCH_CONTACT=""):
        page = researcher_client.get("/research/cite/").content.decode()
    assert "mailto:" not in page
    assert "no contact address has been set up" not in page
    assert 'href="/research/access/"' in page  # the access request form reaches the admins


def test_the_research_page_links_to_it(researcher_client: Client) -> None:
    assert 'href="/research/cite/"' in researcher_client.get("/research/").content.decode()


def test_it_is_public(client: Client, db: object) -> None:
    # It describes the data and holds none of it (tests/research/test_public_pages.py).
    assert client.get("/research/cite/").status_code == 200
