"""The codebook and the citation page are public; research access is asked for with a form.

They describe the data and hold none of it, so a visitor without an account
(someone deciding whether to ask for access) reads them; the form that asks
for access reaches the admins (listed in the admin), protected like the
site's other forms. The contact address is a setting, checked at start-up.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings

from core.pseudonyms import pseudonym
from games.models import Event
from research.models import AccessRequest
from tests.hostile.conftest import rates
from tests.research.conftest import finish
from tests.test_settings import last_line, run_python

BASE_DIR = Path(__file__).resolve().parent.parent.parent
PUBLIC = ["/research/codebook/", "/research/codebook.json", "/research/cite/"]
NOTE = "a-players-note-that-is-data"
REQUEST = {
    "name": "Ada Lovelace",
    "email": "ada@example.org",
    "institution": "Analytical Engine Institute",
    "purpose": "How people decode noise compared with the matching decoder.",
}


@pytest.mark.parametrize("url", PUBLIC)
def test_an_anonymous_visitor_reads_them_and_sees_no_data(client, lost_game, url):
    Event.objects.filter(game=lost_game, kind="move").update(note=NOTE)
    finish(lost_game)
    response = client.get(url)
    assert response.status_code == 200
    text = response.content.decode()
    for value in (str(lost_game.pk), pseudonym(lost_game.player_id), NOTE,
                  str(lost_game.player_id)):
        assert value not in text


def test_the_public_pages_link_to_the_access_form(client, db):
    for url in ("/research/codebook/", "/research/cite/", "/research/login/"):
        assert 'href="/research/access/"' in client.get(url).content.decode(), url


def test_the_export_and_research_page_still_need_a_login(client, db):
    assert client.get("/research/").status_code == 302
    assert client.get("/research/export/games.csv").status_code == 302


# -- asking for access -----------------------------------------------------------


def test_the_form_stores_a_request_and_shows_that_it_was_sent(client, db):
    page = client.get("/research/access/")
    assert page.status_code == 200
    assert 'name="institution"' in page.content.decode()
    response = client.post("/research/access/", REQUEST)
    assert response.status_code == 302
    assert response["Location"] == "/research/access/sent/"
    [stored] = AccessRequest.objects.all()
    assert (stored.name, stored.email, stored.institution, stored.purpose) == tuple(
        REQUEST.values()
    )
    assert stored.status == AccessRequest.Status.NEW
    sent = client.get("/research/access/sent/")
    assert sent.status_code == 200
    assert "Request sent" in sent.content.decode()


@pytest.mark.parametrize(
    "change",
    [{"email": "not-an-address"}, {"name": ""}, {"purpose": ""},
     {"institution": "x" * 201}, {"name": "Ada\x00"}, {"institution": "Bad\x1binstitute"}],
)
def test_a_bad_request_shows_the_form_again_and_stores_nothing(client, db, change):
    response = client.post("/research/access/", {**REQUEST, **change})
    assert response.status_code == 400
    assert 'class="research-error"' in response.content.decode()
    assert not AccessRequest.objects.exists()


def test_a_bot_filling_the_hidden_field_is_answered_but_not_stored(client, db):
    response = client.post("/research/access/", {**REQUEST, "website": "http://spam.example"})
    assert response.status_code == 302
    assert not AccessRequest.objects.exists()


def test_the_form_needs_the_csrf_token(db):
    client = Client(enforce_csrf_checks=True)
    assert client.post("/research/access/", REQUEST).status_code == 403
    assert not AccessRequest.objects.exists()


def test_requests_are_limited_per_address(client, db):
    with rates(access_request="2/hour"):
        for _ in range(2):
            assert client.post("/research/access/", REQUEST).status_code == 302
        refused = client.post("/research/access/", REQUEST)
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert AccessRequest.objects.count() == 2


def test_requests_are_listed_in_the_admin(admin_client, db):
    AccessRequest.objects.create(**REQUEST)
    page = admin_client.get("/admin/research/accessrequest/")
    assert page.status_code == 200
    assert "Analytical Engine Institute" in page.content.decode()
    [request] = AccessRequest.objects.all()
    change = admin_client.get(f"/admin/research/accessrequest/{request.pk}/change/")
    assert change.status_code == 200
    assert admin_client.get("/admin/research/accessrequest/add/").status_code == 403


def test_researchers_who_are_not_staff_do_not_see_requests(researcher_client, db):
    AccessRequest.objects.create(**REQUEST)
    response = researcher_client.get("/admin/research/accessrequest/")
    assert response.status_code == 302  # to the admin's login
    assert "Analytical" not in response.content.decode()


def test_a_signed_in_user_outside_the_group_is_pointed_to_the_form(db):
    client = Client()
    client.force_login(User.objects.create_user("someone", password="a-long-test-password"))
    page = client.get("/research/")
    assert page.status_code == 403
    assert 'href="/research/access/"' in page.content.decode()


# -- the contact address -----------------------------------------------------------


def test_the_citation_page_shows_the_configured_contact(client, db):
    with override_settings(DECODOKU_RESEARCH_CONTACT="data@example.org"):
        page = client.get("/research/cite/").content.decode()
    assert 'href="mailto:data@example.org"' in page
    assert "no contact address has been set up" not in page


def test_a_malformed_contact_address_stops_the_start_up():
    result = run_python(
        "import django; django.setup()", DECODOKU_RESEARCH_CONTACT="not an address"
    )
    assert result.returncode != 0
    assert "DECODOKU_RESEARCH_CONTACT" in last_line(result.stderr)


def test_a_well_formed_contact_address_is_read():
    result = run_python(
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.DECODOKU_RESEARCH_CONTACT)",
        DECODOKU_RESEARCH_CONTACT="data@example.org",
    )
    assert result.returncode == 0, result.stderr
    assert last_line(result.stdout) == "data@example.org"


def test_the_contact_setting_is_in_the_example_environment_and_compose():
    assert "DECODOKU_RESEARCH_CONTACT=" in (BASE_DIR / ".env.example").read_text()
    compose = (BASE_DIR / "docker-compose.yml").read_text()
    assert "DECODOKU_RESEARCH_CONTACT: ${DECODOKU_RESEARCH_CONTACT:-}" in compose
