"""The rows of numeric predictions in the shape their charts need: one tidy frame per model.

Regression rows carry ``y_true`` and ``y_pred``; forecast rows also their time stamp, series and horizon (SPEC
"Time-series forecast", roles ``timestamp``, ``series``, ``horizon``). Time stamps are parsed as dates when they all
parse, else kept as they are (integers, period labels); rows are ordered by series, horizon and time.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from assess.columns import time_values
from assess.data import Task
from assess.schema import Assessment

ALL_SERIES = "(one series)"


def prediction_frame(assessment: Assessment, model: str) -> pd.DataFrame:
    """Columns ``y_true``, ``y_pred``, ``error`` (= y_pred − y_true), and for forecasts ``time``, ``series`` and
    ``horizon`` (1 when the file has no horizon column); one row per finite (y_true, y_pred) pair of ``model``."""
    if assessment.task not in (Task.REGRESSION, Task.FORECAST):
        raise ValueError(f"prediction_frame() is for numeric predictions; the task is {assessment.task.value}")
    pred = assessment.predictions(model)
    frame = pd.DataFrame({"y_true": pred.y_true, "y_pred": pred.y_pred})
    if assessment.task is Task.FORECAST:
        rows = assessment.frame.iloc[assessment.model_rows[model]]
        r = assessment.roles
        frame["time"] = time_values(rows[r.timestamp]).to_numpy() if r.timestamp else np.arange(len(frame))
        frame["series"] = rows[r.series].astype(str).to_numpy() if r.series else ALL_SERIES
        frame["horizon"] = (pd.to_numeric(rows[r.horizon], errors="coerce").to_numpy() if r.horizon
                            else np.ones(len(frame)))
        frame = frame.sort_values(["series", "horizon", "time"], kind="stable")
    frame = frame[np.isfinite(frame["y_true"]) & np.isfinite(frame["y_pred"])]
    return frame.assign(error=frame["y_pred"] - frame["y_true"]).reset_index(drop=True)
