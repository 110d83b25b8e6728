"""The Decodoku puzzles are found from the puzzles page."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_puzzles_page_links_to_the_decodoku_puzzles():
    # Before: /puzzles/decodoku/ could only be reached by typing its address.
    html = Client().get("/puzzles/").content.decode()
    assert 'href="/puzzles/decodoku/"' in html
    assert Client().get("/puzzles/decodoku/").status_code == 200
