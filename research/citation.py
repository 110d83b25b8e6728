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

from games.web.consent import CONSENT_VERSION, consent_template

DATA_LICENCE = "CC BY 4.0"
DATA_LICENCE_URL = "https://creativecommons.org/licenses/by/4.0/"
CONSENT_DIRECTORY = Path("games") / "templates" / "games" / "consent"


def repository_root() -> Path:
    return Path(settings.BASE_DIR)


@dataclass(frozen=True, slots=True)
class Citation:
    title: str
    authors: list[str]
    version: str
    date: str
    licence: str
    url: str
    message: str

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


def _author(entry: dict[str, Any]) -> str:
    if entry.get("name"):
        return str(entry["name"])
    return " ".join(str(entry[key]) for key in ("given-names", "family-names") if entry.get(key))


def read_citation(*, path: Path | None = None) -> Citation:
    """The citation of ``CITATION.cff`` (Citation File Format 1.2.0)."""
    source = path or repository_root() / "CITATION.cff"
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    return Citation(
        title=str(data["title"]),
        authors=[_author(entry) for entry in data.get("authors", [])],
        version=str(data.get("version", "")),
        date=str(data.get("date-released", "")),
        licence=str(data.get("license", "")),
        url=str(data.get("repository-code") or data.get("url") or ""),
        message=str(data.get("message", "")),
    )


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
