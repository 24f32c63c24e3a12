r"""Multi-output regression: every regression metric per output, their uniform average and, for R² and explained
variance, their variance-weighted average — :func:`evaluate_outputs`.

A file with column pairs ``y_true_<name>``/``y_pred_<name>`` holds K outputs on the same rows
(`assess.inputs.assessment.Assessment.outputs`). Each output is an ordinary 1-D regression, assessed by
:func:`~assess.metrics.evaluate.evaluate` unchanged. The averages follow scikit-learn's ``multioutput`` conventions
(user guide, "Regression metrics"):

- ``uniform_average``: :math:`\bar m = \frac1K \sum_k m_k` for every metric key (so the average RMSE is the mean of
  the outputs' RMSEs, not the root of their mean MSE, as ``sklearn.metrics.root_mean_squared_error`` averages);
- ``variance_weighted`` (R² and explained variance only — scikit-learn defines it for those two and nothing else):
  :math:`\sum_k v_k m_k / \sum_k v_k` with :math:`v_k` the (weighted) variance of output k's ``y_true``. For R² this
  is :math:`1 - \sum_k SS_{res,k} / \sum_k SS_{tot,k}`. An output with constant ``y_true`` has :math:`v_k = 0` and
  drops out, as in scikit-learn; when every output is constant the average is undefined.

Undefined stays undefined: a uniform average over an output whose value is NaN is NaN with that output's reason
(scikit-learn's ``force_finite`` would put 1.0 or 0.0 in its place; see the registry entry of ``r2``).

Intervals, by the one layer's choice (:func:`~assess.metrics.evaluate.interval_method`): each output's own are those
``evaluate`` gives that output alone; under ``ci="auto"`` an average is analytic where the output's method extends to
an average on shared rows (:func:`_average_analytic`: t for the mean-type errors, the delta method for R² and
explained variance), and the rest (averages of RMSE, RMSPE, SSE and median errors, the variance-weighted averages)
come from one bootstrap over rows that resamples all outputs together (the rows are shared, so the outputs' errors
stay paired), through :func:`~assess.metrics.resampling.regression_statistic` of each output on the same count
matrix, the averages taken per resample — stopped, under ``"auto"``, once every bound is as precise as shown. Under
``"bootstrap"`` everything is resampled, the outputs' own intervals in that same run (same seed child, same draws as
``evaluate`` alone, so equal to it), so K outputs cost one resampling, not K + 1.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Callable, Mapping

import numpy as np

from assess import intervals
from assess.core.data import Predictions
from assess.core.formatting import UNDEFINED_IN_WORDS
from assess.inputs.assessment import Assessment
from assess.inputs.columns import quote
from assess.metrics import regression, resampling
from assess.metrics.evaluate import (OF_MEAN, VALUE_TASKS, MetricReport, MetricResult, evaluate, interval_method,
                                     no_interval_note)
from assess.metrics.registry import get
from assess.core.defaults import DEFAULT_RESAMPLES

__all__ = ["OutputsReport", "VARIANCE_WEIGHTED_KEYS", "evaluate_outputs", "evaluate_output_predictions"]

#: The keys scikit-learn's ``multioutput="variance_weighted"`` applies to.
VARIANCE_WEIGHTED_KEYS = ("r2", "explained_variance")


@dataclass(frozen=True, eq=False)
class OutputsReport:
    """The metrics of one model on a multi-output regression.

    ``by_output`` maps each output name to its own :class:`~assess.metrics.evaluate.MetricReport`; ``average`` is a
    MetricReport of the uniform averages (its ``params["outputs"]`` names the outputs averaged), so every consumer of
    a report (tables, JSON, CSV) takes it as is; ``variance_weighted`` maps ``r2`` / ``explained_variance`` (those
    asked for) to their variance-weighted average.
    """

    model: str
    outputs: tuple[str, ...]
    by_output: Mapping[str, MetricReport]
    average: MetricReport
    variance_weighted: Mapping[str, MetricResult]

    @property
    def variance_weighted_report(self) -> MetricReport:
        """The variance-weighted averages as a MetricReport (for the tables and JSON that take reports)."""
        a = self.average
        return MetricReport(task=a.task, model=a.model, n=a.n, classes=(),
                            results=tuple(self.variance_weighted.values()), table=None,
                            params=MappingProxyType({"outputs": self.outputs, "average": "variance_weighted"}),
                            ci=a.ci, confidence_level=a.confidence_level, n_resamples=a.n_resamples, seed=a.seed)

    def variance_weighted_dict(self, *, with_ci: bool = False) -> dict:
        """``{key: value}`` (``None`` when undefined) or ``{key: {"value", "low", "high"}}``, as ``to_dict``."""
        return self.variance_weighted_report.to_dict(with_ci=with_ci)


def evaluate_outputs(assessment: Assessment, model: str | None = None, keys=None, **options) -> OutputsReport:
    """Every metric of ``model`` per output of a multi-output ``assessment``, with the averages; ``options`` are
    those of :func:`evaluate_output_predictions`."""
    if not assessment.outputs:
        raise ValueError(f"{assessment.table.name} is not a multi-output regression (no `y_true_<name>`/"
                         "`y_pred_<name>` column pairs)")
    model = assessment.models[0] if model is None else model
    return evaluate_output_predictions({name: assessment.predictions(model, output=name)
                                        for name in assessment.outputs}, keys, **options)


def evaluate_output_predictions(predictions: Mapping[str, Predictions], keys=None, *, ci: str | None = None,
                                confidence_level: float = 0.95, n_resamples: int = DEFAULT_RESAMPLES, seed=0,
                                progress: Callable[[float], None] | None = None, baselines: bool = True,
                                bootstrap_method: str = "percentile") -> OutputsReport:
    """Per-output reports (:func:`~assess.metrics.evaluate.evaluate`, same options) and their averages.

    ``predictions`` maps output names to the 1-D regression predictions of one model on the same rows (same length,
    same weights). ``ci`` ``"bootstrap"`` or ``"auto"`` gives every output and every average an interval from one joint
    bootstrap of the rows; another method gives none, and the note says so, as ``evaluate`` does.
    """
    names = tuple(predictions)
    if not names:
        raise ValueError("`predictions` is empty: give at least one output")
    preds = [predictions[n] for n in names]
    bad = next((p for p in preds if p.task not in VALUE_TASKS), None)
    if bad is not None:
        raise ValueError(f"multi-output averages are for regression; output has task {bad.task.value!r}")
    sizes = {int(np.asarray(p.y_true).shape[0]) for p in preds}
    if len(sizes) != 1:
        raise ValueError(f"the outputs must share their rows (got lengths {sorted(sizes)})")
    weight = preds[0].weight
    weight = None if weight is None else np.asarray(weight, dtype=np.float64)
    bootstrapping = ci in ("bootstrap", "auto")
    # Each output's own intervals: evaluate()'s, the one layer's choice on that output alone (the Metrics page's for
    # it). Under "bootstrap" they come from the joint run below instead — the same seed child, rows and resamples,
    # so the same intervals from one resampling rather than K (a sequential run stops by all its columns, so under
    # "auto" that equality would not hold and evaluate() runs per output).
    joint_outputs = ci == "bootstrap"
    by_output = {n: evaluate(p, keys, ci=None if joint_outputs else ci, confidence_level=confidence_level,
                             n_resamples=n_resamples, seed=seed, baselines=baselines, bootstrap_method=bootstrap_method)
                 for n, p in zip(names, preds)}
    reports = list(by_output.values())
    first = reports[0]
    specs = [get(first.task, key) for key in first.keys]
    ys = [np.asarray(p.y_true, dtype=np.float64) for p in preds]
    yps = [np.asarray(p.y_pred, dtype=np.float64) for p in preds]
    variances = np.array([_variance(y, weight) for y in ys])
    weighted = [s for s in specs if s.key in VARIANCE_WEIGHTED_KEYS]

    # ---- point values and baselines ----
    uniform = {s.key: _uniform(s.key, names, reports) for s in specs}
    vw = {s.key: _variance_weighted(s.key, names, reports, variances) for s in weighted}

    # ---- intervals of the averages: analytic where the layer's method extends to an average, else one bootstrap ----
    bounds: dict[tuple[str, str], tuple[float, float, object]] = {}
    if bootstrapping:
        for s in specs:
            if np.isfinite(uniform[s.key][0]):
                found = _average_analytic(s, ci, ys, yps, weight, confidence_level)
                if found is not None:
                    bounds[("uniform", s.key)] = found
    # an output's column is keyed ("output", name): no output name can clash with "uniform" or "variance_weighted"
    # a maximum gets no interval (`assess.metrics.evaluate.MAXIMUM_NO_INTERVAL`): it is not resampled
    resampled = [s for s in specs if s.kind != "maximum"]
    columns = [(("output", n), s) for n, r in zip(names, reports) for s in resampled
               if joint_outputs and r[s.key].defined]
    columns += [("uniform", s) for s in resampled
                if np.isfinite(uniform[s.key][0]) and ("uniform", s.key) not in bounds]
    columns += [("variance_weighted", s) for s in weighted if s in resampled and np.isfinite(vw[s.key][0])]
    if bootstrapping and columns:
        point = {**{(("output", n), s.key): r[s.key].value for n, r in zip(names, reports) for s in specs},
                 **{("uniform", k): v for k, (v, _) in uniform.items()},
                 **{("variance_weighted", k): v for k, (v, _) in vw.items()}}
        bounds |= _joint_bootstrap(names, preds, weight, specs, columns, point, n_resamples=n_resamples,
                                   confidence_level=confidence_level, seed=seed, method=bootstrap_method,
                                   progress=progress, sequential=ci == "auto")
        if joint_outputs:
            by_output = {n: _with_bounds(r, n, bounds, ci) for n, r in by_output.items()}
    elif progress is not None:
        progress(1.0)
    no_interval = ci is not None and ci not in ("bootstrap", "auto")

    def result(spec, kind, value, reason, base, how_baseline):
        lo, hi, how = bounds.get((kind, spec.key), (np.nan, np.nan, None))
        note = no_interval_note(None, ci, spec) if no_interval or (ci is not None and spec.kind == "maximum") else None
        return MetricResult(spec.key, spec.name, value, lo, hi, how, reason, note,
                            MappingProxyType(base), how_baseline)

    listed = ", ".join(names)
    average_results = []
    for s in specs:
        value, reason = uniform[s.key]
        base = {b: float(np.mean([r[s.key].baselines[b] for r in reports])) for b in first[s.key].baselines}
        average_results.append(result(s, "uniform", value, reason, base,
                                      f"the uniform average of each output's baseline ({listed})" if base else None))
    weighted_results = {}
    for s in weighted:
        value, reason = vw[s.key]
        base = {b: _weighted_mean([r[s.key].baselines[b] for r in reports], variances) for b in
                first[s.key].baselines}
        weighted_results[s.key] = result(s, "variance_weighted", value, reason, base,
                                         "the variance-weighted average of each output's baseline" if base else None)
    average = MetricReport(task=first.task, model=first.model, n=first.n, classes=(), results=tuple(average_results),
                           table=None, params=MappingProxyType({"outputs": names, "average": "uniform"}), ci=ci,
                           confidence_level=float(confidence_level), n_resamples=int(n_resamples), seed=seed)
    return OutputsReport(first.model, names, MappingProxyType(by_output), average, MappingProxyType(weighted_results))


def _variance(y: np.ndarray, weight: np.ndarray | None) -> float:
    """The (weighted) variance of ``y`` about its (weighted) mean: scikit-learn's variance weight of an output."""
    mean = np.average(y, weights=weight)
    return float(np.average((y - mean) ** 2, weights=weight))


def _undefined_reason(key, names, reports) -> str:
    undefined = [(n, r[key].reason or UNDEFINED_IN_WORDS) for n, r in zip(names, reports) if not r[key].defined]
    return "; ".join(f"undefined for output {quote(n)}: {why}" for n, why in undefined)


def _uniform(key, names, reports) -> tuple[float, str | None]:
    values = np.array([r[key].value for r in reports])
    if np.all(np.isfinite(values)):
        return float(values.mean()), None
    return float("nan"), _undefined_reason(key, names, reports)


def _weighted_mean(values, variances) -> float:
    """:math:`\\sum_k v_k m_k / \\sum_k v_k` over the outputs of positive variance; NaN when none has one."""
    values = np.asarray(values, dtype=np.float64)
    live = variances > 0
    if not live.any() or not np.all(np.isfinite(values[live])):
        return float("nan")
    return float(np.dot(variances[live], values[live]) / variances[live].sum())


def _variance_weighted(key, names, reports, variances) -> tuple[float, str | None]:
    if not np.any(variances > 0):
        return float("nan"), "every output's y_true is constant: all variance weights are 0"
    value = _weighted_mean([r[key].value for r in reports], variances)
    if np.isfinite(value):
        return value, None
    live = [r for r, v in zip(reports, variances) if v > 0]
    return value, _undefined_reason(key, [n for n, v in zip(names, variances) if v > 0], live)


@dataclass(frozen=True)
class _Variance:
    """A pseudo metric for :func:`~assess.metrics.resampling.regression_statistic`: the resample's weighted variance
    of ``y_true``, the variance weight of its output (it reads the same ``true_var`` sums as R²)."""

    key: str = "variance_of_y_true"
    shared: tuple[str, ...] = ("true_var",)

    @staticmethod
    def compute(state):
        return state.ss_true / state.weight_sum


def _average_analytic(spec, ci, ys, yps, weight, confidence_level):
    """The analytic interval of the uniform average of ``spec`` over the outputs, when the layer's method for the
    metric (:func:`~assess.metrics.evaluate.interval_method`) extends to an average of outputs on shared rows, else
    None (bootstrapped):

    - ``"t"`` for a metric that is the mean of a per-row value (MAE, MSE, mean error, MAPE, sMAPE, MSPE): the
      average over outputs is the mean over rows of the outputs' average per-row value, so its t interval
      (:func:`assess.intervals.mean_ci`) — the outputs' errors on a row stay paired; not RMSE, RMSPE or SSE, whose
      average of roots (totals) is no function of one mean;
    - ``"delta"`` (R², explained variance): the average of the outputs' influence-function pseudo-values
      (:func:`~assess.metrics.regression.delta_pseudo_values`) is that of the average, an influence function being
      linear, so the t interval of their per-row average is its delta-method interval.

    The median absolute error's order statistics do not extend to an average of medians: bootstrapped."""
    how = interval_method(spec, ci, weight is not None)
    if how == "t" and spec.key not in OF_MEAN:
        parts = set(spec.shared)
        per_output = []
        for y, yp in zip(ys, yps):
            rows = regression.RegressionState(weight_sum=np.ones(y.shape[0]), n=1, batch=True,
                                              **regression.row_values(y, yp, parts))
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                per_output.append(np.asarray(spec.compute(rows), dtype=np.float64))
        c = intervals.mean_ci(np.mean(per_output, axis=0), weights=weight, confidence_level=confidence_level,
                              bounds=spec.range)
        of = "mean over rows of the outputs' average per-row value"
    elif how == "delta":
        pseudo = [regression.delta_pseudo_values(spec.key, y, yp, weight) for y, yp in zip(ys, yps)]
        c = intervals.mean_ci(np.mean(pseudo, axis=0), weights=weight, confidence_level=confidence_level,
                              bounds=spec.range)
        c = replace(c, how=replace(c.how, key="delta-method"))
        of = "average of the outputs' influence-function pseudo-values"
    else:
        return None
    if not (np.isfinite(c.low) and np.isfinite(c.high)):
        return None
    return float(c.low), float(c.high), replace(c.how, of=of)


def _joint_bootstrap(names, preds, weight, specs, columns, point, *, n_resamples, confidence_level, seed, method,
                     progress, sequential):
    """Intervals of ``columns`` — (("output", name), spec), ("uniform", spec) or ("variance_weighted", spec) — from
    one count matrix per chunk: every output's :func:`~assess.metrics.resampling.regression_statistic` on the same
    counts, then the averages of the resampled values.

    The seed child is the one :func:`~assess.metrics.evaluate.evaluate` uses for a regression, and the rows and
    resamples are the same, so without ``sequential`` each output's interval equals the one ``evaluate`` gives that
    output alone; ``sequential`` (``ci="auto"``) stops once every column's bounds are as precise as shown."""
    statistics, layout = [], {}
    for p in preds:
        y = np.asarray(p.y_true, dtype=np.float64)
        yp = np.asarray(p.y_pred, dtype=np.float64)
        stat, layout = resampling.regression_statistic(None, list(specs) + [_Variance()], y, yp, weight)
        statistics.append(stat)
    position = {s.key: j for j, s in enumerate(specs)}
    output_index = {n: k for k, n in enumerate(names)}

    def statistic(counts):
        per_output = np.stack([stat(counts) for stat in statistics])      # (K, b, specs + 1)
        v = per_output[:, :, -1]                                          # (K, b) variance weights
        live = v > 0
        total = np.where(live, v, 0.0).sum(axis=0)
        out = []
        for kind, s in columns:
            m = per_output[:, :, position[s.key]]
            if kind == "uniform":
                out.append(m.mean(axis=0))
            elif kind == "variance_weighted":
                with np.errstate(invalid="ignore", divide="ignore"):
                    out.append(np.where(live, v * m, 0.0).sum(axis=0) / np.where(total > 0, total, np.nan))
            else:
                out.append(m[output_index[kind[1]]])
        return np.column_stack(out)

    values = np.array([point[(kind, s.key)] for kind, s in columns])
    # the seed child evaluate() uses: all intervals of a call, and each output's alone, read the same resamples
    child = np.random.SeedSequence(int(seed) if isinstance(seed, (int, np.integer)) else 0).spawn(1)[0]
    res = intervals.bootstrap_ci(statistic, point=values, n_resamples=n_resamples, confidence_level=confidence_level,
                                 seed=child, method=method, progress=progress, sequential=sequential, **layout)
    bounds = {}
    for j, (kind, s) in enumerate(columns):
        rows = "i.i.d. rows" + (f", all {len(preds)} outputs resampled together"
                                if kind in ("uniform", "variance_weighted") else "")
        ci_ = res.intervals[j]
        bounds[(kind, s.key)] = (ci_.low, ci_.high, replace(ci_.how, seed=seed, rows=rows))
    return bounds


def _with_bounds(report: MetricReport, name: str, bounds, ci) -> MetricReport:
    """``report`` (computed without intervals) with the joint run's intervals of output ``name``."""
    results = []
    for r in report.results:
        lo, hi, how = bounds.get((("output", name), r.key), (np.nan, np.nan, None))
        spec = get(report.task, r.key)
        note = no_interval_note(r.note, ci, spec) if spec.kind == "maximum" else r.note
        results.append(replace(r, low=lo, high=hi, how=how, note=note))
    return replace(report, results=tuple(results), ci=ci)
