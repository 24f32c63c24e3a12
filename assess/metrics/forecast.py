r"""Forecast-specific metrics: MASE, prediction-interval scores, and metrics per horizon and series.

Forecast errors follow the one-step-ahead definitions of reference 003 ("Time Series": e_t(1) = y_t − ŷ_t(t−1),
re_t(1) = 100 e_t(1) / y_t), extended to lead time l by the same text's l-step-ahead error; a file with a
``horizon`` column holds errors of several lead times, which :func:`by_group` separates. (The brief cited reference
002 for these; 002 holds the regression percentage errors MAPE/MSPE/RMSPE, 003 the time-series definitions.)

Time stamps become integer step numbers of their frequency and give the season length by the rules of
:mod:`assess.inputs.timestamps` (monthly → 12, quarterly → 4, weekly → 52, daily → 7, hourly → 24; integers → none unless
given); :func:`time_steps` and :func:`season_length` are re-exported here.

MASE (:func:`mase`)
-------------------
Hyndman & Koehler (2006), *Another look at measures of forecast accuracy*, IJF 22(4); Hyndman & Athanasopoulos,
*Forecasting: Principles and Practice* 3rd ed. (FPP3) §5.8: scaled errors :math:`q_j = e_j / s` with

.. math:: s = \frac{1}{T - m} \sum_{t = m + 1}^{T} |y_t - y_{t - m}|,

the in-sample MAE of the (seasonal, m > 1; plain, m = 1) naive one-step forecast, and MASE = mean |q_j|.

*Which actuals form the "training" series.* An assessment file holds forecasts, not the data the forecaster was
fitted on. The actuals it does hold are the ``y_true`` of every target time; de-duplicated to one value per
(series, time stamp) — rolling origins and several horizons repeat a target time — and put in time order, they are
the observed series over the test period. The scale is computed from that series (pairs of actuals exactly m steps
apart by time stamp; a pair with a missing stamp is skipped, not bridged). It is therefore an *out-of-sample* scale:
it equals H&K's in-sample scale only when the naive forecast's error is as large in the test period as in training.
It needs no data the file lacks and is the same for every model, so models stay comparable. When the training data
are known, pass their scale per series (``scale=``) and the textbook MASE results.

Per series, MASE = mean over the series' rows of |e| / s_series; pooled = mean of |e| / s_series over all rows (H&K's
mean of scaled errors across series), so a series with many rows weighs more. Undefined (NaN, with the reason as an
:class:`~assess.core.warnings.UndefinedMetricWarning`): a series with no two actuals m steps apart (fewer than m + 1
consecutive stamps) or with scale 0 (the actuals do not change over m steps). The pooled value is NaN when any
series is undefined — it would otherwise be an average over a different set of rows than every other metric.

Prediction intervals (:func:`coverage`, :func:`interval_width`, :func:`winkler_score`, :func:`pinball_loss`)
-------------------------------------------------------------------------------------------------------------
The nominal level 1 − α of ``lower``/``upper`` is the ``level`` argument: the file's is
:attr:`assess.core.data.Predictions.interval_level`, read from the column names (``lower_90``) by the one parser,
:func:`assess.inputs.roles.interval_level`, or given by the user when the names do not say it. Quantile columns are
``q_<level>`` (:func:`quantile_columns`: ``q_0.1`` or ``q_10`` both mean τ = 0.1).

Per horizon, per series, pooled (:func:`by_group`, :func:`by_group_ci`)
------------------------------------------------------------------------
Tidy frames (model, series, horizon, metric, value[, low, high]); metrics that are a mean of a per-row loss
(:class:`RowMetric`) are computed for every group by one groupby mean, and their intervals by the studentized block
bootstrap of :func:`assess.intervals.block_bootstrap_mean_ci` (blocks within each series, in time order), so
autocorrelated errors do not shrink the interval.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from typing import Callable, Mapping

import numpy as np
import pandas as pd

from assess.core.errors import shorten
from assess.core.warnings import UndefinedMetricWarning
from assess.inputs.timestamps import FREQUENCY_SEASONS, season_length, time_steps
from assess.metrics._common import check_finite
from assess.core.defaults import DEFAULT_RESAMPLES

__all__ = ["FREQUENCY_SEASONS", "ALL", "time_steps", "season_length", "actuals", "naive_scale", "scaled_errors",
           "MaseResult", "mase", "quantile_columns", "coverage", "interval_width", "winkler_scores",
           "winkler_score", "pinball_losses", "pinball_loss", "RowMetric", "ROW_METRICS", "by_group",
           "by_group_ci"]

#: Label of "all series" in :func:`by_group`'s series column (the horizon column holds <NA> for "all horizons").
ALL = "(all)"


def _check_season(season) -> int:
    if isinstance(season, bool) or not isinstance(season, (int, np.integer)) or season < 1:
        raise ValueError(f"`season` must be an integer >= 1 (got {season!r})")
    return int(season)


def series_index(series, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Integer code per row and the series labels (in order of first appearance); one series when None."""
    if series is None:
        return np.zeros(n, dtype=np.int64), np.array([0], dtype=object)
    codes, labels = pd.factorize(np.asarray(series, dtype=object), use_na_sentinel=False)
    return codes.astype(np.int64), np.asarray(labels, dtype=object)


def distinct_actuals(times, y: np.ndarray, codes: np.ndarray):
    """(codes, steps, y) of the first finite actual per (series, step), sorted by series code then step."""
    steps, _ = time_steps(times)
    idx = np.flatnonzero(np.isfinite(y))
    sel = idx[np.lexsort((idx, steps[idx], codes[idx]))]      # by series, step, then row: the first row wins
    c, st = codes[sel], steps[sel]
    first = np.ones(sel.size, dtype=bool)
    first[1:] = (c[1:] != c[:-1]) | (st[1:] != st[:-1])
    sel = sel[first]
    return codes[sel], steps[sel], y[sel]


def actuals(times, y_true, series=None) -> pd.DataFrame:
    """The observed series in a forecast file: one row per (series, time step) with columns ``series``, ``step``,
    ``y``, sorted by series code and step; the first ``y_true`` of each (series, step) is kept (rolling origins
    repeat target times)."""
    y = np.asarray(y_true, dtype=np.float64)
    codes, labels = series_index(series, y.shape[0])
    c, st, yy = distinct_actuals(times, y, codes)
    return pd.DataFrame({"series": labels[c], "step": st, "y": yy})


def _scale_table(times, y: np.ndarray, codes: np.ndarray, labels: np.ndarray, m: int) -> pd.DataFrame:
    c, st, yy = distinct_actuals(times, y, codes)
    k = labels.shape[0]
    if st.size:
        # One sortable key per (series, step), offset by m so "m steps earlier" never reaches another series.
        span = int(st.max() - st.min()) + 1 + m
        key = c * span + (st - st.min()) + m
        pos = np.minimum(np.searchsorted(key, key - m), key.size - 1)
        found = key[pos] == key - m
        diff = np.abs(yy[found] - yy[pos[found]])
        pairs = np.bincount(c[found], minlength=k)
        sums = np.bincount(c[found], weights=diff, minlength=k)
    else:
        pairs, sums = np.zeros(k, dtype=np.int64), np.zeros(k)
    with np.errstate(invalid="ignore", divide="ignore"):
        scale = np.where(pairs > 0, sums / pairs, np.nan)
    reason = np.where(pairs == 0,
                      f"no two actuals {m} step(s) apart (a series needs at least {m + 1} consecutive time stamps)",
                      np.where(scale == 0, f"the actuals do not change over {m} step(s): the naive forecast is "
                                           "perfect (scale 0)", None))
    return pd.DataFrame({"series": labels, "scale": scale, "pairs": pairs.astype(np.int64), "reason": reason})


def naive_scale(times, y_true, *, series=None, season: int = 1) -> pd.DataFrame:
    r"""MASE scale per series: :math:`s = \mathrm{mean}\,|y_t - y_{t-m}|` over the de-duplicated actuals (module
    notes). Columns ``series``, ``scale``, ``pairs`` (how many (t, t − m) pairs), ``reason`` (None when defined)."""
    m = _check_season(season)
    y = np.asarray(y_true, dtype=np.float64)
    codes, labels = series_index(series, y.shape[0])
    return _scale_table(times, y, codes, labels, m)


def _given_scale_table(scale: Mapping, labels: np.ndarray) -> pd.DataFrame:
    given = np.array([float(scale.get(label, np.nan)) for label in labels])    # a loop over series, not rows
    return pd.DataFrame({"series": labels, "scale": given, "pairs": 0,
                         "reason": np.where(given > 0, None, "the given scale is missing, zero or negative")})


def _row_scale(table: pd.DataFrame, codes: np.ndarray) -> np.ndarray:
    usable = np.where(table["reason"].isna().to_numpy(), table["scale"].to_numpy(dtype=np.float64), np.nan)
    return usable[codes]


def scaled_errors(y_true, y_pred, *, times, series=None, season: int = 1,
                  scale: Mapping | None = None) -> np.ndarray:
    """|e| / s_series per row (NaN where the series' scale is undefined): the terms MASE averages.

    ``scale`` (series → s) replaces the in-file scale, e.g. with the training data's."""
    y = np.asarray(y_true, dtype=np.float64)
    e = np.abs(np.asarray(y_pred, dtype=np.float64) - y)
    codes, labels = series_index(series, y.shape[0])
    table = (_scale_table(times, y, codes, labels, _check_season(season)) if scale is None
             else _given_scale_table(scale, labels))
    return e / _row_scale(table, codes)


@dataclass(frozen=True)
class MaseResult:
    """MASE pooled (``value``) and per series (``per_series``: series, mase, scale, pairs, rows, reason); ``reason``
    says why the pooled value is NaN."""

    value: float
    per_series: pd.DataFrame
    season: int
    reason: str | None = None

    def to_frame(self) -> pd.DataFrame:
        return self.per_series.copy()


def mase(y_true, y_pred, *, times, series=None, season: int = 1, scale: Mapping | None = None) -> MaseResult:
    """Mean absolute scaled error (Hyndman & Koehler 2006; FPP3 §5.8) per series and pooled; ``season=1`` scales by
    the naive forecast, ``season=m`` by the seasonal naive one. See the module notes for the scale, pooling and when
    it is undefined (one :class:`UndefinedMetricWarning` names how many series and the first).

    >>> r = mase([1, 3, 2, 4], [2, 2, 2, 2], times=[1, 2, 3, 4])   # s = (2 + 1 + 2) / 3; mean |e| = 1
    >>> round(r.value, 6)
    0.6
    """
    m = _check_season(season)
    y = np.asarray(y_true, dtype=np.float64)
    p = np.asarray(y_pred, dtype=np.float64)
    if y.shape != p.shape or y.ndim != 1:
        raise ValueError(f"y_true and y_pred must be 1-D of one length (got {y.shape} and {p.shape})")
    check_finite(y, "y_true")
    check_finite(p, "y_pred")
    codes, labels = series_index(series, y.shape[0])
    table = _scale_table(times, y, codes, labels, m) if scale is None else _given_scale_table(scale, labels)
    q = np.abs(p - y) / _row_scale(table, codes)
    rows = np.bincount(codes, minlength=labels.shape[0])
    with np.errstate(invalid="ignore", divide="ignore"):
        table["mase"] = np.bincount(codes, weights=q, minlength=labels.shape[0]) / rows
    table["rows"] = rows.astype(np.int64)
    table = table[["series", "mase", "scale", "pairs", "rows", "reason"]]
    undefined = table[table["reason"].notna()]
    reason = None
    if undefined.shape[0]:
        reason = (f"MASE is undefined for {undefined.shape[0]} series (e.g. {shorten(undefined['series'].iloc[0])}: "
                  f"{undefined['reason'].iloc[0]}), so the pooled value is too")
        warnings.warn(reason, UndefinedMetricWarning, stacklevel=2)
        value = float("nan")
    else:
        value = float(np.mean(q)) if q.size else float("nan")
    return MaseResult(value, table, m, reason)


# ------------------------------------------------------------------------------------------------------------------
# Prediction intervals and quantiles
# ------------------------------------------------------------------------------------------------------------------

_QUANTILE = re.compile(r"^q_?(\d+(?:\.\d+)?)$", re.IGNORECASE)


def quantile_columns(columns) -> dict[float, str]:
    """{τ: column} for columns named ``q_<level>``: ``q_0.1`` and ``q_10`` both mean τ = 0.1, ``q_50`` the median.

    >>> quantile_columns(["y_true", "q_0.1", "q_50", "q_90", "quality"])
    {0.1: 'q_0.1', 0.5: 'q_50', 0.9: 'q_90'}
    """
    out = {}
    for c in columns:
        match = _QUANTILE.match(str(c))
        if match:
            v = float(match.group(1))
            tau = v / 100 if v >= 1 else v
            if 0 < tau < 1:
                out[round(tau, 10)] = c
    return dict(sorted(out.items()))


def _interval_arrays(y_true, lower, upper):
    y = np.asarray(y_true, dtype=np.float64)
    lo = np.asarray(lower, dtype=np.float64)
    hi = np.asarray(upper, dtype=np.float64)
    if not (y.shape == lo.shape == hi.shape) or y.ndim != 1:
        raise ValueError(f"y_true, lower and upper must be 1-D of one length (got {y.shape}, {lo.shape}, {hi.shape})")
    crossed = lo > hi
    if crossed.any():
        i = int(np.flatnonzero(crossed)[0])
        raise ValueError(f"{int(crossed.sum())} interval(s) have lower > upper (row {i + 1}: lower {lo[i]:g}, "
                         f"upper {hi[i]:g})")
    return y, lo, hi


def _mean_or_nan(values: np.ndarray, what: str) -> float:
    if values.size == 0:
        warnings.warn(f"{what} is undefined: no rows", UndefinedMetricWarning, stacklevel=3)
        return float("nan")
    return float(np.mean(values))


def coverage(y_true, lower, upper) -> float:
    """Share of rows with ``lower <= y_true <= upper`` (empirical coverage; compare with the nominal level).

    >>> coverage([1, 5, 3], [0, 0, 3], [2, 4, 4])
    0.6666666666666666
    """
    y, lo, hi = _interval_arrays(y_true, lower, upper)
    return _mean_or_nan((y >= lo) & (y <= hi), "coverage")


def interval_width(lower, upper) -> float:
    """Mean width ``upper − lower`` of the prediction intervals."""
    _, lo, hi = _interval_arrays(np.zeros(np.shape(lower)), lower, upper)
    return _mean_or_nan(hi - lo, "mean interval width")


def winkler_scores(y_true, lower, upper, *, level: float) -> np.ndarray:
    r"""Winkler (1972) interval score per row for a central interval of nominal coverage ``level`` = 1 − α:

    .. math:: W = (u - l) + \tfrac{2}{\alpha}(l - y)[y < l] + \tfrac{2}{\alpha}(y - u)[y > u]

    (FPP3 §5.9; Gneiting & Raftery 2007 eq. 43). Lower is better."""
    if not (isinstance(level, (int, float)) and 0 < level < 1):
        raise ValueError(f"`level` must be in (0, 1) (got {level!r})")
    y, lo, hi = _interval_arrays(y_true, lower, upper)
    alpha = 1.0 - level
    return (hi - lo) + (2.0 / alpha) * (np.maximum(lo - y, 0.0) + np.maximum(y - hi, 0.0))


def winkler_score(y_true, lower, upper, *, level: float) -> float:
    """Mean :func:`winkler_scores`.

    >>> winkler_score([5.0], [1.0], [3.0], level=0.5)   # width 2 + (2 / 0.5)(5 - 3) = 10
    10.0
    """
    return _mean_or_nan(winkler_scores(y_true, lower, upper, level=level), "Winkler score")


def pinball_losses(y_true, y_quantile, *, quantile: float) -> np.ndarray:
    r"""Pinball (quantile) loss per row for the τ = ``quantile`` forecast q:
    :math:`L_\tau(y, q) = \tau (y - q)` if :math:`y \ge q`, else :math:`(1 - \tau)(q - y)` (Koenker & Bassett 1978;
    FPP3 §5.9; scikit-learn's ``mean_pinball_loss``)."""
    if not (isinstance(quantile, (int, float)) and 0 < quantile < 1):
        raise ValueError(f"`quantile` must be in (0, 1) (got {quantile!r})")
    y = np.asarray(y_true, dtype=np.float64)
    q = np.asarray(y_quantile, dtype=np.float64)
    if y.shape != q.shape or y.ndim != 1:
        raise ValueError(f"y_true and y_quantile must be 1-D of one length (got {y.shape} and {q.shape})")
    d = y - q
    return np.where(d >= 0, quantile * d, (quantile - 1.0) * d)


def pinball_loss(y_true, y_quantile, *, quantile: float) -> float:
    """Mean :func:`pinball_losses`.

    >>> pinball_loss([10.0, 0.0], [8.0, 2.0], quantile=0.9)   # (0.9 * 2 + 0.1 * 2) / 2
    1.0
    """
    return _mean_or_nan(pinball_losses(y_true, y_quantile, quantile=quantile), "pinball loss")


# ------------------------------------------------------------------------------------------------------------------
# Per horizon, per series, pooled
# ------------------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RowMetric:
    """A metric that is ``finish(mean(loss(frame)))`` over a group's rows — MAE, MSE, RMSE, coverage, Winkler,
    pinball, MASE (loss = scaled error) — so :func:`by_group` computes every group with one groupby mean."""

    name: str
    loss: Callable[[pd.DataFrame], np.ndarray]
    finish: Callable[[np.ndarray], np.ndarray] | None = None


#: Ready-made row metrics over :func:`assess.analyses.forecast_rows.prediction_frame` columns (``error`` = y_pred − y_true).
ROW_METRICS: dict[str, RowMetric] = {
    "mae": RowMetric("mae", lambda f: np.abs(f["error"].to_numpy(np.float64))),
    "mse": RowMetric("mse", lambda f: f["error"].to_numpy(np.float64) ** 2),
    "rmse": RowMetric("rmse", lambda f: f["error"].to_numpy(np.float64) ** 2, np.sqrt),
    "mean_error": RowMetric("mean_error", lambda f: f["error"].to_numpy(np.float64)),
}

LEVELS = ("pooled", "series", "horizon", "series_horizon")
_KEYS = {"pooled": [], "series": ["series"], "horizon": ["horizon"], "series_horizon": ["series", "horizon"]}


def by_group(frame: pd.DataFrame, metrics: Mapping[str, RowMetric | Callable[[pd.DataFrame], float]], *,
             model: str | None = None, levels=("pooled", "series", "horizon")) -> pd.DataFrame:
    """Metrics per horizon, per series and pooled, as a tidy frame: columns ``model``, ``series``, ``horizon``,
    ``metric``, ``value``.

    ``frame`` has a row per forecast with (at least) ``series`` and ``horizon`` columns and whatever the metrics read
    (e.g. :func:`assess.analyses.forecast_rows.prediction_frame`'s). ``metrics`` maps a name to a :class:`RowMetric` (computed for
    all groups at once by a groupby mean of its per-row loss) or to any function ``f(group_frame) -> float`` (one
    call per group, never per row). ``levels`` from ``("pooled", "series", "horizon", "series_horizon")``: "all
    series" is ``series == ALL`` and "all horizons" a missing (<NA>) ``horizon``.
    """
    unknown = [lv for lv in levels if lv not in LEVELS]
    if unknown:
        raise ValueError(f"`levels` must be from {list(LEVELS)} (got {unknown})")
    missing = [c for c in ("series", "horizon") if c not in frame.columns]
    if missing:
        raise ValueError(f"the frame needs columns {missing}")
    pieces = []
    base = frame.reset_index(drop=True)
    for name, metric in metrics.items():
        if isinstance(metric, RowMetric):
            work = base[["series", "horizon"]].assign(_loss=np.asarray(metric.loss(base), dtype=np.float64),
                                                     _one=0)
        for level in levels:
            keys = _KEYS[level]
            if isinstance(metric, RowMetric):
                values = work.groupby(keys or ["_one"], sort=True)["_loss"].mean()
                if metric.finish is not None:
                    values = pd.Series(metric.finish(values.to_numpy()), index=values.index)
            elif keys:
                values = base.groupby(keys, sort=True).apply(metric, include_groups=False)
            else:
                values = pd.Series([metric(base)], index=pd.Index([0], name="_one"))
            part = values.rename("value").reset_index()
            part = part.drop(columns=[c for c in part.columns if c == "_one"])
            if "series" not in part:
                part["series"] = ALL
            if "horizon" not in part:
                part["horizon"] = pd.NA
            part["metric"] = name
            pieces.append(part)
    out = pd.concat(pieces, ignore_index=True) if pieces else pd.DataFrame(columns=["series", "horizon", "metric",
                                                                                    "value"])
    out["model"] = model
    out["series"] = out["series"].astype(object)
    out["horizon"] = out["horizon"].astype("Int64")
    out["value"] = out["value"].astype(np.float64)
    return out[["model", "series", "horizon", "metric", "value"]]


def by_group_ci(frame: pd.DataFrame, metrics: Mapping[str, RowMetric], *, model: str | None = None,
                levels=("pooled", "series", "horizon"), time: str = "time", confidence_level: float = 0.95,
                n_resamples: int = DEFAULT_RESAMPLES, seed=0, block: float | None = None,
                rule: str = "politis-white") -> pd.DataFrame:
    """:func:`by_group` with a block-bootstrap interval per value: columns ``model``, ``series``, ``horizon``,
    ``metric``, ``value``, ``low``, ``high``.

    Each group's interval is :func:`assess.intervals.block_bootstrap_mean_ci` of the metric's per-row loss, rows in
    ``time`` order with blocks within each series (so a per-horizon group of several series is resampled series by
    series), ``finish`` mapping the bounds (it must be increasing, as ``np.sqrt`` for RMSE is). Every group uses the
    same ``seed``: same data, same intervals. A group whose loss has a NaN (e.g. a series whose MASE scale is
    undefined) gets NaN value and bounds. One bootstrap per group and metric: a loop over groups, none over rows.
    """
    from assess.intervals import block_bootstrap_mean_ci

    not_row = [name for name, m in metrics.items() if not isinstance(m, RowMetric)]
    if not_row:
        raise ValueError(f"intervals need RowMetric entries (a mean of a per-row loss); got others for {not_row}")
    unknown = [lv for lv in levels if lv not in LEVELS]
    if unknown:
        raise ValueError(f"`levels` must be from {list(LEVELS)} (got {unknown})")
    missing = [c for c in ("series", "horizon", time) if c not in frame.columns]
    if missing:
        raise ValueError(f"the frame needs columns {missing}")
    base = frame.reset_index(drop=True)
    series = base["series"].to_numpy()
    times = base[time].to_numpy()
    rows = []
    for name, metric in metrics.items():
        loss = np.asarray(metric.loss(base), dtype=np.float64)
        finish = metric.finish
        for level in levels:
            keys = _KEYS[level]
            groups = base.groupby(keys, sort=True).indices if keys else {(): np.arange(base.shape[0])}
            for key, idx in groups.items():
                key = key if isinstance(key, tuple) else (key,)
                where = dict(zip(keys, key))
                part = loss[idx]
                if part.size and np.isfinite(part).all():
                    res = block_bootstrap_mean_ci(part, series=series[idx], times=times[idx], block=block, rule=rule,
                                                  transform=finish, n_resamples=n_resamples,
                                                  confidence_level=confidence_level, seed=seed)
                    value, low, high = float(res.point[0]), res.interval.low, res.interval.high
                else:
                    value = low = high = float("nan")
                rows.append((model, where.get("series", ALL), where.get("horizon", pd.NA), name, value, low, high))
    out = pd.DataFrame(rows, columns=["model", "series", "horizon", "metric", "value", "low", "high"])
    out["series"] = out["series"].astype(object)
    out["horizon"] = out["horizon"].astype("Int64")
    return out
