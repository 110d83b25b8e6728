"""Events: plain scalar fields, and a lossless round trip through dicts and JSON."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from games.engine import (
    EVENT_TYPES,
    EngineError,
    Event,
    GroupMerge,
    JumpAhead,
    LogicalOutcome,
    Loss,
    Move,
    NoiseError,
    NoiseRoundEnded,
    NoiseRoundStarted,
    Regenerated,
    event_from_dict,
)

SAMPLES: list[Event] = [
    NoiseRoundStarted(t=5, round=2),
    NoiseError(
        t=5, round=2, index=3, row1=0, col1=4, row2=1, col2=4, a=3, aa=7, case="both_occupied",
        weight=0.1, round_weight=2.3000000000000003, value1_before=2, value2_before=5,
        value1_after=5, value2_after=2, group1_before=4, group2_before=9, group1_after=4,
        group2_after=4,
    ),
    GroupMerge(t=5, round=2, cause="noise", surviving=4, absorbed=9, size=6),
    NoiseRoundEnded(t=5, round=2, errors=11, weight=6.000000000000001, numbers=14),
    Move(
        t=6, round=2, index=6, from_row=3, from_col=3, to_row=3, to_col=4, value=7,
        to_value_before=3, to_value_after=0, from_group=2, to_group_before=5,
        to_group_after=0, annihilated=True,
    ),
    JumpAhead(t=10, round=2, from_t=7, reason="empty_after_move"),
    Regenerated(t=0, round=0, attempt=2, reason="spanning"),
    Loss(t=23, round=5, group=12, axis="left_right", spanning_groups=1),
    LogicalOutcome(t=14, round=1, charge=3, failed=True),
]


def test_the_samples_cover_every_event_type() -> None:
    assert {type(e) for e in SAMPLES} == set(EVENT_TYPES.values())
    assert set(EVENT_TYPES) == {
        "round_start", "noise", "merge", "round_end", "move", "jump", "regenerated", "loss",
        "logical_outcome",
    }


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: e.kind)
def test_every_event_round_trips_through_a_dict(event: Event) -> None:
    data = event.to_dict()
    assert data["kind"] == event.kind
    assert set(data) == {"kind"} | {f.name for f in fields(event)}
    assert event_from_dict(data) == event


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: e.kind)
def test_every_event_round_trips_through_json(event: Event) -> None:
    text = json.dumps(event.to_dict())
    back = event_from_dict(json.loads(text))
    assert back == event
    assert back.to_dict() == event.to_dict()


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: e.kind)
def test_every_field_is_a_scalar(event: Event) -> None:
    for value in event.to_dict().values():
        assert isinstance(value, int | float | str | bool)


def test_events_are_immutable() -> None:
    with pytest.raises(AttributeError):
        SAMPLES[0].t = 7  # type: ignore[attr-defined]


@pytest.mark.parametrize("data", [None, [], "move", 3])
def test_event_from_dict_rejects_what_is_not_an_object(data: object) -> None:
    with pytest.raises(EngineError) as info:
        event_from_dict(data)  # type: ignore[arg-type]
    assert info.value.code == "invalid_event"


@pytest.mark.parametrize("kind", ["teleport", None, 7, ""])
def test_event_from_dict_rejects_an_unknown_kind(kind: object) -> None:
    with pytest.raises(EngineError, match="unknown event kind") as info:
        event_from_dict({"kind": kind, "t": 1, "round": 1})
    assert info.value.code == "invalid_event"


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: e.kind)
def test_event_from_dict_names_a_missing_field(event: Event) -> None:
    data = event.to_dict()
    del data["round"]
    with pytest.raises(EngineError, match="missing round") as info:
        event_from_dict(data)
    assert info.value.code == "invalid_event"


def test_event_from_dict_ignores_nothing_but_the_kind() -> None:
    data = SAMPLES[1].to_dict()
    data["a"] = 4
    assert event_from_dict(data) != SAMPLES[1]
