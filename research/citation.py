"""What the "How to use and cite this data" page shows, read from files of the repository.

The citation comes from ``CITATION.cff`` at the repository root, the
pseudonymisation from the "Pseudonyms" section of ``docs/research-data.md``
and the consent wording from the consent templates of the games app, so the
page cannot say something the repository does not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from games.consent import CONSENT_VERSION, consent_template

DATA_LICENCE = "CC BY 4.0"
DATA_LICENCE_URL = "https://creativecommons.org/licenses/by/4.0/"
CONSENT_DIRECTORY = Path("games") / "templates" / "games" / "consent"


def repository_root() -> Path:
    return Path(settings.BASE_DIR)


@dataclass(frozen=True, slots=True)
class Author:
    """One author of ``CITATION.cff``: an entity's ``name``, or a person's names."""

    name: str = ""
    given: str = ""
    family: str = ""

    @property
    def display(self) -> str:
        return self.name or " ".join(part for part in (self.given, self.family) if part)


@dataclass(frozen=True, slots=True)
class Citation:
    title: str
    authors: list[str]
    version: str
    date: str
    licence: str
    url: str
    message: str
    kind: str = ""
    keywords: tuple[str, ...] = ()
    abstract: str = ""
    people: tuple[Author, ...] = ()

    @property
    def text(self) -> str:
        """The reference as one line: authors (year). Title (version). URL."""
        year = self.date[:4]
        line = f"{', '.join(self.authors)} ({year}). {self.title}"
        if self.version:
            line += f" (version {self.version})"
        line += "."
        if self.url:
            line += f" {self.url}"
        return line


def _author(entry: dict[str, Any]) -> Author:
    return Author(
        name=str(entry.get("name") or ""),
        given=str(entry.get("given-names") or ""),
        family=str(entry.get("family-names") or ""),
    )


def read_citation(*, path: Path | None = None) -> Citation:
    """The citation of ``CITATION.cff`` (Citation File Format 1.2.0)."""
    source = path or repository_root() / "CITATION.cff"
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    people = tuple(_author(entry) for entry in data.get("authors", []))
    return Citation(
        title=str(data["title"]),
        authors=[person.display for person in people],
        version=str(data.get("version", "")),
        date=str(data.get("date-released", "")),
        licence=str(data.get("license", "")),
        url=str(data.get("repository-code") or data.get("url") or ""),
        message=str(data.get("message", "")),
        kind=str(data.get("type", "")),
        keywords=tuple(str(word) for word in data.get("keywords", [])),
        abstract=" ".join(str(data.get("abstract", "")).split()),
        people=people,
    )


# BibTeX's special characters and how to write them literally.
_BIBTEX_ESCAPES = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "&": r"\&", "%": r"\%",
    "$": r"\$", "#": r"\#", "_": r"\_", "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def _bibtex_text(text: str) -> str:
    return "".join(_BIBTEX_ESCAPES.get(char, char) for char in text)


def _bibtex_author(author: Author) -> str:
    # An entity's name in braces is one name, never split into given and family names.
    if author.name:
        return "{" + _bibtex_text(author.name) + "}"
    if author.family and author.given:
        return f"{_bibtex_text(author.family)}, {_bibtex_text(author.given)}"
    return _bibtex_text(author.family or author.given)


def citation_key(*, citation: Citation) -> str:
    """A key for reference managers: the title's first word and the year, e.g. decodoku2026."""
    word = re.sub(r"[^a-z0-9]", "", (citation.title.split() or ["data"])[0].lower()) or "data"
    return f"{word}{citation.date[:4]}"


def bibtex(*, citation: Citation) -> str:
    """The citation as a BibTeX entry (``@misc``, which every BibTeX style knows)."""
    fields: list[tuple[str, str]] = [
        ("author", " and ".join(_bibtex_author(author) for author in citation.people)),
        # Double braces keep the title's capitals as written.
        ("title", "{" + _bibtex_text(citation.title) + "}"),
        ("year", citation.date[:4]),
    ]
    if len(citation.date) >= 7:
        fields.append(("month", citation.date[5:7]))
    if citation.version:
        fields.append(("version", _bibtex_text(citation.version)))
    if citation.kind:
        fields.append(("howpublished", _bibtex_text(citation.kind.capitalize())))
    if citation.url:
        fields.append(("url", citation.url))
    if citation.licence:
        fields.append(("note", _bibtex_text(f"Licence: {citation.licence}")))
    if citation.keywords:
        fields.append(("keywords", _bibtex_text(", ".join(citation.keywords))))
    if citation.abstract:
        fields.append(("abstract", _bibtex_text(citation.abstract)))
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields if value)
    return f"@misc{{{citation_key(citation=citation)},\n{body}\n}}\n"


# RIS reference types of the Citation File Format's ``type``.
_RIS_TYPES = {"dataset": "DATA", "software": "COMP"}


def ris(*, citation: Citation) -> str:
    """The citation in the RIS format (tagged lines, CRLF, ending with ``ER``)."""
    lines = [("TY", _RIS_TYPES.get(citation.kind, "GEN"))]
    for author in citation.people:
        if author.name:
            lines.append(("AU", author.name))
        else:
            lines.append(("AU", ", ".join(p for p in (author.family, author.given) if p)))
    lines.append(("TI", citation.title))
    if citation.date:
        lines.append(("PY", citation.date[:4]))
        lines.append(("DA", citation.date.replace("-", "/")))
    if citation.version:
        lines.append(("ET", citation.version))
    lines.extend(("KW", word) for word in citation.keywords)
    if citation.abstract:
        lines.append(("AB", citation.abstract))
    if citation.url:
        lines.append(("UR", citation.url))
    if citation.licence:
        lines.append(("N1", f"Licence: {citation.licence}"))
    lines.append(("ER", ""))
    return "".join(f"{tag}  - {value}".rstrip() + "\r\n" for tag, value in lines)


def _inline(text: str) -> str:
    """Markdown's `code` spans and [links](target) as HTML, everything else escaped."""
    html = str(escape(text))
    html = re.sub(r"`([^`]+)`", r"<code>\1</code>", html)
    return re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", r"\1", html)


def doc_section(*, document: str, heading: str) -> list[SafeString]:
    """The paragraphs of a ``## heading`` section of a file in docs/, as HTML."""
    text = (repository_root() / "docs" / document).read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    if match is None:
        return []
    paragraphs = [" ".join(block.split()) for block in match.group(1).split("\n\n")]
    return [mark_safe(_inline(paragraph)) for paragraph in paragraphs if paragraph]  # noqa: S308


def consent_versions() -> list[dict[str, Any]]:
    """Every consent wording on record, newest first, with its text."""
    directory = repository_root() / CONSENT_DIRECTORY
    versions = sorted((path.stem for path in directory.glob("*.html")), reverse=True)
    return [
        {"version": version, "current": version == CONSENT_VERSION,
         "text": render_to_string(consent_template(version))}
        for version in versions
    ]


def contact() -> str:
    """The address researchers write to (DECODOKU_RESEARCH_CONTACT), or "" when unset."""
    return str(getattr(settings, "DECODOKU_RESEARCH_CONTACT", "") or "")
