"""Writes of sweeps: create, dispatch, run chunks, summarise.

- ``specs``: what each kind of sweep is (a budget sweep of the original game,
  or a threshold sweep of a rule family), one specification per family in
  the registry ``SWEEP_SPECS``;
- ``create``: the one validator and creation path for every family;
- ``run``: dispatching, playing and storing chunks, waiting;
- ``summary``: summarising complete points and estimating the thresholds.
"""

from results.services.sweeps.create import (
    MAX_GAMES_PER_POINT,
    MAX_RECORDED_SHOTS,
    MAX_SEED,
    SweepRequest,
    sweep_create,
    sweep_create_from_spec,
    sweep_validate,
    threshold_sweep_create,
)
from results.services.sweeps.run import (
    Progress,
    sweep_resume,
    sweep_run,
    sweep_run_chunk,
    sweep_start,
    sweep_wait,
)
from results.services.sweeps.specs import (
    DEFAULT_CHUNK_SIZE,
    DEFAULT_MAX_ROUNDS,
    DEFAULT_ONE_SHOT_MAX_ROUNDS,
    DEFAULT_PLANAR_CHUNK_SIZE,
    DEFAULT_SHOT_CHUNK_SIZE,
    DEFAULT_SHOT_MAX_ROUNDS,
    SWEEP_SPECS,
    SweepError,
    SweepSpec,
    family_spec,
    sweep_spec,
)
from results.services.sweeps.summary import (
    BOOTSTRAP_RESAMPLES,
    sweep_fail,
    sweep_finish_points,
    sweep_rate_points,
    threshold_fields,
)

__all__ = [
    "BOOTSTRAP_RESAMPLES",
    "DEFAULT_CHUNK_SIZE",
    "DEFAULT_MAX_ROUNDS",
    "DEFAULT_ONE_SHOT_MAX_ROUNDS",
    "DEFAULT_PLANAR_CHUNK_SIZE",
    "DEFAULT_SHOT_CHUNK_SIZE",
    "DEFAULT_SHOT_MAX_ROUNDS",
    "MAX_GAMES_PER_POINT",
    "MAX_RECORDED_SHOTS",
    "MAX_SEED",
    "SWEEP_SPECS",
    "Progress",
    "SweepError",
    "SweepRequest",
    "SweepSpec",
    "family_spec",
    "sweep_create",
    "sweep_create_from_spec",
    "sweep_fail",
    "sweep_finish_points",
    "sweep_rate_points",
    "sweep_resume",
    "sweep_run",
    "sweep_run_chunk",
    "sweep_spec",
    "sweep_start",
    "sweep_validate",
    "sweep_wait",
    "threshold_fields",
    "threshold_sweep_create",
]
