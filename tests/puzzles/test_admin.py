"""The admin's attempt page with its step-through replay, and curation."""

from __future__ import annotations

import json
import re

from puzzles.models import Attempt
from puzzles.services import attempt_act, attempt_start


def test_attempt_page_holds_the_replay_of_every_step(admin_client, player):
    attempt = attempt_start(player=player, kind="futoshiki", size=4, seed=2)
    solution = attempt.puzzle.solution
    empty = [
        (r, c) for r, row in enumerate(attempt.state["entries"]) for c, v in enumerate(row) if not v
    ]
    for r, c in empty[:3]:
        attempt = attempt_act(
            attempt_id=attempt.pk,
            player=player,
            step=attempt.steps,
            kind="entry",
            payload={"cell": [r, c], "value": solution[r][c]},
        ).attempt
    response = admin_client.get(f"/admin/puzzles/attempt/{attempt.pk}/change/")
    assert response.status_code == 200
    html = response.content.decode()
    found = re.search(r'<script id="pz-replay-data" type="application/json">(.*?)</script>', html)
    assert found is not None
    replay = json.loads(found.group(1))
    assert len(replay["grids"]) == 4
    assert [a["step"] for a in replay["actions"]] == [1, 2, 3]
    r, c = empty[2]
    assert replay["grids"][3][r][c] == solution[r][c]
    assert replay["grids"][2][r][c] == 0


def test_curators_exclude_and_include_attempts(admin_client, player):
    attempt = attempt_start(player=player, kind="kenken", size=4, seed=2)
    url = "/admin/puzzles/attempt/"
    admin_client.post(url, {"action": "exclude_from_research", "_selected_action": [attempt.pk]})
    attempt.refresh_from_db()
    assert attempt.excluded_from_research
    admin_client.post(url, {"action": "include_in_research", "_selected_action": [attempt.pk]})
    assert not Attempt.objects.get(pk=attempt.pk).excluded_from_research


def test_puzzle_list_page(admin_client, player):
    attempt_start(player=player, kind="kenken", size=4, seed=2)
    assert admin_client.get("/admin/puzzles/puzzle/").status_code == 200


def test_attempt_page_lists_the_actions_and_folds_the_raw_json(admin_client, player):
    attempt = attempt_start(player=player, kind="futoshiki", size=4, seed=2)
    solution = attempt.puzzle.solution
    r, c = next(
        (r, c) for r, row in enumerate(attempt.state["entries"]) for c, v in enumerate(row) if not v
    )
    attempt = attempt_act(
        attempt_id=attempt.pk,
        player=player,
        step=attempt.steps,
        kind="entry",
        payload={"cell": [r, c], "value": solution[r][c]},
    ).attempt
    html = admin_client.get(f"/admin/puzzles/attempt/{attempt.pk}/change/").content.decode()
    # The actions as a table of one line each, not an inline of JSON fields.
    rows = re.findall(
        r'<tr data-step="(\d+)"><td>\d+</td><td>(\w+)</td><td><code>(.*?)</code>', html
    )
    assert rows == [("1", "entry", f"cell=[{r}, {c}] value={solution[r][c]}")]
    assert 'class="inline-group"' not in html
    # The stored state (with its undo stack) is in a folded section.
    folded = re.search(r"<details>\s*<summary>\s*<h2[^>]*>Stored state.*?</details>", html, re.S)
    assert folded is not None
    assert "&quot;entries&quot;" in folded.group(0)
    assert "&quot;entries&quot;" not in html[: folded.start()]


def test_the_decodoku_bots_answers_are_listed_read_only(admin_client, player):
    from puzzles.models import DecodokuBotAnswer
    from puzzles.services import decodoku_bots_run

    attempt = attempt_start(player=player, kind="decodoku", number=1)
    decodoku_bots_run(puzzle_id=attempt.puzzle_id)
    answers = DecodokuBotAnswer.objects.filter(puzzle_id=attempt.puzzle_id)
    assert answers.count() >= 2
    page = admin_client.get("/admin/puzzles/decodokubotanswer/")
    assert page.status_code == 200
    for answer in answers:
        assert answer.bot in page.content.decode()
    assert admin_client.get("/admin/puzzles/decodokubotanswer/add/").status_code == 403
