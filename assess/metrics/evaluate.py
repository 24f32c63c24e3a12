r"""One call from encoded predictions to every metric, with intervals, baselines and reasons: :func:`evaluate`.

Shared work is done once per model: one confusion matrix (``np.bincount``), one
:func:`~assess.curves.threshold_counts` sort (binary) or one sort per class (multi-class, multi-label), one set of
per-row losses. Every metric is then a formula over those, taken from the registry (:mod:`assess.metrics.registry`).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Callable, Mapping

import numpy as np
import pandas as pd

from assess import curves, intervals
from assess.core.data import Predictions, Task
from assess.core.decision import Decision, predicted_labels
from assess.core.warnings import UndefinedMetricWarning
from assess.metrics import (binary, calibration_error, clustering, forecast_state, multiclass, multilabel, regression,
                            resampling)
from assess.metrics._common import ScoreNote, check_finite, check_weight
from assess.metrics.baselines import baseline_columns, baseline_values, regression_baselines
from assess.metrics.forecast_baselines import BASELINES
from assess.metrics.registry import TASKS, MetricSpec, applicable_to, get, table_for
from assess.core.defaults import DEFAULT_RESAMPLES

__all__ = ["evaluate", "MetricReport", "MetricResult", "CI_METHODS"]

CI_METHODS = (None, "wilson", "clopper-pearson", "normal", "delong", "bootstrap", "auto")
#: Tasks whose predictions are numbers (no classes, labels or scores).
VALUE_TASKS = (Task.REGRESSION, Task.FORECAST)
#: Most classes of a multi-class model whose metrics get bootstrap intervals. Each resample is a (k, k) confusion
#: matrix: 1,000 resamples of 200 classes are 40 million cells per metric (seconds); of 1,500 classes, 2.25 billion
#: (minutes, and gigabytes before the chunking of `assess.intervals.bootstrap_ci`). Above it the values stay and the
#: intervals are left out with a note saying why; Wilson, Clopper–Pearson and normal intervals are unaffected.
MAX_BOOTSTRAP_CLASSES = 200


@dataclass(frozen=True)
class MetricResult:
    """One metric of one model.

    ``value`` is NaN when undefined and ``reason`` says why; ``low``/``high`` the interval bounds (NaN when none was
    asked for or none applies) and ``method`` how they were computed (e.g. ``"wilson"``, ``"delong"``,
    ``"bootstrap-percentile (1000 resamples, seed 0, multinomial)"``); ``note`` a caveat about a defined value (a
    class left out of a macro average, probabilities that do not sum to 1); ``baselines`` the ISO 5.3.13 baseline
    values by strategy (:func:`~assess.metrics.baselines.baseline_columns`: ``majority``, ``stratified``,
    ``uniform`` for classification; ``mean``, ``median`` for regression; ``naive``, ``seasonal_naive``, ``drift``
    for forecasts) and ``baseline_method`` how they were obtained; ``counts`` a proportion metric's (x, n), which the
    tests across slices (:mod:`assess.analyses.slices`) compare.
    """

    key: str
    name: str
    value: float
    low: float = float("nan")
    high: float = float("nan")
    how: intervals.IntervalMethod | None = None
    reason: str | None = None
    note: str | None = None
    baselines: Mapping[str, float] = field(default_factory=dict)
    baseline_method: str | None = None
    counts: tuple[float, float] | None = None  # a proportion's (numerator, denominator), weighted sums with weights

    def __post_init__(self):
        if self.how is not None and not isinstance(self.how, intervals.IntervalMethod):
            object.__setattr__(self, "how", intervals.IntervalMethod(str(self.how)))

    @property
    def method(self) -> str | None:
        """How the interval was computed, as the exports' machine string (``None`` without an interval)."""
        return None if self.how is None else str(self.how)

    @property
    def defined(self) -> bool:
        return bool(np.isfinite(self.value))


def _none(v):
    return None if v is None or not np.isfinite(v) else float(v)


@dataclass(frozen=True, eq=False)
class MetricReport:
    """All metrics of one model: one :class:`MetricResult` per key, the per-class / per-label table, the settings.

    ``report["f1"]`` gives one result; ``report.reasons`` maps each undefined key to its reason; ``to_frame()`` is
    a tidy table (one row per metric), ``to_dict()`` the CLI/JSON form with ``None`` for undefined values. ``params``
    holds the settings: the ``decision`` (:class:`assess.core.decision.Decision`), ``beta`` and ``k``.
    """

    task: Task
    model: str
    n: int
    classes: tuple[str, ...]
    results: tuple[MetricResult, ...]
    table: pd.DataFrame | None
    params: Mapping[str, object]
    ci: str | None
    confidence_level: float
    n_resamples: int
    seed: object

    def __getitem__(self, key: str) -> MetricResult:
        for r in self.results:
            if r.key == key:
                return r
        raise KeyError(f"{key!r} is not in this report; keys: {', '.join(self.keys)}")

    def __contains__(self, key: str) -> bool:
        return any(r.key == key for r in self.results)

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(r.key for r in self.results)

    @property
    def values(self) -> dict[str, float]:
        return {r.key: r.value for r in self.results}

    @property
    def reasons(self) -> dict[str, str]:
        """``{key: reason}`` for every undefined metric."""
        return {r.key: r.reason for r in self.results if r.reason}

    @property
    def notes(self) -> dict[str, str]:
        return {r.key: r.note for r in self.results if r.note}

    def to_frame(self) -> pd.DataFrame:
        """One row per metric: key, name, value, low, high, method, reason, note and the task's baselines
        (``baseline_<name>`` for each name of :func:`~assess.metrics.baselines.baseline_columns`)."""
        rows = []
        for r in self.results:
            rows.append({"key": r.key, "name": r.name, "value": r.value, "low": r.low, "high": r.high,
                         "method": r.method, "reason": r.reason, "note": r.note}
                        | {f"baseline_{b}": r.baselines.get(b, np.nan) for b in baseline_columns(self.task)})
        return pd.DataFrame(rows)

    def to_dict(self, *, with_ci: bool = False) -> dict:
        """``{key: value}`` (``None`` when undefined) or, with ``with_ci``, ``{key: {"value", "low", "high"}}``."""
        if not with_ci:
            return {r.key: _none(r.value) for r in self.results}
        return {r.key: {"value": _none(r.value), "low": _none(r.low), "high": _none(r.high)} for r in self.results}


# ------------------------------------------------------------------------------------------------------------------
# Validation (once, at the boundary)
# ------------------------------------------------------------------------------------------------------------------

def _validate(pred: Predictions, decision, beta, k, ci, confidence_level, n_resamples):
    if not isinstance(pred, Predictions):
        raise TypeError(f"`pred` must be a Predictions (got {type(pred).__name__})")
    if not isinstance(pred.task, Task) or pred.task not in TASKS:
        raise ValueError(f"evaluate() assesses classification, regression, forecasts and clustering; `pred.task` is "
                         f"{getattr(pred.task, 'value', pred.task)!r}")
    if not isinstance(decision, Decision):
        raise TypeError(f"`decision` must be an assess.core.decision.Decision (got {type(decision).__name__})")
    if isinstance(beta, bool) or not isinstance(beta, (int, float, np.floating)) or not (np.isfinite(beta) and beta > 0):
        raise ValueError(f"`beta` must be > 0 (got {beta!r})")
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"`k` must be an integer >= 1 (got {k!r})")
    if ci not in CI_METHODS:
        raise ValueError(f"`ci` must be one of {list(CI_METHODS)} (got {ci!r})")
    if not (isinstance(confidence_level, (int, float)) and 0 < confidence_level < 1):
        raise ValueError(f"`confidence_level` must be in (0, 1) (got {confidence_level!r})")
    if not isinstance(n_resamples, (int, np.integer)) or n_resamples < 1:
        raise ValueError(f"`n_resamples` must be a positive integer (got {n_resamples!r})")
    if pred.task in VALUE_TASKS:
        return _validate_values(pred)
    if pred.task is Task.CLUSTERING:
        return clustering.check_clustering(pred)
    if pred.y_true is None:
        raise ValueError("`pred.y_true` is missing; classification metrics need the true labels")
    y = np.asarray(pred.y_true)
    n = y.shape[0]
    if n == 0:
        raise ValueError("`pred.y_true` is empty (0 rows); nothing to assess")
    task = pred.task
    if pred.y_pred is None and pred.scores is None:
        raise ValueError("`pred` has neither `y_pred` nor `scores`; give predicted labels or scores")
    if task == Task.BINARY:
        for name, arr in (("y_true", y), ("y_pred", pred.y_pred)):
            if arr is None:
                continue
            a = np.asarray(arr)
            if a.shape != (n,):
                raise ValueError(f"`{name}` must have shape ({n},) (got {a.shape})")
            bad = (a != 0) & (a != 1)
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                raise ValueError(f"`{name}` must hold 0/1 codes for a binary task (got {int(bad.sum())} other "
                                 f"values, first at row {i}: {a[i].item()!r})")
        if pred.scores is not None:
            s = np.asarray(pred.scores, dtype=np.float64)
            if s.shape != (n,):
                raise ValueError(f"`scores` must have shape ({n},) for a binary task (got {s.shape})")
            check_finite(s, "scores")
    elif task == Task.MULTICLASS:
        kk = len(pred.classes)
        if kk < 2:
            raise ValueError(f"a multi-class task needs at least 2 classes (got {kk})")
        for name, arr in (("y_true", y), ("y_pred", pred.y_pred)):
            if arr is None:
                continue
            a = np.asarray(arr)
            if a.shape != (n,) or a.dtype.kind not in "iu":
                raise ValueError(f"`{name}` must be integer class codes of shape ({n},) (got {a.dtype} {a.shape})")
            bad = (a < 0) | (a >= kk)
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                raise ValueError(f"`{name}` must hold codes 0..{kk - 1} for {kk} classes (got {int(bad.sum())} "
                                 f"other values, first at row {i}: {a[i]})")
        if pred.scores is not None:
            s = np.asarray(pred.scores, dtype=np.float64)
            if s.shape != (n, kk):
                raise ValueError(f"`scores` must have shape ({n}, {kk}) (got {s.shape})")
            check_finite(s, "scores")
    else:
        L = len(pred.classes)
        for name, arr in (("y_true", y), ("y_pred", pred.y_pred), ("scores", pred.scores)):
            if arr is None:
                continue
            a = np.asarray(arr)
            if a.shape != (n, L):
                raise ValueError(f"`{name}` must have shape ({n}, {L}) for {L} labels (got {a.shape})")
            if name != "scores" and a.dtype != bool:
                bad = (a != 0) & (a != 1)
                if bad.any():
                    raise ValueError(f"`{name}` must hold 0/1 or bool label indicators (got {int(bad.sum())} other "
                                     f"values)")
        if pred.scores is not None:
            check_finite(np.asarray(pred.scores, dtype=np.float64), "scores")
    return check_weight(pred.weight, n)


def _validate_values(pred: Predictions):
    """Regression / forecast arrays: numeric, 1-D, same length, finite (the loading layer reports missing and
    infinite cells as errors naming the column; here they are a ValueError naming the array and the first row)."""
    arrays = {}
    for name in ("y_true", "y_pred"):
        arr = getattr(pred, name)
        if arr is None:
            raise ValueError(f"`pred.{name}` is missing; {pred.task.value} metrics need true and predicted values")
        a = np.asarray(arr)
        if a.dtype.kind not in "iufb":
            raise ValueError(f"`{name}` must be numeric for a {pred.task.value} task (got dtype {a.dtype})")
        a = a.astype(np.float64, copy=False)
        if a.ndim != 1:
            raise ValueError(f"`{name}` must be 1-D (got shape {a.shape})")
        check_finite(a, name)
        arrays[name] = a
    n = arrays["y_true"].shape[0]
    if n == 0:
        raise ValueError("`pred.y_true` is empty (0 rows); nothing to assess")
    if arrays["y_pred"].shape != (n,):
        raise ValueError(f"`y_pred` must have shape ({n},) like `y_true` (got {arrays['y_pred'].shape})")
    return check_weight(pred.weight, n)


# ------------------------------------------------------------------------------------------------------------------
# evaluate
# ------------------------------------------------------------------------------------------------------------------

def run_metric(fn, state):
    """Run one metric function on a state; return (value, reason, note) from the warnings it emitted: the reason when
    the value is undefined (NaN, never a silent 0), and any score note. The engines call it on their grouped states
    so their reasons read as the in-memory ones."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with np.errstate(all="ignore"):
            value = fn(state)
    reasons = [str(w.message) for w in caught if issubclass(w.category, UndefinedMetricWarning)]
    notes = [str(w.message) for w in caught if issubclass(w.category, ScoreNote)]
    value = float(value)
    reason = "; ".join(dict.fromkeys(reasons)) if (reasons and not np.isfinite(value)) else None
    if not np.isfinite(value) and reason is None:
        reason = "undefined for these data"
    return value, reason, ("; ".join(dict.fromkeys(notes)) or None)


#: Why a maximum gets no interval, whatever was asked: a resample's maximum never exceeds the sample's, and equals it
#: with probability 1 − (1 − 1/n)ⁿ → 1 − 1/e ≈ 63%, so its percentiles cannot reach the population maximum above it
#: (Bickel & Freedman 1981, §6; Efron & Tibshirani 1993, §7.4).
MAXIMUM_NO_INTERVAL = ("no interval: the bootstrap of a maximum is inconsistent (a resample's maximum never exceeds "
                       "the largest error observed and equals it in about 63% of resamples), so it cannot cover; no "
                       "distribution-free interval of a maximum exists")


def interval_method(spec: MetricSpec, ci: str | None, weighted: bool, *, rows: bool = False) -> str | None:
    """The interval method a metric gets for the asked ``ci``: "auto" picks Wilson for proportions, DeLong for the
    ROC AUCs of unweighted rows, t for row means (regression: the mean-type errors, their roots and totals), the
    delta method for R² and explained variance, order statistics for the unweighted median absolute error,
    simultaneous Clopper–Pearson intervals of the bins for the ECE and the bootstrap otherwise (forecasts: every
    metric, resampled in blocks); a named method applies where it can (a proportion method to proportions, DeLong
    to AUCs, the bootstrap to all but the ECE, which keeps its own: :data:`BINNED_NOT_BOOTSTRAPPED`); None for no
    interval — counts, and the maximum error (:data:`MAXIMUM_NO_INTERVAL`).

    ``rows``: the caller holds the rows, which the multi-class DeLong intervals (one-vs-rest, one-vs-one) read; the
    out-of-core engine's grouped tables give the binary one only, so without rows a multi-class AUC is bootstrapped
    under "auto" and gets no "delong" interval. With rows, the binary average precision and PR AUC of unweighted
    rows get "delta" (:func:`assess.intervals.precision_area_ci`) — which :func:`evaluate` turns back into the
    bootstrap when the scores are tied (:func:`assess.intervals.precision_area.applies`)."""
    if ci is None or spec.kind in ("count", "maximum"):
        return None
    if spec.kind == "binned":
        return "simultaneous-bins" if ci in ("auto", "bootstrap") else None
    delong = spec.kind == "auc" and (spec.task == Task.BINARY or rows)
    if ci == "auto":
        if spec.kind == "proportion":
            return "wilson"
        if delong and not weighted:
            return "delong"
        if spec.task is Task.FORECAST:
            return "bootstrap"      # autocorrelated rows: the block bootstrap (`_forecast_bounds`)
        if spec.kind == "row_mean":
            return "t"
        if spec.kind == "delta" or (spec.task == Task.BINARY and spec.key in PRECISION_AREAS and rows
                                    and not weighted):
            return "delta"
        if spec.kind == "median" and not weighted:
            return "order-statistic"
        return "bootstrap"
    if ci in intervals.PROPORTION_METHODS:
        return ci if spec.kind == "proportion" else None
    if ci == "delong":
        if delong:
            return "bootstrap" if weighted else "delong"
        return None
    return "bootstrap"


#: The binary areas under the precision curve with a delta-method interval (`assess.intervals.precision_area`).
PRECISION_AREAS = intervals.precision_area.AREAS
#: Why ``ci="bootstrap"`` gives the ECE its simultaneous Clopper–Pearson interval
#: (:mod:`assess.metrics.calibration_error`).
BINNED_NOT_BOOTSTRAPPED = ("not bootstrapped: the percentile bootstrap of the binned ECE misses the true value near "
                           "calibration (the plug-in ECE is biased upward there), so its interval is the simultaneous "
                           "Clopper–Pearson one of the bins")
#: Why a defined AUC has no DeLong interval: the variance of the placements needs two rows per class (per side).
NO_DELONG = "no DeLong interval: a class has fewer than 2 rows, so its placements have no variance estimate"
#: What the DeLong interval of a multi-class AUC is of: the words of its method (`intervals.IntervalMethod.of`).
MULTICLASS_DELONG = {"roc_auc_ovr": "macro average of one-vs-rest AUCs, delta method",
                     "roc_auc_ovr_weighted": "support-weighted average of one-vs-rest AUCs, delta method",
                     "roc_auc_ovo": "Hand–Till average of one-vs-one AUCs"}


def _multiclass_delong(key, y, s, rankings, cache, confidence_level) -> intervals.ConfidenceInterval:
    """The DeLong interval of a multi-class AUC (:func:`assess.intervals.ovr_delong`,
    :func:`assess.intervals.hand_till_delong`), each computed once into ``cache`` for the keys that share it."""
    if key == "roc_auc_ovo":
        if "ovo" not in cache:
            cache["ovo"] = intervals.hand_till_delong(y, s, rankings=rankings)
        value, variance = cache["ovo"]
    else:
        if "ovr" not in cache:
            cache["ovr"] = intervals.ovr_delong(y, s, rankings=rankings)
        r = cache["ovr"]
        value, variance = (r.macro, r.macro_variance) if key == "roc_auc_ovr" else (r.weighted, r.weighted_variance)
    return intervals.auc_interval(value, variance, confidence_level,
                                  intervals.IntervalMethod("delong", of=MULTICLASS_DELONG[key]))


def _row_losses(task: Task, y: np.ndarray, s: np.ndarray, cache: dict) -> dict[str, np.ndarray]:
    """Per-row log loss and Brier score (the ``row_mean`` metrics), computed once for both into ``cache``."""
    if not cache:
        per_row = binary.per_row_losses if task == Task.BINARY else multiclass.per_row_losses
        cache["log_loss"], cache["brier_score"] = per_row(y, s)
    return cache


def _arrays(pred: Predictions, y_pred: np.ndarray):
    """Truth, decided labels and scores in the dtypes the state builders count with."""
    dtype = {Task.BINARY: None, Task.MULTICLASS: np.intp, Task.MULTILABEL: bool}[pred.task]
    s = None if pred.scores is None else np.asarray(pred.scores, dtype=np.float64)
    if dtype is None:
        return np.asarray(pred.y_true) == 1, np.asarray(y_pred) == 1, s
    return np.asarray(pred.y_true, dtype=dtype), np.asarray(y_pred, dtype=dtype), s


def evaluate(pred: Predictions, keys=None, *, decision: Decision = Decision(), beta: float = 1.0, k: int = 2,
             ci: str | None = None, confidence_level: float = 0.95, n_resamples: int = DEFAULT_RESAMPLES, seed=0,
             progress: Callable[[float], None] | None = None, baselines: bool = True,
             bootstrap_method: str = "percentile", season: int | None = None, interval_level: float | None = None,
             context: forecast_state.ForecastContext | None = None) -> MetricReport:
    """Every requested metric of one model, with reasons for undefined values, intervals and ISO 5.3.13 baselines.

    Regression: the registry's value metrics from one :func:`~assess.metrics.regression.regression_state`, analytic
    intervals under ``ci="auto"`` (:func:`_regression_bounds`; the weighted median absolute error is bootstrapped),
    i.i.d. bootstrap intervals under ``"bootstrap"`` (a proportion or DeLong method gives no interval and says so in
    the note; the maximum error never gets one, :data:`MAXIMUM_NO_INTERVAL`) and the constant mean / median
    predictors as baselines. Forecasts (pooled over every row;
    per horizon and series: :func:`assess.metrics.breakdown.breakdown`): the same plus MASE, interval and skill
    scores, block-bootstrap intervals and the naive / seasonal naive / drift forecasts as baselines.
    ``decision``, ``beta`` and ``k`` do not apply to either.

    Parameters
    ----------
    pred : Predictions
        Encoded predictions of a binary, multi-class, multi-label, regression or forecast task (see
        :class:`assess.core.data.Predictions`).
    keys : iterable of str, optional
        Metric keys (registry keys of the task). Default: every metric the data support (score metrics only when
        scores were given).
    decision : Decision, default ``Decision()``
        Where the labels of the label metrics come from (:mod:`assess.core.decision`): by default the ``y_pred`` column
        when given, else ``score >= 0.5`` (binary, per label for multi-label) or the arg-max (multi-class).
    beta : float, default 1.0
        The beta of ``fbeta`` (binary) and ``fbeta_*`` (multi-class).
    k : int, default 2
        The k of ``top_k_accuracy``.
    ci : {None, "wilson", "clopper-pearson", "normal", "delong", "bootstrap", "auto"}
        Interval method. A proportion method applies to proportion metrics only, ``"delong"`` to the ROC AUCs
        only (binary; multi-class one-vs-rest and one-vs-one: :func:`_multiclass_delong`; weighted data fall back to
        the bootstrap, which the method string says); ``"bootstrap"`` to every metric except counts and the ECE;
        ``"auto"`` picks Wilson for proportions, DeLong for the ROC AUCs of unweighted rows, the
        Student-t interval of a mean (:func:`assess.intervals.mean_ci`) for log loss and the Brier score (means of
        per-row losses) and the regression errors, the delta method for R² and explained variance and for the
        average precision and PR AUC of mostly distinct scores (:func:`assess.intervals.precision_area_ci`), order
        statistics for the median absolute error, and the bootstrap for the rest (:func:`interval_method`). The ECE
        gets simultaneous Clopper–Pearson intervals of its bins under both
        (:func:`assess.metrics.calibration_error.ece_interval`; :data:`BINNED_NOT_BOOTSTRAPPED`).
        Counts (tp, fp, …, n) and the maximum error get no interval.
    confidence_level : float, default 0.95
    resamples, seed : bootstrap settings (reported in each result's ``method``). Under ``"auto"`` ``n_resamples`` is
        the most a bootstrap draws: it stops once the Monte-Carlo error of every bound is below half a unit of its
        last shown decimal (the sequential rule of :func:`assess.intervals.bootstrap_ci`), and the method says how
        many it used and that error.
    progress : callable, optional
        ``progress(fraction)`` during the bootstrap (per chunk of resamples).
    baselines : bool, default True
        Compute the ISO 5.3.13 baselines beside each metric (see :mod:`assess.metrics.baselines`).
    bootstrap_method : {"percentile", "bca"}
    season : int, optional
        Forecasts: the season length m of ``mase_seasonal`` (default: from the time stamps' frequency).
    interval_level : float, optional
        Forecasts: the nominal level of the ``lower``/``upper`` interval when its column names do not give it
        (``pred.interval_level``); the Winkler score needs it.
    context : ForecastContext, optional
        Forecasts: the MASE scales and the naive / seasonal naive / drift forecasts of the whole file (default:
        from ``pred``'s own rows); :func:`assess.metrics.breakdown.breakdown` passes the file's, subset to a group.

    Forecasts: the regression set pooled over every row plus MASE and the interval scores
    (:mod:`assess.metrics.forecast_state`); their intervals come from a block bootstrap within each series in time
    order (:func:`_forecast_bounds`).
    """
    weight = _validate(pred, decision, beta, k, ci, confidence_level, n_resamples)
    if bootstrap_method not in ("percentile", "bca"):
        raise ValueError(f"`bootstrap_method` must be 'percentile' or 'bca' (got {bootstrap_method!r})")
    task = pred.task
    has_scores = pred.scores is not None
    if keys is None:
        specs = list(applicable_to(pred))
    else:
        if isinstance(keys, str):
            keys = [keys]
        specs = [get(task, key) for key in keys]
    if task is Task.CLUSTERING:
        return _evaluate_clustering(pred, specs, weight, ci=ci, confidence_level=confidence_level,
                                    n_resamples=n_resamples, seed=seed, progress=progress, baselines=baselines)
    if task in VALUE_TASKS:
        return _evaluate_values(pred, specs, weight, ci=ci, confidence_level=confidence_level, n_resamples=n_resamples,
                                seed=seed, progress=progress, baselines=baselines, method=bootstrap_method,
                                season=season, level=interval_level, context=context)
    beta, k = float(beta), int(k)
    y, yp, s = _arrays(pred, predicted_labels(task, pred.y_pred, pred.scores, decision, labels=pred.classes,
                                              model=pred.model))
    labels_from = decision.labels_from(task, has_labels=pred.y_pred is not None, has_scores=has_scores,
                                       labels=pred.classes)
    methods = {m.key: interval_method(m, ci, weight is not None, rows=True) for m in specs}
    boot_specs = [m for m in specs if methods[m.key] == "bootstrap"]
    no_bootstrap = None
    if boot_specs and task == Task.MULTICLASS and len(pred.classes) > MAX_BOOTSTRAP_CLASSES:
        no_bootstrap = (f"no bootstrap interval above {MAX_BOOTSTRAP_CLASSES:,} classes (this model has "
                        f"{len(pred.classes):,}): each resample would be a {len(pred.classes):,}² confusion matrix")
        boot_specs = []

    # ---- the point state: every shared quantity once ----
    rankings = None
    if task == Task.BINARY:
        state = binary.binary_state(pred.y_true, yp, s, weight, labels_from=labels_from, beta=beta)
        if state.counts is not None and any(methods[m.key] == "delta" for m in specs):
            # tied scores: the delta method's normal shape fails there, and the grouped bootstrap is cheap
            groups = np.diff(state.counts.tps, prepend=0.0), np.diff(state.counts.fps, prepend=0.0)
            if not intervals.precision_area.applies(*groups):
                methods.update({m.key: "bootstrap" for m in specs if methods[m.key] == "delta"})
                boot_specs = [m for m in specs if methods[m.key] == "bootstrap"]

        def point_state_for(y_pred, scores):
            return binary.binary_state(pred.y_true, y_pred, scores, weight, labels_from=labels_from, beta=beta)
    elif task == Task.MULTICLASS:
        need_ovo = any("one_vs_one" in m.shared for m in specs)
        need_rank = has_scores and (need_ovo or any(m.needs != "labels" for m in boot_specs)
                                    or any(methods[m.key] == "delong" for m in specs))
        if need_rank:
            rankings = [curves.rank_scores(s[:, c]) for c in range(s.shape[1])]
        state = multiclass.multiclass_state(y, yp, s, weight, pred.classes, labels_from=labels_from, beta=beta,
                                            top_k=k, rankings=rankings, need_ovo=need_ovo and has_scores)

        def point_state_for(y_pred, scores):
            rk = None
            if scores is not None and need_ovo:
                rk = [curves.rank_scores(scores[:, c]) for c in range(scores.shape[1])]
            return multiclass.multiclass_state(y, y_pred, scores, weight, pred.classes, labels_from=labels_from,
                                               beta=beta, top_k=k, rankings=rk, need_ovo=need_ovo and scores is not None)
    else:
        state = multilabel.multilabel_state(y, yp, s, weight, pred.classes, labels_from=labels_from, beta=beta)

        def point_state_for(y_pred, scores):
            return multilabel.multilabel_state(y, y_pred, scores, weight, pred.classes, labels_from=labels_from,
                                               beta=beta)

    values = {m.key: run_metric(m.compute, state) for m in specs}

    # ---- intervals ----
    bounds: dict[str, tuple[float, float, intervals.IntervalMethod | None]] = {}
    losses: dict[str, np.ndarray] = {}
    delong: dict[str, object] = {}
    for m in specs:
        how = methods[m.key]
        v = values[m.key][0]
        if how is None or how == "bootstrap" or not np.isfinite(v):
            continue
        if how in intervals.PROPORTION_METHODS:
            x, nn, ne = m.proportion.counts(state)
            c = intervals.proportion_ci(x, nn, confidence_level=confidence_level, method=how,
                                        n_eff=ne if weight is not None else None)
            # Kish's effective n stands in for n whenever rows are weighted (module docstring of assess.intervals)
            bounds[m.key] = (c.low, c.high, replace(c.how, effective_n=weight is not None))
        elif how == "delong" and task == Task.BINARY:
            # from the grouped counts of the one sort: no second sort of the rows
            auc, variance = intervals.delong_grouped(np.diff(state.counts.tps, prepend=0.0),
                                                     np.diff(state.counts.fps, prepend=0.0))
            c = intervals.auc_interval(auc, variance, confidence_level, "delong")
            bounds[m.key] = (c.low, c.high, c.how)
        elif how == "delong":
            c = _multiclass_delong(m.key, y, s, rankings, delong, confidence_level)
            bounds[m.key] = (c.low, c.high, c.how)
        elif how == "delta":
            c = intervals.precision_area_ci(np.diff(state.counts.tps, prepend=0.0),
                                            np.diff(state.counts.fps, prepend=0.0), area=m.key,
                                            confidence_level=confidence_level)
            bounds[m.key] = (c.low, c.high, c.how)
        elif how == "t":
            c = intervals.mean_ci(_row_losses(task, y, s, losses)[m.key], weights=weight,
                                  confidence_level=confidence_level, bounds=m.range)
            bounds[m.key] = (c.low, c.high, replace(c.how, of="mean of per-row losses"))
        elif how == "simultaneous-bins":
            c = calibration_error.ece_interval(state.counts, confidence_level=confidence_level, squares=None
                                               if weight is None else calibration_error.squared_weights(s, weight))
            bounds[m.key] = (c.low, c.high, c.how)
    if boot_specs:
        bounds.update(_bootstrap(task, state, boot_specs, values, y, yp, s, weight, rankings, n_resamples=n_resamples,
                                 confidence_level=confidence_level, seed=seed, progress=progress,
                                 method=bootstrap_method, fallback=ci == "delong", sequential=ci == "auto"))
    elif progress is not None:
        progress(1.0)

    # ---- baselines ----
    base = {}
    if baselines:
        base = baseline_values(pred, specs, point_state_for, state, seed=seed)

    results = []
    for m in specs:
        v, reason, note_ = values[m.key]
        lo, hi, how = bounds.get(m.key, (float("nan"), float("nan"), None))
        if how is None and ci is not None and methods[m.key] is None and m.kind != "count":
            note_ = no_interval_note(note_, ci, m)
        if no_bootstrap and methods[m.key] == "bootstrap":
            note_ = "; ".join(x for x in (note_, no_bootstrap) if x)
        if methods[m.key] == "delong" and np.isfinite(v) and not np.isfinite(lo):
            note_ = "; ".join(x for x in (note_, NO_DELONG) if x)
        if methods[m.key] == "simultaneous-bins" and ci == "bootstrap" and np.isfinite(v):
            note_ = "; ".join(x for x in (note_, BINNED_NOT_BOOTSTRAPPED) if x)
        bl = base.get(m.key)
        counts = tuple(float(c) for c in m.proportion.counts(state)[:2]) if m.proportion else None
        results.append(MetricResult(m.key, m.named(beta=beta, k=k), v, lo, hi, how, reason, note_,
                                    MappingProxyType(bl.as_dict()) if bl else MappingProxyType({}),
                                    bl.method if bl else None, counts))

    table = _table(task, state, pred.classes, has_scores)
    return MetricReport(task=task, model=pred.model, n=int(y.shape[0]), classes=tuple(pred.classes),
                        results=tuple(results), table=table,
                        params=MappingProxyType({"decision": decision, "beta": beta, "k": k}), ci=ci,
                        confidence_level=float(confidence_level), n_resamples=int(n_resamples), seed=seed)


def _evaluate_clustering(pred: Predictions, specs, weight, *, ci, confidence_level, n_resamples, seed, progress,
                         baselines) -> MetricReport:
    """evaluate() for clustering (validated arrays): every index from one :func:`~assess.metrics.clustering.
    clustering_state` (one contingency table; the internal indices from the features), percentile bootstrap
    intervals (external: multinomial tables over the cells; internal: see
    :func:`~assess.metrics.clustering.internal_intervals`) and a random partition of the same sizes as baseline."""
    internal = any(m.needs == "features" for m in specs)
    state = clustering.clustering_state(pred, weight, internal=internal, seed=seed, confidence_level=confidence_level)
    values = {m.key: run_metric(m.compute, state) for m in specs}
    bounds: dict[str, tuple[float, float, intervals.IntervalMethod]] = {}
    if ci is not None:
        child = np.random.SeedSequence(int(seed) if isinstance(seed, (int, np.integer)) else 0).spawn(2)
        external = [m.key for m in specs if m.needs == "reference" and np.isfinite(values[m.key][0])]
        if external and weight is None:
            for key, (lo, hi, bad) in clustering.bootstrap_external(
                    state.table, external, n_resamples=n_resamples, confidence_level=confidence_level,
                    seed=child[0]).items():
                bounds[key] = (lo, hi, intervals.IntervalMethod(
                    "bootstrap-percentile", n_resamples=n_resamples, seed=seed,
                    scheme="multinomial over the contingency cells", rows="i.i.d. rows", dropped=int(bad)))
        internal_keys = [m.key for m in specs if m.needs == "features" and np.isfinite(values[m.key][0])]
        if internal_keys:
            bounds.update(clustering.internal_intervals(state, internal_keys, n_resamples=n_resamples,
                                                        confidence_level=confidence_level, seed=child[1],
                                                        seed_label=seed))
    if progress is not None:
        progress(1.0)
    base, how = clustering.random_baselines(state, [m.key for m in specs], seed=seed) if baselines else ({}, "")
    results = []
    for m in specs:
        v, reason, note_ = values[m.key]
        lo, hi, method = bounds.get(m.key, (float("nan"), float("nan"), None))
        note_ = "; ".join(x for x in (note_, state.notes.get(m.key)) if x) or None
        if method is None and ci is not None and np.isfinite(v):
            note_ = "; ".join(x for x in (note_, "no interval: weighted rows are not resampled" if weight is not None
                                          and m.needs == "reference" else
                                          f"no interval above {clustering.SILHOUETTE_EXACT_ROWS:,} rows: each "
                                          "resample recomputes the centroids") if x)
        results.append(MetricResult(m.key, m.name, v, lo, hi, method, reason, note_,
                                    MappingProxyType({"random": base[m.key]} if m.key in base else {}),
                                    how if m.key in base else None))
    return MetricReport(task=pred.task, model=pred.model, n=pred.n, classes=tuple(pred.classes),
                        results=tuple(results), table=None, params=MappingProxyType({}), ci=ci,
                        confidence_level=float(confidence_level), n_resamples=int(n_resamples), seed=seed)


def no_interval_note(note_: str | None, ci: str, spec: MetricSpec) -> str:
    """``note_`` with the sentence that says why the asked ``ci`` gave no interval: a maximum has none
    (:data:`MAXIMUM_NO_INTERVAL`); a proportion method or DeLong applies to other metrics only."""
    why = MAXIMUM_NO_INTERVAL if spec.kind == "maximum" else (
        f"no {ci} interval: it applies to {'ROC AUCs' if ci == 'delong' else 'proportions'} only")
    return "; ".join(x for x in (note_, why) if x)


def _regression_bounds(specs, methods, y, yp, weight, confidence_level
                       ) -> tuple[dict[str, tuple[float, float, intervals.IntervalMethod]], dict[str, str]]:
    """The analytic intervals of regression metrics (i.i.d. rows), by ``methods[key]``:

    - ``"t"``: the Student-t interval of the mean of the metric's per-row values (:func:`assess.intervals.mean_ci`,
      Kish's effective n with weights), the registry formula run on a state whose sums are the per-row values; RMSE,
      RMSPE and SSE map the interval of their mean through their increasing function (:data:`OF_MEAN`), which keeps
      its coverage;
    - ``"delta"``: the t interval of the delta-method pseudo-values
      (:func:`~assess.metrics.regression.delta_pseudo_values`) of R² and explained variance;
    - ``"order-statistic"``: the binomial-rank interval of the median of |e| (:func:`assess.intervals.median_ci`).

    Returns the bounds and, for a metric whose interval is undefined (too few rows), a note saying so.
    """
    n = y.shape[0]
    W = float(n if weight is None else np.sum(weight))
    inner = {m.key: get(Task.REGRESSION, OF_MEAN[m.key][0]) if m.key in OF_MEAN else m for m in specs}
    parts = set().union(*(inner[m.key].shared for m in specs if methods[m.key] == "t"))
    rows = regression.RegressionState(weight_sum=np.ones(n), n=1, batch=True, **regression.row_values(y, yp, parts))
    out, notes = {}, {}
    for m in specs:
        how = methods[m.key]
        if how == "t":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with np.errstate(all="ignore"):
                    per_row = np.asarray(inner[m.key].compute(rows), dtype=np.float64)
            lo, hi, method = mean_interval_of(m.key, intervals.mean_ci(
                per_row, weights=weight, confidence_level=confidence_level, bounds=inner[m.key].range), W)
        elif how == "delta":
            c = intervals.mean_ci(regression.delta_pseudo_values(m.key, y, yp, weight), weights=weight,
                                  confidence_level=confidence_level, bounds=m.range)
            lo, hi, method = c.low, c.high, replace(c.how, key="delta-method", of="influence-function pseudo-values")
        else:
            c = intervals.median_ci(np.abs(yp - y), confidence_level=confidence_level)
            lo, hi, method = c.low, c.high, c.how
        if np.isfinite(lo) and np.isfinite(hi):
            out[m.key] = (float(lo), float(hi), method)
        else:
            notes[m.key] = f"no interval: too few rows for the {method.words} interval"
    return out, notes


def mean_interval_of(key: str, c: intervals.ConfidenceInterval, W: float):
    """(low, high, method) of a row-mean metric from the t interval ``c`` of its inner mean: RMSE, RMSPE and SSE
    through their increasing function of the mean (:data:`OF_MEAN`; ``W`` the total weight), the others as they
    are — shared by the rows' path and the engine's sums (`assess.engine.regression.analytic_bounds`)."""
    lo, hi, of = c.low, c.high, "mean of per-row values"
    if key in OF_MEAN:
        _, finish, of = OF_MEAN[key]
        lo, hi = finish(lo, W), finish(hi, W)
    return lo, hi, replace(c.how, of=of)


def _evaluate_values(pred: Predictions, specs, weight, *, ci, confidence_level, n_resamples, seed, progress, baselines,
                     method, season=None, level=None, context=None) -> MetricReport:
    """evaluate() for regression and forecasts (validated arrays)."""
    y = np.asarray(pred.y_true, dtype=np.float64)
    yp = np.asarray(pred.y_pred, dtype=np.float64)
    parts = set().union(*(m.shared for m in specs))
    columns = {}
    if pred.task is Task.FORECAST:
        if context is None:
            pred, labels = forecast_state.coded_series(pred)      # factorize the series once
            context = forecast_state.forecast_context(pred, season, labels)
        state, columns = forecast_state.forecast_state(pred, weight, parts, season=season, level=level,
                                                       context=context)
    else:
        state = regression.regression_state(y, yp, weight, parts)
    values = {m.key: run_metric(m.compute, state) for m in specs}
    methods = {m.key: interval_method(m, ci, weight is not None) for m in specs}
    boot = [m for m in specs if methods[m.key] == "bootstrap" and np.isfinite(values[m.key][0])]
    analytic = [m for m in specs if methods[m.key] not in (None, "bootstrap") and np.isfinite(values[m.key][0])]
    bounds, interval_notes = _regression_bounds(analytic, methods, y, yp, weight, confidence_level) if analytic \
        else ({}, {})
    # the same seeding as the classification runs: the first child of the seed's SeedSequence
    child = np.random.SeedSequence(int(seed) if isinstance(seed, (int, np.integer)) else 0).spawn(1)[0]
    if boot and pred.task is Task.FORECAST:
        bounds, interval_notes = _forecast_bounds(pred, state, columns, boot, values, weight, n_resamples=n_resamples,
                                                  confidence_level=confidence_level, seed=seed, child=child)
        if progress is not None:
            progress(1.0)
    elif boot:
        stat, layout = resampling.regression_statistic(state, boot, y, yp, weight)
        res = intervals.bootstrap_ci(stat, point=np.array([values[m.key][0] for m in boot]), n_resamples=n_resamples,
                                     confidence_level=confidence_level, seed=child, method=method,
                                     progress=progress, sequential=ci == "auto", **layout)
        for j, m in enumerate(boot):
            ci_ = res.intervals[j]
            bounds[m.key] = (ci_.low, ci_.high, replace(ci_.how, seed=seed, rows="i.i.d. rows"))
    elif progress is not None:
        progress(1.0)
    if pred.task is Task.FORECAST:
        base = _forecast_baselines(pred, specs, weight, context, season, level) if baselines else {}
    else:
        base = regression_baselines(specs, y, weight, parts) if baselines else {}
    results = []
    for m in specs:
        v, reason, note_ = values[m.key]
        lo, hi, how = bounds.get(m.key, (float("nan"), float("nan"), None))
        if how is None and ci is not None and methods[m.key] is None:
            note_ = no_interval_note(note_, ci, m)
        if m.key in interval_notes:
            note_ = "; ".join(x for x in (note_, interval_notes[m.key]) if x)
        bl = base.get(m.key)
        counts = tuple(float(c) for c in m.proportion.counts(state)[:2]) if m.proportion else None
        results.append(MetricResult(m.key, m.name, v, lo, hi, how, reason, note_,
                                    MappingProxyType(bl.as_dict()) if bl else MappingProxyType({}),
                                    bl.method if bl else None, counts))
    return MetricReport(task=pred.task, model=pred.model, n=int(y.shape[0]), classes=(), results=tuple(results),
                        table=None, params=MappingProxyType({}), ci=ci, confidence_level=float(confidence_level),
                        n_resamples=int(n_resamples), seed=seed)


def _table(task, state, classes, has_scores) -> pd.DataFrame | None:
    cols = table_for(task)
    if not cols:
        return None
    data = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            for c in cols:
                if c.needs != "labels" and not has_scores:
                    continue
                data[c.key] = np.asarray(c.compute(state), dtype=np.float64)
    df = pd.DataFrame(data, index=pd.Index(list(classes), name="class" if task == Task.MULTICLASS else "label"))
    return df


def _bootstrap(task, state, specs, values, y, yp, s, weight, rankings, *, n_resamples, confidence_level, seed, progress,
               method, fallback, sequential):
    """Bootstrap intervals: label metrics and score metrics in separate (independently seeded) runs; under
    ``sequential`` (``ci="auto"``) each run stops once its bounds are as precise as they are shown, at most
    ``n_resamples`` (:func:`assess.intervals.bootstrap_ci`)."""
    label = [m for m in specs if m.needs == "labels" and np.isfinite(values[m.key][0])]
    score = [m for m in specs if m.needs != "labels" and np.isfinite(values[m.key][0])]
    runs = []
    if task == Task.BINARY:
        if label:
            runs.append((label,) + resampling.binary_cells_statistic(state, label, y, yp, weight))
        if score:
            ranking = curves.rank_scores(s) if weight is not None else None
            runs.append((score,) + resampling.binary_score_statistic(state, score, y, s, weight, ranking))
    elif task == Task.MULTICLASS:
        if label:
            runs.append((label,) + resampling.multiclass_cells_statistic(state, label, y, yp, weight))
        if score:
            runs.append((score,) + resampling.multiclass_score_statistic(state, score, y, s, weight, rankings))
    else:
        both = label + score
        if both:
            runs.append((both,) + resampling.multilabel_statistic(state, both, y, yp, s, weight))
    out = {}
    seeds = np.random.SeedSequence(int(seed) if isinstance(seed, (int, np.integer)) else 0).spawn(max(len(runs), 1))
    for i, (sp, stat, layout) in enumerate(runs):
        def prog(f, i=i):
            if progress is not None:
                progress((i + f) / len(runs))
        point = np.array([values[m.key][0] for m in sp])
        res = intervals.bootstrap_ci(stat, point=point, n_resamples=n_resamples, confidence_level=confidence_level,
                                     seed=seeds[i], method=method, progress=prog, sequential=sequential, **layout)
        for j, m in enumerate(sp):
            ci_ = res.intervals[j]
            out[m.key] = (ci_.low, ci_.high, replace(
                ci_.how, seed=seed, rows="stratified",
                fallback="DeLong needs unweighted data" if fallback and m.kind == "auc" else None))
    if progress is not None and not runs:
        progress(1.0)
    return out


#: Regression and forecast metrics that are an increasing function of another metric's mean: (the mean's key, the
#: function of (mean, total weight), the interval so obtained in words). Every other forecast metric whose formula
#: is a weighted mean of a per-row value (:data:`assess.metrics.forecast_state.MEAN_FIELDS`) is itself the mean.
OF_MEAN = {"rmse": ("mse", lambda v, W: np.sqrt(v), "square root of the MSE's interval"),
           "rmspe": ("mspe", lambda v, W: np.sqrt(v), "square root of the MSPE's interval"),
           "sse": ("mse", lambda v, W: v * W, "total weight × the MSE's interval")}
#: Forecast metrics that are a mean of a per-row value (the studentized block bootstrap applies to them).
MEAN_KEYS = ("mae", "mse", "mean_error", "mape", "smape", "mspe", "mase", "mase_seasonal", "coverage",
             "interval_width", "winkler_score", "pinball_loss")


#: The percentile block bootstrap builds a count matrix of resamples × rows, so its cost is their product: above this
#: many cells it is skipped, and its metrics (median and maximum error, R², explained variance, skill scores,
#: weighted rows) get no interval and a note that says how many resamples would fit — 1,000 resamples of 200,000 rows,
#: or 200 (the Metrics page's default above 100,000 rows) of 1,000,000. The studentized intervals of the mean-type
#: metrics cost one pass per resample and are never skipped.
PERCENTILE_BLOCK_MAX_CELLS = 200_000_000


def _forecast_bounds(pred: Predictions, state, columns, specs, values, weight, *, n_resamples, confidence_level, seed,
                     child) -> tuple[dict[str, tuple[float, float, intervals.IntervalMethod]], dict[str, str]]:
    """Block-bootstrap intervals of forecast metrics: rows resampled in blocks within each series, in time order,
    so autocorrelated errors do not shrink the interval (:mod:`assess.intervals`, block-bootstrap notes).

    - mean-type metrics (:data:`MEAN_KEYS`) and RMSE, RMSPE, SSE as increasing functions of a mean
      (:data:`OF_MEAN`), unweighted: the studentized moving-block bootstrap
      :func:`~assess.intervals.block_bootstrap_mean_ci` of the per-row values, which the registry formula gives on
      a row state (:func:`~assess.metrics.forecast_state.row_state`) — block length by Politis–White per series;
    - the others (median and maximum error, R², explained variance) and every metric of weighted rows: the
      percentile stationary block bootstrap :func:`~assess.intervals.block_bootstrap_ci` of the registry formula on
      resampled sums (block length by Politis–White on the absolute errors).
    """
    series = None if pred.series is None else np.asarray(pred.series)
    times = pred.time
    n = int(np.asarray(pred.y_true).shape[0])
    W = float(n if weight is None else np.sum(weight))
    out: dict[str, tuple[float, float, intervals.IntervalMethod]] = {}
    y = np.asarray(pred.y_true, dtype=np.float64)
    yp = np.asarray(pred.y_pred, dtype=np.float64)
    parts = set().union(*(m.shared for m in specs), *(get(Task.FORECAST, OF_MEAN[m.key][0]).shared
                                                       for m in specs if m.key in OF_MEAN))
    per_row_columns = regression.row_values(y, yp, parts) | dict(columns)
    rows = forecast_state.row_state(per_row_columns, state) if per_row_columns else None
    percentile = []
    for m in specs:
        inner, finish, _ = OF_MEAN.get(m.key, (m.key, None, None))
        if weight is not None or inner not in MEAN_KEYS or rows is None:
            percentile.append(m)
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                per_row = np.asarray(get(Task.FORECAST, inner).compute(rows), dtype=np.float64)
        if per_row.shape != (n,) or not np.isfinite(per_row).all():
            percentile.append(m)
            continue
        res = intervals.block_bootstrap_mean_ci(per_row, series=series, times=times,
                                                transform=None if finish is None else (lambda v, f=finish: f(v, W)),
                                                n_resamples=n_resamples, confidence_level=confidence_level, seed=child)
        out[m.key] = (res.interval.low, res.interval.high, intervals.IntervalMethod(
            "block-bootstrap-studentized", n_resamples=n_resamples, seed=seed, scheme=res.scheme,
            block_rule="Politis–White"))
    notes: dict[str, str] = {}
    if percentile and n * n_resamples > PERCENTILE_BLOCK_MAX_CELLS:
        fits = PERCENTILE_BLOCK_MAX_CELLS // n
        advice = (f"with at most {fits:,} resamples it is computed" if fits >= 100 else
                  f"it is computed up to {PERCENTILE_BLOCK_MAX_CELLS // 100:,} rows with 100 resamples")
        for m in percentile:
            notes[m.key] = (f"no interval: the percentile block bootstrap this metric needs is skipped for "
                            f"{n_resamples:,} resamples of {n:,} rows (over {PERCENTILE_BLOCK_MAX_CELLS:,} resampled "
                            f"rows in all); {advice}; the mean-type metrics keep their studentized block-bootstrap "
                            "intervals")
        percentile = []
    if percentile:
        stat = _forecast_statistic(state, columns, percentile, y, yp, weight)
        res = intervals.block_bootstrap_ci(stat, n=n, series=series, times=times, block_values=np.abs(yp - y),
                                           point=np.array([values[m.key][0] for m in percentile]),
                                           n_resamples=n_resamples, confidence_level=confidence_level, seed=child)
        for j, m in enumerate(percentile):
            out[m.key] = (res.intervals[j].low, res.intervals[j].high, intervals.IntervalMethod(
                "block-bootstrap-percentile", n_resamples=n_resamples, seed=seed,
                scheme=res.scheme.replace("-block", " blocks"), block_rule="Politis–White",
                dropped=int(res.undefined[j])))
    return out, notes


def _forecast_statistic(state, columns, specs, y, yp, weight):
    """statistic(counts) of the registry formulas on resampled sums: the regression parts from
    :func:`~assess.metrics.resampling.regression_statistic`, the forecast sums from the forecast columns."""
    regression_specs = [m for m in specs if set(m.shared) <= set(regression.PARTS)]
    other = [m for m in specs if m not in regression_specs]
    reg_stat = resampling.regression_statistic(state, regression_specs, y, yp, weight)[0] if regression_specs \
        else None
    w = np.ones(y.shape[0]) if weight is None else weight
    names = list(columns)
    V = np.column_stack([columns[k] for k in names] + [np.ones(y.shape[0])]) * w[:, None] if names else None

    def stat(c):
        parts = []
        if reg_stat is not None:
            parts.append(np.asarray(reg_stat(c), dtype=np.float64).reshape(c.shape[0], -1))
        if other:
            S = c.astype(np.float64) @ V
            batch = forecast_state.batch_state({k: S[:, i] for i, k in enumerate(names)}, S[:, -1], y.shape[0],
                                               state)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with np.errstate(all="ignore"):
                    parts.append(np.column_stack([np.asarray(m.compute(batch), dtype=np.float64) for m in other]))
        joined = np.concatenate(parts, axis=1)
        # back to the order of `specs`
        order = [regression_specs.index(m) if m in regression_specs else len(regression_specs) + other.index(m)
                 for m in specs]
        return joined[:, order]
    return stat


def _forecast_baselines(pred: Predictions, specs, weight, context, season, level) -> dict[str, ForecastBaselines]:
    """Each metric of the naive, seasonal naive and drift forecasts of the file's actuals
    (:mod:`assess.metrics.forecast_baselines`), scored like the model on the rows where the baseline exists; the
    interval scores and skill scores have none (a baseline has no interval; its skill against itself is 0)."""
    keys = [m.key for m in specs if m.needs == "values" and "skill" not in m.shared]
    if not keys or context is None or context.reference is None:
        return {}
    values, counts = {}, {}
    for name in BASELINES:
        b = context.reference[name].to_numpy(dtype=np.float64)
        rows = np.flatnonzero(np.isfinite(b))
        counts[name] = rows.size
        if not rows.size:
            values[name] = {}
            continue
        sub = replace(forecast_state.subset(pred, rows), y_pred=b[rows], lower=None, upper=None)
        report = evaluate(sub, keys, ci=None, baselines=False, season=season, interval_level=level,
                          context=context.subset(rows))
        values[name] = report.values
    n = pred.n
    how = ("the naive, seasonal naive" + (f" (m = {context.season})" if context.season else "") + " and drift "
           "forecasts from the file's actuals (FPP3 §5.2), scored on the rows where each exists: "
           + ", ".join(f"{counts[b]:,}" for b in BASELINES) + f" of {n:,} rows")
    return {k: ForecastBaselines({b: float(values[b].get(k, np.nan)) for b in BASELINES}, how) for k in keys}


@dataclass(frozen=True)
class ForecastBaselines:
    """A forecast metric's values for the baseline forecasts (``naive``, ``seasonal_naive``, ``drift``)."""

    by_name: dict
    method: str

    def as_dict(self) -> dict[str, float]:
        return dict(self.by_name)
