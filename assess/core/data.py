"""Encoded predictions of one model: the array-level input of every metric, curve, interval and test.

The loading layer (`assess.inputs.assessment`) turns a file into an `Assessment`; `Assessment.predictions(model)` yields one
`Predictions` per model. Everything downstream works on these arrays and never sees column names.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np


#: The series name of a forecast file without a series column (tables and charts show it; sentences leave it out).
ONE_SERIES = "(one series)"


class Task(str, Enum):
    BINARY = "binary"
    MULTICLASS = "multiclass"
    MULTILABEL = "multilabel"
    REGRESSION = "regression"
    FORECAST = "forecast"
    CLUSTERING = "clustering"

    @property
    def is_classification(self) -> bool:
        return self in (Task.BINARY, Task.MULTICLASS, Task.MULTILABEL)

    @property
    def label(self) -> str:
        """The task in words, for sentences and menus ("multi-class classification"); `value` is the key."""
        return TASK_LABELS[self]



TASK_LABELS = {Task.BINARY: "binary classification", Task.MULTICLASS: "multi-class classification",
               Task.MULTILABEL: "multi-label classification", Task.REGRESSION: "regression",
               Task.FORECAST: "time-series forecasting", Task.CLUSTERING: "clustering"}

@dataclass(frozen=True, eq=False)
class Predictions:
    """One model's predictions on n samples, encoded.

    Encoding by task:

    - binary: ``classes == (negative, positive)``; ``y_true``/``y_pred`` int8 0/1 (1 = positive);
      ``scores`` float (n,), higher means more positive.
    - multiclass: ``classes`` the k labels in display order; ``y_true``/``y_pred`` int codes 0..k-1;
      ``scores`` float (n, k) in class order.
    - multilabel: ``classes`` the L label names; ``y_true``/``y_pred`` bool (n, L); ``scores`` float (n, L).
    - regression/forecast: ``classes == ()``; ``y_true``/``y_pred`` float (n,).
    - clustering: ``y_true`` int codes of the reference classes (or None; −1 where a row has none), ``y_pred`` int
      cluster codes, ``classes`` the reference classes, ``clusters`` the cluster names in code order and
      ``features`` the float (n, d) feature columns ``x_*`` of the internal indices (or None).

    ``y_pred`` is None when only scores were given: labels then come from a threshold (binary, multilabel) or the
    argmax (multiclass). ``weight``, ``fold``, ``ids`` and ``group`` are optional per-sample arrays; so is ``repeat``
    (strings), the repeat of repeated cross-validation, whose samples appear once per repeat: (id, repeat) is a row.

    Numeric predictions may carry a prediction interval, ``lower``/``upper`` float (n,), with its nominal
    ``interval_level`` (None when the file does not say), and ``target``, the name of what ``y_true`` measures (its
    column name), for sentences in its units. Forecasts (SPEC "Time-series forecast") may also carry, per sample,
    ``time`` (the time stamp of the forecast target: numbers, ``datetime64`` when every stamp parses as a date, else
    strings — sortable in all three cases), ``series`` (the series id, strings), ``horizon`` (steps ahead, float) and
    ``origin`` (when the forecast was made, as ``time``); None when the file has no such column. The tests between
    forecasters order and group the loss differentials by them (:func:`assess.stats.diebold_mariano_by_horizon`).
    """

    task: Task
    classes: tuple[str, ...]
    y_true: np.ndarray | None
    y_pred: np.ndarray | None = None
    scores: np.ndarray | None = None
    weight: np.ndarray | None = None
    fold: np.ndarray | None = None
    ids: np.ndarray | None = None
    group: np.ndarray | None = None
    model: str = "model"
    time: np.ndarray | None = None
    series: np.ndarray | None = None
    horizon: np.ndarray | None = None
    origin: np.ndarray | None = None
    target: str | None = None
    lower: np.ndarray | None = None
    upper: np.ndarray | None = None
    interval_level: float | None = None
    features: np.ndarray | None = None
    clusters: tuple[str, ...] = ()
    repeat: np.ndarray | None = None

    @property
    def n(self) -> int:
        arr = self.y_true if self.y_true is not None else self.y_pred
        return 0 if arr is None else int(arr.shape[0])
