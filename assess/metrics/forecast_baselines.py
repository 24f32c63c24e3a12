r"""Baseline forecasts from the actuals in a forecast file — naive, seasonal naive, drift — and skill scores.

A model's errors mean little alone; beside them stand the errors of forecasts anyone could make from the same data
(ISO/IEC TS 4213 5.3.13 in spirit; Hyndman & Athanasopoulos, *Forecasting: Principles and Practice* 3rd ed.
(FPP3) §5.2). For each row (series, target time t, horizon h) with forecast origin o:

- naive: :math:`\hat y = y_o`, the last value observed at the origin;
- seasonal naive: :math:`\hat y = y_{t - m(k + 1)}`, :math:`k = \lfloor (h - 1)/m \rfloor` (FPP3 §5.2), the latest
  value of the same season known at the origin — for h <= m simply the value one season before the target time;
- drift: :math:`\hat y = y_o + h\,(y_o - y_f)/(o - f)`, the naive value plus h times the average change from the
  series' first actual in the file (time f) to the origin (FPP3 §5.2 with y_1 = y_f, T = o).

**The origin.** When the file has an origin column (the time each forecast was made) it is used and h = t − o in
steps; otherwise o = t − horizon steps of the time stamps' regular frequency (one step ahead when there is no horizon
column either).

**The history.** Only the actuals in the file exist: the ``y_true`` of every row, one per (series, time stamp) (see
:func:`assess.metrics.forecast.actuals`). A baseline needs the actuals it reads (y_o, y_f, the seasonal lag) to be
among them; where one is missing — typically the first origin, whose own time is no target, or the first season of
targets for the seasonal naive — the baseline is NaN and counted in ``missing``, never filled in. Every value a
baseline reads lies at or before the origin, so no baseline sees the future it forecasts.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from assess.core.warnings import UndefinedMetricWarning
from assess.metrics.forecast import distinct_actuals, series_index, time_steps

__all__ = ["BASELINES", "BaselineForecasts", "baseline_forecasts", "skill_score"]

BASELINES = ("naive", "seasonal_naive", "drift")


@dataclass(frozen=True)
class BaselineForecasts:
    """Baseline forecasts per input row (``frame``: columns ``naive``, ``seasonal_naive``, ``drift``, row order of
    the input), ``missing`` = how many rows each could not be formed for, the season used and where the origin came
    from (``"origin column"`` or ``"time - horizon"``)."""

    frame: pd.DataFrame
    missing: dict[str, int]
    season: int | None
    origin_from: str

    def to_frame(self) -> pd.DataFrame:
        return self.frame.copy()


def baseline_forecasts(y_true, *, times, horizon=None, origin=None, series=None,
                       season: int | None = None) -> BaselineForecasts:
    """Naive, seasonal-naive and drift forecasts for every row (see the module notes).

    ``times`` the target time stamps; ``horizon`` steps ahead (used when ``origin`` is not given); ``origin`` the
    forecast origins (same kind of stamps as ``times``); ``series`` the series of each row; ``season`` m (None: no
    seasonal-naive column, all its rows missing).

    >>> b = baseline_forecasts([10.0, 12.0, 11.0, 15.0], times=[1, 2, 3, 4], horizon=[1, 1, 1, 1])
    >>> b.frame["naive"].tolist(), b.frame["drift"].tolist()
    ([nan, 10.0, 12.0, 11.0], [nan, nan, 14.0, 11.5])
    """
    y = np.asarray(y_true, dtype=np.float64)
    n = y.shape[0]
    if season is not None and (isinstance(season, bool) or not isinstance(season, (int, np.integer))
                               or season < 1):
        raise ValueError(f"`season` must be an integer >= 1 or None (got {season!r})")
    if origin is not None:
        # One frequency for both columns: step numbers of targets and origins computed together.
        both, _ = time_steps(np.concatenate([np.asarray(times), np.asarray(origin)]))
        t, o = both[:n], both[n:]
        origin_from = "origin column"
    else:
        t, _ = time_steps(times)
        h_in = np.ones(n) if horizon is None else np.asarray(horizon, dtype=np.float64)
        bad = ~np.isfinite(h_in) | (h_in != np.round(h_in)) | (h_in < 1)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"horizons must be whole numbers >= 1 (row {i + 1}: {float(h_in[i])!r})")
        o = t - h_in.astype(np.int64)
        origin_from = "time - horizon"
    h = t - o
    if np.any(h < 1):
        i = int(np.flatnonzero(h < 1)[0])
        raise ValueError(f"a forecast's origin must be before its target time (row {i + 1})")
    codes, _ = series_index(series, n)
    c, st, yy = distinct_actuals(times, y, codes)
    lag = t - season * ((h - 1) // season + 1) if season is not None else t
    low = int(min(st.min(initial=0), o.min(initial=0), lag.min(initial=0)))
    span = int(max(st.max(initial=0), t.max(initial=0))) - low + 1
    keys = c * span + (st - low)            # sorted: actuals are ordered by series code, then step

    def value_at(steps: np.ndarray, valid: np.ndarray | None = None) -> np.ndarray:
        """The actual of each row's series at ``steps`` (NaN where the file has none)."""
        wanted = codes * span + (steps - low)
        pos = np.minimum(np.searchsorted(keys, wanted), max(keys.size - 1, 0))
        hit = (keys[pos] == wanted) if keys.size else np.zeros(n, dtype=bool)
        if valid is not None:
            hit &= valid
        return np.where(hit, yy[pos] if keys.size else np.nan, np.nan)

    at_origin = value_at(o)
    present, first_at = np.unique(c, return_index=True)
    first_step = np.full(int(codes.max(initial=0)) + 1, -1, dtype=np.int64)
    first_step[present] = st[first_at]
    f = first_step[codes]
    at_first = value_at(np.maximum(f, low), f >= 0)
    span_f = (o - f).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        drift = np.where((f >= 0) & (span_f > 0), at_origin + h * (at_origin - at_first) / span_f, np.nan)
    seasonal = np.full(n, np.nan) if season is None else value_at(lag)
    frame = pd.DataFrame({"naive": at_origin, "seasonal_naive": seasonal, "drift": drift})
    missing = {name: int(np.isnan(frame[name].to_numpy()).sum()) for name in BASELINES}
    return BaselineForecasts(frame, missing, None if season is None else int(season), origin_from)


def skill_score(y_true, y_pred, y_baseline) -> float:
    r"""Skill against a baseline: :math:`1 - \mathrm{MSE}/\mathrm{MSE}_\text{baseline}` (FPP3 §5.8 "skill
    scores"), over the rows where the baseline exists (NaN baseline rows are left out for both). 1 is perfect, 0 no
    better than the baseline, negative worse. NaN with an :class:`UndefinedMetricWarning` when no row has a baseline
    or the baseline is perfect (MSE 0).

    >>> skill_score([1.0, 2.0, 3.0], [1.0, 2.0, 4.0], [2.0, 3.0, np.nan])   # 1 - ((0 + 0) / 2) / ((1 + 1) / 2)
    1.0
    """
    y = np.asarray(y_true, dtype=np.float64)
    p = np.asarray(y_pred, dtype=np.float64)
    b = np.asarray(y_baseline, dtype=np.float64)
    if not (y.shape == p.shape == b.shape) or y.ndim != 1:
        raise ValueError(f"y_true, y_pred and y_baseline must be 1-D of one length (got {y.shape}, {p.shape}, "
                         f"{b.shape})")
    keep = np.isfinite(b)
    if not keep.any():
        warnings.warn("skill score is undefined: the baseline could not be formed for any row",
                      UndefinedMetricWarning, stacklevel=2)
        return float("nan")
    mse_base = float(np.mean((b[keep] - y[keep]) ** 2))
    if mse_base == 0:
        warnings.warn("skill score is undefined: the baseline's MSE is 0", UndefinedMetricWarning, stacklevel=2)
        return float("nan")
    return 1.0 - float(np.mean((p[keep] - y[keep]) ** 2)) / mse_base
