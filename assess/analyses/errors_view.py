"""What the Errors page shows of numeric predictions, computed once per choice: each model's rows
(`prediction_frame`), and for forecasts the series and horizons to pick from, the rows of one series and horizon, the
error per horizon and per series, and two models' loss differences time point by time point.

The page draws; everything here is a value, frozen, shared by every session holding the same file.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from assess.analyses.forecast_rows import error_by, prediction_frame
from assess.core.data import Task
from assess.inputs.assessment import Assessment
from assess.metrics.reports import compute_breakdowns

#: The error metrics the page charts per cross-validation fold.
FOLD_METRICS = ("mae", "rmse", "median_absolute_error", "r2")


@dataclass(frozen=True)
class ErrorsView:
    """Each model's `prediction_frame` (of one output), and for forecasts the series (in file order) and horizons
    (ascending) of the first model's rows."""

    frames: dict[str, pd.DataFrame]
    series: tuple = ()
    horizons: tuple[int, ...] = ()

    def at(self, series, horizon: int) -> dict[str, pd.DataFrame]:
        """Each model's rows of one series and horizon."""
        return {m: f[(f["series"] == series) & (f["horizon"] == horizon)] for m, f in self.frames.items()}

    def by_horizon(self, series, loss: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """(horizons, error) per model within one series; a model without rows there is left out."""
        values = {m: error_by(f[f["series"] == series], "horizon", loss) for m, f in self.frames.items()}
        return {m: (v.index.to_numpy(), v.to_numpy()) for m, v in values.items() if len(v)}

    def by_series(self, horizon: int, loss: str) -> dict[str, dict]:
        """{series: error} per model at one horizon."""
        return {m: error_by(f[f["horizon"] == horizon], "series", loss).to_dict() for m, f in self.frames.items()}

    def loss_difference(self, model_a: str, model_b: str, series, horizon: int) -> pd.Series:
        """Squared error of ``model_a`` minus that of ``model_b`` at the time points both forecast (the loss
        differential d_t = e_a,t² − e_b,t² of the Diebold–Mariano test), indexed by time."""
        chosen = self.at(series, horizon)
        a, b = (chosen[m].set_index("time")["error"] for m in (model_a, model_b))
        a, b = a.align(b, join="inner")
        return np.square(a) - np.square(b)


def errors_view(assessment: Assessment, models: tuple[str, ...], output: str | None = None) -> ErrorsView:
    """The rows of ``models`` (of ``output`` in a multi-output file) and, for forecasts, what can be picked."""
    frames = {m: prediction_frame(assessment, m, output) for m in models}
    if assessment.task is not Task.FORECAST:
        return ErrorsView(frames)
    first = frames[models[0]]
    return ErrorsView(frames, tuple(dict.fromkeys(first["series"])),
                      tuple(sorted(int(h) for h in first["horizon"].dropna().unique())))


@dataclass(frozen=True)
class SeriesErrors:
    """Each model's MASE per series over all horizons when every series has one, else None and the reason."""

    mase: dict[str, dict] | None
    undefined: str | None


def mase_by_series(assessment: Assessment, models: tuple[str, ...]) -> SeriesErrors:
    """MASE per series (all horizons; each series scaled by its own naive forecast's error, so series compare), or
    None with the first reason a series has none."""
    mase = compute_breakdowns(assessment, models=list(models), keys=["mase"], by=("series",))
    if mase["value"].notna().all():
        return SeriesErrors({m: dict(zip(g["series"], g["value"])) for m, g in mase.groupby("model", sort=False)},
                            None)
    return SeriesErrors(None, next((r for r in mase["reason"] if r), "no scale from the actual values"))
