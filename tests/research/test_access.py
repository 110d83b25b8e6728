"""Who may read research data: staff and the researchers group only.

The codebook and the citation page describe the data and hold none: they are
public (tests/research/test_public_pages.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import PlayerFactory

PAGES = ["/research/"]
DATA = ["/research/export/games.csv", "/research/export/moves.csv"]
PUBLIC = ["/research/codebook/", "/research/cite/", "/research/codebook.json"]


@pytest.mark.parametrize("url", PAGES + DATA)
def test_anonymous_visitors_are_sent_to_the_login_page(client, db, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/research/login/?next=")


def test_a_player_session_is_not_a_research_login(db):
    client = Client()
    assert client.post("/api/v1/players/", {"consent_version": "2026-11-v1"},
                       content_type="application/json").status_code == 201
    response = client.get("/research/export/games.csv")
    assert response.status_code == 302


@pytest.mark.parametrize("url", DATA)
def test_a_signed_in_player_outside_the_group_gets_403_in_the_error_format(db, url):
    user = User.objects.create_user("player-user", password="a-long-test-password")
    PlayerFactory(user=user)
    client = Client()
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "permission_denied"


@pytest.mark.parametrize("url", PAGES)
def test_pages_say_why_access_is_refused(db, url):
    client = Client()
    client.force_login(User.objects.create_user("someone", password="a-long-test-password"))
    response = client.get(url)
    assert response.status_code == 403
    assert b"researchers group" in response.content


@pytest.mark.parametrize("url", PAGES + DATA + PUBLIC)
def test_researchers_may_read_everything(researcher_client, url):
    response = researcher_client.get(url)
    assert response.status_code == 200
    response.close()  # as the server does once sent: an export gives its slot back


@pytest.mark.parametrize("url", PAGES + DATA + PUBLIC)
def test_staff_may_read_everything(staff_user, url):
    client = Client()
    client.force_login(staff_user)
    response = client.get(url)
    assert response.status_code == 200
    response.close()  # as the server does once sent: an export gives its slot back


def test_inactive_researchers_are_refused(researcher, client):
    researcher.is_active = False
    researcher.save()
    client.force_login(researcher)  # a session made before the account was disabled
    assert client.get("/research/export/games.csv").status_code == 302


def test_researchers_log_in_with_a_password_and_land_on_the_research_page(researcher, client):
    page = client.get("/research/login/?next=/research/")
    assert page.status_code == 200
    assert b"Sign in" in page.content
    response = client.post(
        "/research/login/",
        {"username": "ada", "password": "a-long-test-password", "next": "/research/"},
    )
    assert response.status_code == 302
    assert response["Location"] == "/research/"
    index = client.get("/research/")
    assert index.status_code == 200
    assert b"/research/export/noise_errors.csv" in index.content
    assert b"/research/codebook/" in index.content


def test_a_wrong_password_shows_an_error(researcher, client):
    response = client.post("/research/login/", {"username": "ada", "password": "wrong"})
    assert response.status_code == 200
    assert b"did not match" in response.content


def test_the_site_navigation_links_to_the_research_area(client, db):
    assert b'href="/research/"' in client.get("/").content
