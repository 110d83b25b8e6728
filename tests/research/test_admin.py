"""The admin: curating games and players without ever changing the research record."""

from __future__ import annotations

import json

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import Group, Permission, User
from django.test import Client

from core.pseudonyms import pseudonym
from games.models import Event, Game
from tests.factories import GameFactory
from tests.research.conftest import body_of, csv_rows

CHANGELIST = "/admin/games/game/"


def change_url(game: Game) -> str:
    return f"/admin/games/game/{game.pk}/change/"


def test_the_game_list_shows_pseudonyms_and_filters(admin_client, lost_game, short_game):
    page = admin_client.get(CHANGELIST)
    assert page.status_code == 200
    text = page.content.decode()
    assert pseudonym(lost_game.player_id) in text
    assert str(lost_game.player_id) not in text
    for name in ("status", "variant", "size", "source", "excluded_from_research", "started_at"):
        assert f"{name}" in text
    filtered = admin_client.get(CHANGELIST, {"size": "5"}).content.decode()
    assert str(short_game.pk) in filtered
    assert str(lost_game.pk) not in filtered
    excluded = admin_client.get(CHANGELIST, {"excluded_from_research__exact": "1"})
    assert str(lost_game.pk) not in excluded.content.decode()


def test_games_are_found_by_id_and_by_player_pseudonym(admin_client, lost_game, db):
    other = GameFactory()
    by_id = admin_client.get(CHANGELIST, {"q": str(lost_game.pk)}).context["cl"]
    assert [game.pk for game in by_id.result_list] == [lost_game.pk]
    by_player = admin_client.get(CHANGELIST, {"q": pseudonym(other.player_id)}).context["cl"]
    assert [game.pk for game in by_player.result_list] == [other.pk]


def test_the_game_page_is_read_only_with_events_and_a_replay(admin_client, lost_game):
    page = admin_client.get(change_url(lost_game))
    assert page.status_code == 200
    text = page.content.decode()
    assert 'name="_save"' not in text  # nothing to edit
    assert lost_game.rules_key in text
    assert "Provenance" in text
    assert page.context["events_page"].paginator.count == Event.objects.filter(
        game=lost_game).count()
    assert len(page.context["event_rows"]) == 50
    replay = json.loads(
        text.split('<script id="replay-data" type="application/json">')[1].split("</script>")[0]
    )
    assert replay["size"] == 7
    assert len(replay["boards"]) == lost_game.moves_count + 1
    assert "research/admin-replay.js" in text
    assert f'<a href="/research/games/{lost_game.pk}/">' in text
    second = admin_client.get(change_url(lost_game), {"events_page": "2"})
    assert second.context["event_rows"][0]["seq"] == 50


def test_records_cannot_be_edited_added_or_deleted(admin_client, lost_game):
    before = Event.objects.count()
    assert admin_client.post(change_url(lost_game), {"score": "0"}).status_code == 403
    assert admin_client.get(f"/admin/games/game/{lost_game.pk}/delete/").status_code == 403
    assert admin_client.get("/admin/games/game/add/").status_code == 403
    assert admin_client.get("/admin/games/event/").status_code == 404
    actions = admin_client.get(CHANGELIST).context["action_form"].fields["action"].choices
    assert "delete_selected" not in [name for name, _ in actions]
    assert Event.objects.count() == before
    assert Game.objects.get(pk=lost_game.pk).score == lost_game.score


def _action(client, action: str, games, **extra):
    data = {"action": action, "_selected_action": [str(game.pk) for game in games], **extra}
    return client.post(CHANGELIST, data)


def test_excluding_asks_for_a_reason_then_excludes_and_logs(admin_client, admin_user, lost_game,
                                                            short_game):
    form = _action(admin_client, "exclude_from_research", [lost_game, short_game])
    assert form.status_code == 200
    assert b'name="reason"' in form.content
    assert not Game.objects.filter(excluded_from_research=True).exists()
    empty = _action(admin_client, "exclude_from_research", [lost_game], apply="1", reason=" ")
    assert empty.status_code == 200
    assert not Game.objects.filter(excluded_from_research=True)
    done = _action(admin_client, "exclude_from_research", [lost_game, short_game], apply="1",
                   reason="played by a tester")
    assert done.status_code == 302
    assert set(Game.objects.filter(excluded_from_research=True).values_list(
        "excluded_reason", flat=True)) == {"played by a tester"}
    entries = LogEntry.objects.filter(action_flag=CHANGE, user=admin_user)
    assert entries.count() == 2
    assert {entry.object_id for entry in entries} == {str(lost_game.pk), str(short_game.pk)}
    assert all("played by a tester" in entry.get_change_message() for entry in entries)


def test_including_again_clears_the_reason_and_logs(admin_client, lost_game):
    Game.objects.filter(pk=lost_game.pk).update(excluded_from_research=True,
                                                excluded_reason="oops")
    response = _action(admin_client, "include_in_research", [lost_game])
    assert response.status_code == 302
    game = Game.objects.get(pk=lost_game.pk)
    assert not game.excluded_from_research
    assert game.excluded_reason == ""
    assert LogEntry.objects.filter(object_id=str(lost_game.pk)).count() == 1


def test_rerunning_the_analysis_stores_one_and_logs(admin_client, lost_game, short_game):
    from results.models import GameAnalysis

    response = _action(admin_client, "rerun_analysis", [lost_game, short_game])
    assert response.status_code == 302
    assert list(GameAnalysis.objects.values_list("game_id", flat=True)) == [lost_game.pk]
    assert LogEntry.objects.filter(object_id=str(lost_game.pk)).count() == 1
    assert not LogEntry.objects.filter(object_id=str(short_game.pk)).exists()


def test_exporting_the_selection_gives_their_rows_even_if_excluded(admin_client, lost_game,
                                                                    short_game):
    Game.objects.filter(pk=short_game.pk).update(excluded_from_research=True,
                                                 excluded_reason="x")
    response = _action(admin_client, "export_csv", [short_game])
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = csv_rows(body_of(response))
    assert [row["game_id"] for row in rows] == [str(short_game.pk)]
    assert rows[0]["excluded_from_research"] == "true"


def test_curating_needs_the_change_permission(lost_game):
    viewer = User.objects.create_user("viewer", password="a-long-test-password", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_game"))
    client = Client()
    client.force_login(viewer)
    form = client.get(CHANGELIST).context["action_form"]  # None: no action left
    names = [name for name, _ in form.fields["action"].choices] if form else []
    # The export may hold unconsented and active games: curators only, as exclusion.
    assert "export_csv" not in names
    assert "exclude_from_research" not in names
    assert "rerun_analysis" not in names


def test_the_player_list_shows_pseudonym_consent_games_and_last_seen(admin_client, lost_game):
    page = admin_client.get("/admin/games/player/")
    text = page.content.decode()
    assert pseudonym(lost_game.player_id) in text
    assert "2026-11-v1" in text
    assert "Last seen at" in text
    result = admin_client.get("/admin/games/player/",
                              {"q": pseudonym(lost_game.player_id)}).context["cl"]
    assert [player.pk for player in result.result_list] == [lost_game.player_id]
    assert result.result_list[0].game_count == 1


@pytest.mark.parametrize("url", ["/admin/auth/group/", "/admin/auth/user/"])
def test_the_researchers_group_is_managed_in_the_admin(admin_client, url):
    assert admin_client.get(url).status_code == 200
    group = Group.objects.get(name="researchers")
    assert admin_client.get(f"/admin/auth/group/{group.pk}/change/").status_code == 200


def test_players_are_found_by_pseudonym_and_by_id(admin_client, lost_game, db):
    other = GameFactory().player
    players = "/admin/games/player/"
    by_pseudonym = admin_client.get(players, {"q": pseudonym(other.pk)}).context["cl"]
    assert [player.pk for player in by_pseudonym.result_list] == [other.pk]
    by_id = admin_client.get(players, {"q": str(lost_game.player_id)}).context["cl"]
    assert [player.pk for player in by_id.result_list] == [lost_game.player_id]
