r"""The forecast state and the forecast-only registry formulas: MASE, interval coverage, width and Winkler score.

A forecast's shared state is the regression state of its rows (:class:`~assess.metrics.regression.RegressionState`:
the 13 SPEC regression metrics on the errors e = ŷ − y, pooled over every row) plus weighted sums of

- the scaled errors :math:`q_i = |e_i| / s_{\text{series}(i)}` of :func:`assess.metrics.forecast.scaled_errors`
  against the naive one-step forecast (``sum_scaled``; m = 1) and the seasonal naive one (``sum_scaled_seasonal``;
  m = the season length detected from the time stamps, :func:`assess.inputs.timestamps.season_length`, or given). The
  scale comes from the actuals of the whole file per series (reference: Hyndman & Koehler 2006; FPP3 §5.8; see
  :mod:`assess.metrics.forecast`), so it is the same for every model and for every subset of rows
  (:class:`ForecastContext`: :func:`assess.metrics.breakdown.breakdown` passes the file's in);
- the interval rows when the file has ``lower``/``upper``: inside or not (``sum_covered``), width
  (``sum_width``) and the Winkler score at the nominal level (``sum_winkler``; FPP3 §5.9);
- the squared errors of the model and of the naive, seasonal naive and drift forecasts
  (:mod:`assess.metrics.forecast_baselines`) over the rows where each baseline exists (``skill_sums``), for the
  skill scores 1 − MSE/MSE_baseline (FPP3 §5.8).

Every one of these is a weighted mean of a per-row value, so its formula runs unchanged on a point state, on a batch
state of resampled sums, and on a *row state* whose "sums" are the per-row values themselves (weight 1): that is how
:func:`row_values` obtains the per-row losses the studentized block bootstrap averages, from the registry formula and
no second table of losses.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field, fields, replace
from typing import Mapping

import numpy as np
import pandas as pd

from assess.core.data import Predictions
from assess.inputs.timestamps import season_length
from assess.metrics import forecast, regression
from assess.metrics._common import note_undefined
from assess.metrics.forecast_baselines import BASELINES, baseline_forecasts

__all__ = ["ForecastState", "FORECAST_PARTS", "MEAN_FIELDS", "forecast_columns", "forecast_state",
           "row_state",
           "ForecastContext", "forecast_context", "coded_series", "subset", "batch_state", "mase", "mase_seasonal", "coverage", "interval_width",
           "winkler_score", "pinball_loss", "skill_naive", "skill_seasonal_naive", "skill_drift"]

#: Parts of the forecast state beyond the regression ones (``MetricSpec.shared``).
FORECAST_PARTS = ("scaled", "scaled_seasonal", "interval", "winkler", "skill")

#: The per-row columns whose weighted sums the state holds, by the state field they sum into.
MEAN_FIELDS = ("sum_error", "sum_abs", "sum_sq", "sum_abs_rel", "sum_sq_rel", "sum_smape", "sum_scaled",
               "sum_scaled_seasonal", "sum_covered", "sum_width", "sum_winkler", "sum_pinball")


@dataclass(frozen=True, eq=False)
class ForecastState(regression.RegressionState):
    """The regression state plus the forecast sums (module notes); ``*_reason`` says why a part is undefined."""

    sum_scaled: object = None
    sum_scaled_seasonal: object = None
    scaled_reason: str | None = None
    scaled_seasonal_reason: str | None = None
    season: int | None = None
    sum_covered: object = None
    sum_width: object = None
    sum_winkler: object = None
    sum_pinball: object = None
    interval_level: float | None = None
    interval_reason: str | None = None
    skill_sums: dict | None = None      # sum_sq_on_<baseline> (model), sum_sq_<baseline> (baseline), where it exists
    skill_reasons: dict | None = None


@dataclass(frozen=True, eq=False)
class ForecastContext:
    """What a forecast metric reads from the whole file rather than from the rows it scores: the MASE scales
    ``{m: {series: scale}}`` and the naive / seasonal naive / drift forecasts per row (``reference``, columns of
    :data:`~assess.metrics.forecast_baselines.BASELINES`, NaN where one cannot be formed). :meth:`subset` keeps both
    for a group of rows, so a horizon's or a series' metrics use the file's scale and baselines."""

    scales: dict
    reference: pd.DataFrame | None
    season: int | None
    reference_reason: str | None = None
    labels: np.ndarray | None = None    # series name of each code of a coded Predictions (coded_series)
    scale_reasons: dict = field(default_factory=dict)   # {m: {series: why its scale is undefined}}

    def subset(self, rows: np.ndarray) -> "ForecastContext":
        ref = None if self.reference is None else self.reference.iloc[rows].reset_index(drop=True)
        return ForecastContext(self.scales, ref, self.season, self.reference_reason, self.labels,
                               self.scale_reasons)

    def series_name(self, code) -> str:
        return str(code if self.labels is None else self.labels[int(code)])


def coded_series(pred: Predictions) -> tuple[Predictions, np.ndarray | None]:
    """``pred`` with its series as integer codes and the names of the codes (None when already integer or absent):
    the scales, baselines and groupings factorize the series once instead of once per use."""
    if pred.series is None or np.asarray(pred.series).dtype.kind in "iu":
        return pred, None
    codes, labels = pd.factorize(np.asarray(pred.series, dtype=object), use_na_sentinel=False)
    return replace(pred, series=codes.astype(np.int64)), np.asarray(labels, dtype=object)


def forecast_context(pred: Predictions, season: int | None = None, labels: np.ndarray | None = None
                     ) -> ForecastContext:
    """The :class:`ForecastContext` of ``pred``'s own rows (its actuals are "the file"); ``labels`` the series
    names when ``pred`` is coded (:func:`coded_series`)."""
    m = _season(pred, season)
    scales: dict = {}
    reasons: dict = {}
    reference, why = None, None
    if pred.time is None:
        why = "the file has no time stamps, so no naive, seasonal naive or drift forecast"
        return ForecastContext(scales, None, m, why, labels)
    for s in {1, m} - {None}:
        table = forecast.naive_scale(pred.time, pred.y_true, series=pred.series, season=s)
        scales[s] = dict(zip(table["series"], np.where(table["reason"].isna(), table["scale"], np.nan)))
        reasons[s] = {k: r for k, r in zip(table["series"], table["reason"]) if r}
    try:
        reference = baseline_forecasts(pred.y_true, times=pred.time, horizon=pred.horizon, origin=pred.origin,
                                       series=pred.series, season=m).frame
    except ValueError as exc:            # e.g. an origin after its target: the input checks name the rows
        why = f"the baseline forecasts cannot be formed: {exc}"
    return ForecastContext(scales, reference, m, why, labels, reasons)


def subset(pred: Predictions, rows: np.ndarray) -> Predictions:
    """``pred`` restricted to ``rows`` (positions): every per-row array is indexed (scores included, so a slice or
    a fold of a classifier keeps its scores)."""
    return replace(pred, **{f: np.asarray(getattr(pred, f))[rows] for f in _ROW_FIELDS
                            if getattr(pred, f) is not None})


_ROW_FIELDS = ("y_true", "y_pred", "scores", "weight", "fold", "repeat", "ids", "group", "time", "series", "horizon",
               "origin", "lower", "upper")


def _season(pred: Predictions, season: int | None) -> int | None:
    if season is not None:
        return season_length(None, given=season)
    if pred.time is None:
        return None
    try:
        return season_length(pred.time)
    except ValueError:      # irregular stamps: no season (the input checks report them)
        return None


def _scaled(pred: Predictions, e_abs: np.ndarray, m: int, context: ForecastContext | None):
    """|e| / s per row and the reason when some series' scale is undefined; the context's scales (the file's) when
    given, else from ``pred``'s own actuals."""
    scales = None if context is None else context.scales
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        q = forecast.scaled_errors(pred.y_true, pred.y_pred, times=pred.time, series=pred.series, season=m,
                                   scale=None if scales is None else scales.get(m, {}))
    bad = ~np.isfinite(q)
    if not bad.any():
        return q, None
    code = 0 if pred.series is None else np.asarray(pred.series)[bad][0]
    if context is not None:
        why = context.scale_reasons.get(m, {}).get(code)
    else:
        table = forecast.naive_scale(pred.time, pred.y_true, series=pred.series, season=m)
        why = dict(zip(table["series"], table["reason"])).get(code)
    detail = f": {why}" if why else ""
    first = "" if pred.series is None else \
        f" (e.g. series {code if context is None else context.series_name(code)})"
    return q, (f"the {'seasonal ' if m > 1 else ''}naive scale (m = {m}) is undefined for the series of "
               f"{int(bad.sum()):,} row(s){first}{detail}")


def forecast_columns(pred: Predictions, parts, *, season: int | None = None, level: float | None = None,
                     context: ForecastContext | None = None) -> tuple[dict[str, np.ndarray], dict]:
    """Per-row values of the forecast parts asked for (``{field: (n,) array}``, finite) and the state's other
    fields (reasons, season, level). A part that is undefined has no column and a reason. ``context``: the file's
    scales and baseline forecasts (default: from ``pred`` itself)."""
    y = np.asarray(pred.y_true, dtype=np.float64)
    e_abs = np.abs(np.asarray(pred.y_pred, dtype=np.float64) - y)
    cols: dict[str, np.ndarray] = {}
    info: dict = {}
    no_time = "the file has no time stamps, so no naive forecast to scale by"
    if "scaled" in parts:
        if pred.time is None:
            info["scaled_reason"] = no_time
        else:
            q, info["scaled_reason"] = _scaled(pred, e_abs, 1, context)
            if info["scaled_reason"] is None:
                cols["sum_scaled"] = q
    if "scaled_seasonal" in parts:
        m = _season(pred, season)
        info["season"] = m
        if pred.time is None:
            info["scaled_seasonal_reason"] = no_time
        elif m is None:
            info["scaled_seasonal_reason"] = ("no season length: the time stamps do not imply one (yearly, integer or "
                                              "irregular stamps); give it (--season, or the page's season input)")
        else:
            q, info["scaled_seasonal_reason"] = _scaled(pred, e_abs, m, context)
            if info["scaled_seasonal_reason"] is None:
                cols["sum_scaled_seasonal"] = q
    if parts & {"interval", "winkler"}:
        if pred.lower is None or pred.upper is None:
            info["interval_reason"] = "the file has no prediction interval (lower/upper columns)"
        else:
            lo = np.asarray(pred.lower, dtype=np.float64)
            hi = np.asarray(pred.upper, dtype=np.float64)
            crossed = lo > hi
            if crossed.any():
                i = int(np.flatnonzero(crossed)[0])
                info["interval_reason"] = (f"{int(crossed.sum()):,} interval(s) have lower > upper (row {i + 1}: "
                                           f"lower {lo[i]:g}, upper {hi[i]:g})")
            else:
                cols["sum_covered"] = ((y >= lo) & (y <= hi)).astype(np.float64)
                cols["sum_width"] = hi - lo
                lv = level if level is not None else pred.interval_level
                info["interval_level"] = lv
                if "winkler" in parts and lv is not None:
                    cols["sum_winkler"] = forecast.winkler_scores(y, lo, hi, level=lv)
                    # the bounds as the α/2 and 1 − α/2 quantile forecasts, their pinball losses averaged
                    alpha = 1.0 - lv
                    cols["sum_pinball"] = 0.5 * (forecast.pinball_losses(y, lo, quantile=alpha / 2)
                                                 + forecast.pinball_losses(y, hi, quantile=1 - alpha / 2))
    if "skill" in parts:
        ctx = context if context is not None else forecast_context(pred, season)
        e2 = (np.asarray(pred.y_pred, dtype=np.float64) - y) ** 2
        reasons = {}
        for name in BASELINES:
            if ctx.reference is None:
                reasons[name] = ctx.reference_reason
                continue
            b = ctx.reference[name].to_numpy(dtype=np.float64)
            ok = np.isfinite(b)
            if not ok.any():
                reasons[name] = (f"the {name.replace('_', ' ')} forecast cannot be formed for any row"
                                 + (" (no season length: give it)" if name == "seasonal_naive" and ctx.season is None
                                    else ""))
                continue
            cols[f"sum_sq_on_{name}"] = np.where(ok, e2, 0.0)
            cols[f"sum_sq_{name}"] = np.where(ok, (b - y) ** 2, 0.0)
        info["skill_reasons"] = reasons
    return cols, info


def forecast_state(pred: Predictions, weight: np.ndarray | None, parts, *, season: int | None = None,
                   level: float | None = None, context: ForecastContext | None = None
                   ) -> tuple[ForecastState, dict[str, np.ndarray]]:
    """The point state of one model's forecasts and the forecast columns (for the bootstrap)."""
    parts = set(parts)
    y = np.asarray(pred.y_true, dtype=np.float64)
    yp = np.asarray(pred.y_pred, dtype=np.float64)
    base = regression.regression_state(y, yp, weight, parts & set(regression.PARTS))
    cols, info = forecast_columns(pred, parts, season=season, level=level, context=context)
    sums = {k: float(v.sum() if weight is None else np.dot(weight, v)) for k, v in cols.items()}
    skill = {k: sums.pop(k) for k in list(sums) if k.startswith("sum_sq_")}
    state = ForecastState(**{f.name: getattr(base, f.name) for f in fields(base)}, **sums, **info,
                          skill_sums=skill)
    return state, cols


def row_state(columns: Mapping[str, np.ndarray], template: ForecastState) -> ForecastState | None:
    """A batch state whose sums are per-row values (weight 1 each): a mean-type formula on it gives its per-row
    loss. ``template`` supplies the reasons and settings. None when no column is a mean."""
    columns = {k: v for k, v in columns.items() if k in MEAN_FIELDS}
    if not columns:
        return None
    n = next(iter(columns.values())).shape[0]
    keep = {f.name: getattr(template, f.name) for f in fields(template)
            if f.name not in MEAN_FIELDS and f.name not in ("weight_sum", "n", "batch")}
    return ForecastState(weight_sum=np.ones(n), n=1, batch=True, **keep, **columns)


def batch_state(sums: Mapping[str, np.ndarray], weight_sum: np.ndarray, n: int, template: ForecastState
                ) -> ForecastState:
    """A batch state of resampled sums of the forecast columns (``sum_sq_*`` go to ``skill_sums``)."""
    keep = {f: getattr(template, f) for f in ("scaled_reason", "scaled_seasonal_reason", "season", "interval_level",
                                              "interval_reason", "skill_reasons")}
    skill = {k: v for k, v in sums.items() if k.startswith("sum_sq_")}
    own = {k: v for k, v in sums.items() if k not in skill}
    return ForecastState(weight_sum=weight_sum, n=n, batch=True, **keep, **own, skill_sums=skill)


# ----------------------------------------------------------------------------------------------------------------
# Formulas (point, batch and row states alike)
# ----------------------------------------------------------------------------------------------------------------

def _mean(s: ForecastState, total, reason: str | None):
    if reason is not None or total is None:
        note_undefined(s.batch, reason or "not computed")
        return float("nan")
    return total / s.weight_sum


def mase(s: ForecastState):
    r"""MASE against the naive one-step forecast: :math:`\frac1W\sum_i w_i |e_i| / s_{\text{series}(i)}`,
    :math:`s = \operatorname{mean}_t |y_t - y_{t-1}|` over the file's actuals of the series (Hyndman & Koehler
    2006; FPP3 §5.8)."""
    return _mean(s, s.sum_scaled, s.scaled_reason)


def mase_seasonal(s: ForecastState):
    r"""MASE against the seasonal naive forecast: as :func:`mase` with :math:`s = \operatorname{mean}_t
    |y_t - y_{t-m}|`, m the season length (FPP3 §5.8)."""
    return _mean(s, s.sum_scaled_seasonal, s.scaled_seasonal_reason)


def coverage(s: ForecastState):
    r"""Share (weighted) of rows with :math:`l_i \le y_i \le u_i` (FPP3 §5.5); compare with the nominal level."""
    return _mean(s, s.sum_covered, s.interval_reason)


def interval_width(s: ForecastState):
    r"""Mean width :math:`\frac1W\sum_i w_i (u_i - l_i)` of the prediction intervals."""
    return _mean(s, s.sum_width, s.interval_reason)


def winkler_score(s: ForecastState):
    r"""Mean Winkler (1972) score :math:`(u - l) + \frac2\alpha (l - y)[y < l] + \frac2\alpha (y - u)[y > u]` at
    the nominal level :math:`1 - \alpha` (FPP3 §5.9; Gneiting & Raftery 2007 eq. 43)."""
    reason = s.interval_reason
    if reason is None and s.interval_level is None:
        reason = ("the level of the prediction interval is not in its column names (e.g. lower_90); give it "
                  "(--interval-level, or the page's interval level input)")
    return _mean(s, s.sum_winkler, reason)


def pinball_loss(s: ForecastState):
    r"""Mean pinball (quantile) loss of the interval's bounds read as the :math:`\alpha/2` and :math:`1 - \alpha/2`
    quantile forecasts, :math:`\frac12[L_{\alpha/2}(y, l) + L_{1-\alpha/2}(y, u)]` with
    :math:`L_\tau(y, q) = \tau (y - q)_+ + (1 - \tau)(q - y)_+` (Koenker & Bassett 1978; FPP3 §5.9). It is
    :math:`\alpha/4` times the Winkler score: the same ranking, on the scale of the quantile-loss literature."""
    reason = s.interval_reason
    if reason is None and s.interval_level is None:
        reason = ("the level of the prediction interval is not in its column names (e.g. lower_90); give it "
                  "(--interval-level, or the page's interval level input)")
    return _mean(s, s.sum_pinball, reason)


def _skill(s: ForecastState, name: str):
    reason = (s.skill_reasons or {}).get(name)
    sums = s.skill_sums or {}
    if reason is not None or f"sum_sq_{name}" not in sums:
        note_undefined(s.batch, f"skill against the {name.replace('_', ' ')} forecast is undefined: "
                                f"{reason or 'not computed'}")
        return float("nan")
    model, base = sums[f"sum_sq_on_{name}"], sums[f"sum_sq_{name}"]
    if not s.batch:
        if base <= 0:
            note_undefined(False, f"the {name.replace('_', ' ')} forecast is perfect (MSE 0): a skill against it "
                                  "is undefined")
            return float("nan")
        return 1.0 - model / base
    base = np.asarray(base, dtype=np.float64)
    return np.where(base > 0, 1.0 - np.divide(model, base, out=np.zeros_like(base), where=base > 0), np.nan)


def skill_naive(s: ForecastState):
    r"""Skill against the naive forecast, :math:`1 - \mathrm{MSE}/\mathrm{MSE}_\text{naive}` over the rows where
    the naive forecast exists (FPP3 §5.8 "skill scores"; :func:`~assess.metrics.forecast_baselines.skill_score`)."""
    return _skill(s, "naive")


def skill_seasonal_naive(s: ForecastState):
    r"""Skill against the seasonal naive forecast, :math:`1 - \mathrm{MSE}/\mathrm{MSE}_\text{snaive}` (FPP3
    §5.8)."""
    return _skill(s, "seasonal_naive")


def skill_drift(s: ForecastState):
    r"""Skill against the drift forecast, :math:`1 - \mathrm{MSE}/\mathrm{MSE}_\text{drift}` (FPP3 §5.8)."""
    return _skill(s, "drift")
