"""The engine's generator: SplitMix64 and uniform integers by rejection."""

from __future__ import annotations

import pytest

from games.engine import SplitMix64
from games.engine.rng import MASK64

# The published SplitMix64 constants (Steele, Lea and Flood 2014; Vigna's splitmix64.c).
GAMMA = 0x9E3779B97F4A7C15
M1 = 0xBF58476D1CE4E5B9
M2 = 0x94D049BB133111EB


def reference_splitmix64(seed: int, count: int) -> list[int]:
    """An independent transcription of the reference algorithm."""
    out = []
    x = seed
    for _ in range(count):
        x = (x + GAMMA) % 2**64
        z = x
        z = ((z ^ (z >> 30)) * M1) % 2**64
        z = ((z ^ (z >> 27)) * M2) % 2**64
        out.append(z ^ (z >> 31))
    return out


def _unxorshift(y: int, k: int) -> int:
    x = y
    for _ in range(64 // k + 1):
        x = y ^ (x >> k)
    return x


def state_before(output: int) -> int:
    """The generator state whose next output is ``output`` (the mixing is a bijection)."""
    z = _unxorshift(output, 31)
    z = (z * pow(M2, -1, 2**64)) % 2**64
    z = _unxorshift(z, 27)
    z = (z * pow(M1, -1, 2**64)) % 2**64
    z = _unxorshift(z, 30)
    return (z - GAMMA) % 2**64


def rigged(outputs_first: int) -> tuple[SplitMix64, list[int]]:
    """A generator whose next output is ``outputs_first``, and its next outputs."""
    state = state_before(outputs_first)
    outputs = reference_splitmix64(state, 4)
    assert outputs[0] == outputs_first
    return SplitMix64(state), outputs


def steps_taken(rng: SplitMix64, start: int) -> int:
    return ((rng.state - start) * pow(GAMMA, -1, 2**64)) % 2**64


def test_it_produces_the_published_first_outputs_for_seed_1234567() -> None:
    rng = SplitMix64(1234567)
    assert [rng.next64() for _ in range(3)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
    ]


@pytest.mark.parametrize("seed", [0, 1, 1234567, 2**63, MASK64, 0xDEADBEEF])
def test_it_matches_an_independent_implementation(seed: int) -> None:
    rng = SplitMix64(seed)
    assert [rng.next64() for _ in range(200)] == reference_splitmix64(seed, 200)


def test_its_state_can_be_saved_and_restored_mid_stream() -> None:
    rng = SplitMix64(99)
    for _ in range(17):
        rng.next64()
    copy = SplitMix64(rng.state)
    assert [copy.below(1000) for _ in range(50)] == [rng.below(1000) for _ in range(50)]


def test_the_state_wraps_around_64_bits() -> None:
    rng = SplitMix64(MASK64)
    rng.next64()
    assert rng.state == (MASK64 + GAMMA) % 2**64


@pytest.mark.parametrize("seed", [-1, 2**64, 2**70])
def test_it_rejects_seeds_outside_64_bits(seed: int) -> None:
    with pytest.raises(ValueError, match="seed"):
        SplitMix64(seed)


@pytest.mark.parametrize("seed", [True, 1.0, "1", None])
def test_it_rejects_seeds_that_are_not_integers(seed: object) -> None:
    with pytest.raises(TypeError, match="seed"):
        SplitMix64(seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("n", [1, 2, 3, 9, 10, 49, 100, 256, 2**32 + 1])
def test_below_stays_in_range(n: int) -> None:
    rng = SplitMix64(n)
    draws = [rng.below(n) for _ in range(500)]
    assert all(0 <= d < n for d in draws)
    if n > 1:
        assert len(set(draws)) > 1


def test_below_one_is_always_zero() -> None:
    rng = SplitMix64(5)
    assert {rng.below(1) for _ in range(20)} == {0}


def test_the_inverse_used_below_is_right() -> None:
    for output in (0, 1, 12345, MASK64, 6457827717110365317):
        assert reference_splitmix64(state_before(output), 1) == [output]


def test_below_of_a_power_of_two_never_rejects() -> None:
    rng, _ = rigged(MASK64)
    start = rng.state
    assert rng.below(256) == MASK64 % 256
    assert steps_taken(rng, start) == 1


def test_below_rejects_an_output_at_the_largest_multiple_of_n() -> None:
    n = 9
    limit = 2**64 - (2**64 % n)  # the largest multiple of 9 that fits in 64 bits
    assert limit % n == 0
    assert limit + n > 2**64
    rng, outputs = rigged(limit)
    start = rng.state
    assert outputs[1] < limit
    assert rng.below(n) == outputs[1] % n
    assert steps_taken(rng, start) == 2


def test_below_rejects_the_largest_output() -> None:
    n = 10
    rng, outputs = rigged(MASK64)
    start = rng.state
    assert rng.below(n) == outputs[1] % n
    assert steps_taken(rng, start) == 2


def test_below_accepts_the_last_output_under_the_limit() -> None:
    n = 3
    limit = 2**64 - (2**64 % n)
    rng, _ = rigged(limit - 1)
    start = rng.state
    assert rng.below(n) == (limit - 1) % n == n - 1
    assert steps_taken(rng, start) == 1


def test_below_takes_the_remainder_of_an_accepted_output() -> None:
    rng = SplitMix64(1234567)
    assert [rng.below(10) for _ in range(3)] == [
        6457827717110365317 % 10,
        3203168211198807973 % 10,
        9817491932198370423 % 10,
    ]


@pytest.mark.parametrize("with_numpy", [True, False])
def test_block_generation_gives_the_reference_stream_across_many_blocks(
    monkeypatch: pytest.MonkeyPatch, with_numpy: bool
) -> None:
    from games.engine import rng as rng_module

    if not with_numpy:
        monkeypatch.setattr(rng_module, "numpy", None)
    elif vars(rng_module)["numpy"] is None:
        pytest.fail("numpy is a runtime requirement and must be importable")
    seed = MASK64 - 5  # wraps around within the first outputs
    stream = SplitMix64(seed)
    count = 3 * 4096 + 17  # several of the largest blocks and a partial one
    assert [stream.next64() for _ in range(count)] == reference_splitmix64(seed, count)


def test_the_state_read_mid_block_resumes_the_same_stream() -> None:
    stream = SplitMix64(99)
    for drawn in (1, 2, 5, 63, 64, 65, 700, 4096):
        while True:
            state = stream.state
            if steps_taken_from(99, state) >= drawn:
                break
            stream.below(7)
        resumed = SplitMix64(state)
        assert [resumed.next64() for _ in range(50)] == [stream.next64() for _ in range(50)]


def test_setting_the_state_restarts_the_stream_there() -> None:
    stream = SplitMix64(5)
    for _ in range(300):
        stream.next64()
    stream.state = 1234567
    assert stream.state == 1234567
    assert stream.next64() == reference_splitmix64(1234567, 1)[0]


def steps_taken_from(seed: int, state: int) -> int:
    return ((state - seed) * pow(GAMMA, -1, 1 << 64)) & MASK64
