"""The rows of numeric predictions in the shape their charts need: one tidy frame per model.

Regression rows carry ``y_true`` and ``y_pred``; forecast rows also their time stamp, series and horizon (SPEC
"Time-series forecast", roles ``timestamp``, ``series``, ``horizon``). Time stamps are parsed as dates when they all
parse, else kept as they are (integers, period labels); rows are ordered by series, horizon and time.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from assess.core.data import ONE_SERIES, Task
from assess.inputs.assessment import Assessment

def prediction_frame(assessment: Assessment, model: str, output: str | None = None) -> pd.DataFrame:
    """Columns ``y_true``, ``y_pred``, ``error`` (= y_pred − y_true), ``lower``/``upper`` when the file has a
    prediction interval, and for forecasts ``time``, ``series`` (:data:`ONE_SERIES` when the file has no series
    column) and ``horizon`` (1 when it has none); one row per finite (y_true, y_pred) pair of ``model`` (of
    ``output`` in a multi-output regression file, its first output by default)."""
    if assessment.task not in (Task.REGRESSION, Task.FORECAST):
        raise ValueError(f"prediction_frame() is for numeric predictions; the task is {assessment.task.value}")
    pred = assessment.predictions(model, output=output)
    frame = pd.DataFrame({"y_true": pred.y_true, "y_pred": pred.y_pred})
    if pred.lower is not None and pred.upper is not None:
        frame["lower"], frame["upper"] = pred.lower, pred.upper
    if assessment.task is Task.FORECAST:
        n = len(frame)
        frame["time"] = pred.time if pred.time is not None else np.arange(n)
        frame["series"] = pred.series if pred.series is not None else ONE_SERIES
        frame["horizon"] = pred.horizon if pred.horizon is not None else np.ones(n)
        frame = frame.sort_values(["series", "horizon", "time"], kind="stable")
    frame = frame[np.isfinite(frame["y_true"]) & np.isfinite(frame["y_pred"])]
    return frame.assign(error=frame["y_pred"] - frame["y_true"]).reset_index(drop=True)

#: Losses of one error e = y_pred − y_true, by the name the pages show.
LOSSES = {"MAE": np.abs, "RMSE": np.square}


def error_by(frame: pd.DataFrame, by: str, loss: str = "MAE") -> pd.Series:
    """The mean absolute error (``"MAE"``) or the root mean squared error (``"RMSE"``) of a
    :func:`prediction_frame` per value of ``by`` (``"horizon"`` or ``"series"``), in the order of ``by``'s values.

    RMSE is the root of each group's mean squared error, not a mean of roots."""
    if loss not in LOSSES:
        raise ValueError(f"`loss` must be one of {list(LOSSES)} (got {loss!r})")
    per_group = LOSSES[loss](frame["error"]).groupby(frame[by], sort=True).mean()
    return np.sqrt(per_group) if loss == "RMSE" else per_group
