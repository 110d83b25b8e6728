"""The citation as BibTeX and RIS downloads, generated from CITATION.cff."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from django.conf import settings
from django.test import Client

from research.citation import bibtex, read_citation, ris


def _cff() -> dict:
    return yaml.safe_load((Path(settings.BASE_DIR) / "CITATION.cff").read_text(encoding="utf-8"))


def _bib_fields(text: str) -> dict[str, str]:
    """The fields of one BibTeX entry, values without their outer braces."""
    return {
        name: value for name, value in re.findall(r"^  (\w+) = \{(.*)\},?$", text, re.MULTILINE)
    }


def _ris_tags(text: str) -> list[tuple[str, str]]:
    assert text.endswith("ER  -\r\n")
    return [(line[:2], line[6:]) for line in text.split("\r\n") if line]


def test_bibtex_download_holds_the_file_fields(client: Client) -> None:
    response = client.get("/research/cite/decodoku-lab.bib")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-bibtex")
    assert 'filename="decodoku-lab.bib"' in response["Content-Disposition"]
    text = response.content.decode()
    data = _cff()
    assert text.startswith(f"@misc{{decodoku{str(data['date-released'])[:4]},\n")
    assert text.rstrip().endswith("}")
    fields = _bib_fields(text)
    assert fields["title"] == "{" + data["title"] + "}"
    assert fields["author"] == "{" + data["authors"][0]["name"] + "}"
    assert fields["year"] == str(data["date-released"])[:4]
    assert fields["month"] == str(data["date-released"])[5:7]
    assert fields["version"] == str(data["version"])
    assert fields["keywords"] == ", ".join(data["keywords"])
    assert fields["abstract"] == " ".join(data["abstract"].split())
    assert data["license"] in fields["note"]


def test_ris_download_holds_the_file_fields(client: Client) -> None:
    response = client.get("/research/cite/decodoku-lab.ris")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-research-info-systems")
    tags = _ris_tags(response.content.decode())
    data = _cff()
    assert tags[0] == ("TY", "DATA")
    assert tags[-1] == ("ER", "")
    values = dict(tags)
    assert values["TI"] == data["title"]
    assert [v for t, v in tags if t == "AU"] == [a["name"] for a in data["authors"]]
    assert values["PY"] == str(data["date-released"])[:4]
    assert values["DA"] == str(data["date-released"]).replace("-", "/")
    assert values["ET"] == str(data["version"])
    assert [v for t, v in tags if t == "KW"] == data["keywords"]


def test_an_unknown_format_is_a_404_in_the_api_error_format(client: Client) -> None:
    response = client.get("/research/cite/decodoku-lab.docx")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_the_cite_page_links_both_downloads(client: Client) -> None:
    page = client.get("/research/cite/").content.decode()
    assert 'href="/research/cite/decodoku-lab.bib"' in page
    assert 'href="/research/cite/decodoku-lab.ris"' in page


def test_people_and_special_characters(tmp_path: Path) -> None:
    path = tmp_path / "CITATION.cff"
    path.write_text(
        "cff-version: 1.2.0\nmessage: Cite us.\ntitle: 50% of Q&A_data\ntype: software\n"
        "authors:\n  - given-names: Ada\n    family-names: Lovelace\n"
        "  - name: R&D Group\n"
        "version: 1.0\ndate-released: 2024-05-06\n",
        encoding="utf-8",
    )
    citation = read_citation(path=path)
    fields = _bib_fields(bibtex(citation=citation))
    assert fields["author"] == r"Lovelace, Ada and {R\&D Group}"
    assert fields["title"] == r"{50\% of Q\&A\_data}"
    tags = _ris_tags(ris(citation=citation))
    assert tags[0] == ("TY", "COMP")
    assert [v for t, v in tags if t == "AU"] == ["Lovelace, Ada", "R&D Group"]
