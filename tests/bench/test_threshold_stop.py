"""When the threshold benchmark stops: sound two rounds running and the pair crossings still."""

from __future__ import annotations

from bench.threshold import RoundEstimate, settled

PAIRS = ((8, 12), (12, 16), (16, 24))


def estimate(sound: bool, width: float | None, *crossings: float | None) -> RoundEstimate:
    return RoundEstimate(sound=sound, width=width, pairs=dict(zip(PAIRS, crossings, strict=True)))


def test_one_narrow_round_after_wider_ones_does_not_stop_the_run():
    # d = 10 widths 6.1%, 6.5%, 4.8% of p_th against a 5% target: the third round alone is sound.
    rounds = [
        estimate(False, 0.0128, 0.205, 0.208, 0.210),
        estimate(False, 0.0136, 0.206, 0.209, 0.212),
        estimate(True, 0.0101, 0.207, 0.211, 0.214),
    ]
    assert not settled(rounds)


def test_two_sound_rounds_with_pair_crossings_still_drifting_do_not_stop_the_run():
    rounds = [
        estimate(True, 0.010, 0.207, 0.211, 0.214),
        estimate(True, 0.009, 0.207, 0.211, 0.2192),  # L=16,24 moved 0.0052 > 0.0045
    ]
    assert not settled(rounds)


def test_two_sound_rounds_with_still_pair_crossings_stop_the_run():
    rounds = [
        estimate(False, 0.020, 0.190, 0.200, 0.230),
        estimate(True, 0.010, 0.207, 0.211, 0.214),
        estimate(True, 0.009, 0.208, 0.210, 0.2175),  # every move within 0.0045
    ]
    assert settled(rounds)


def test_a_pair_without_a_crossing_has_not_settled():
    rounds = [
        estimate(True, 0.010, 0.207, 0.211, None),
        estimate(True, 0.009, 0.207, 0.211, 0.214),
    ]
    assert not settled(rounds)
    assert not settled(rounds[-1:])
    assert not settled([])
