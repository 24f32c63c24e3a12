r"""Computational cost of each model (ISO/IEC TS 4213, reference 000, clause 6.6): latency, throughput, energy,
efficiency, and the headline that weighs a gain in a metric against its cost.

Where the numbers come from
    A predictions file with a ``latency_ms`` column (and optionally ``energy_j``): every row is one *sample*. Without
    ``batch_size`` the row's latency is the time taken to predict that sample (6.6.2). With ``batch_size`` the row's
    latency and energy are those of the whole batch it was predicted in, so each sample's share is
    ``latency_ms / batch_size`` (rows of one batch repeat the batch's time; no batch id is needed, because every
    row counts once). `cost_from_assessment` reads them.

    A separate tidy *cost table* (``model, latency_ms[, batch_size][, energy_j]``, no ground truth): every row is
    one *call* of the model on ``batch_size`` samples (1 without the column). The call stands for ``batch_size``
    samples, each of latency ``latency_ms / batch_size``. `cost_from_table` reads it. Both views agree: a cost table
    whose calls are written out one row per sample is the predictions-file form of the same measurements.

The statistics (each row r has per-sample latency :math:`\ell_r`, per-sample energy :math:`e_r` and stands for
:math:`w_r` samples: 1 in a predictions file, ``batch_size`` in a cost table)

.. math::

    \text{latency\_mean\_ms} = \frac{\sum_r w_r \ell_r}{\sum_r w_r}, \qquad
    \text{throughput\_per\_s} = \frac{1000}{\text{latency\_mean\_ms}} \quad (6.6.3), \qquad
    \text{energy\_per\_sample\_j} = \frac{\sum_r w_r e_r}{\sum_r w_r} \quad (6.6.5)

and ``latency_pXX_ms`` is the XX-th percentile of the per-sample latencies with every row written out
:math:`w_r` times, by NumPy's default ("linear", type 7 of Hyndman & Fan) rule — so with one sample per row it is
``numpy.percentile`` of the column. Throughput is samples per second when the model runs back to back at the
measured latency (no parallelism); efficiency (6.6.4) is a chosen metric per millisecond of mean latency and per
joule per sample.

Intervals (:func:`_bounds`, the one layer's choice as for the metrics): under ``ci="auto"`` a predictions file (one
sample per row) gets analytic intervals — Student t for the means, 1000 / (the mean's interval) for the throughput,
order statistics (binomial ranks) for the percentiles; a cost table, whose calls stand for several samples, gets
the seeded percentile bootstrap over calls (`assess.intervals.bootstrap_ci`, whose resample-count matrix gives every
statistic, percentiles included, from one sort), stopped once its bounds are as precise as shown; ``"bootstrap"``
resamples in both. The rows of one batch in a predictions file are treated as independent, which narrows the
interval when batches are large.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from assess import intervals
from assess.inputs.columns import label_strings, numeric_column, normalise_name, quote
from assess.core.defaults import DEFAULT_RESAMPLES
from assess.core.errors import AssessError, InputError
from assess.core.formatting import percent_level, significant
from assess.metrics import get
from assess.inputs.assessment import Assessment

#: SPEC's cost keys (6.6), in display order; a contract like the metric keys.
COST_KEYS = ("latency_mean_ms", "latency_p50_ms", "latency_p95_ms", "latency_p99_ms", "throughput_per_s",
             "energy_per_sample_j")
#: The percentile behind each ``latency_pXX_ms`` key.
PERCENTILES = {"latency_p50_ms": 50.0, "latency_p95_ms": 95.0, "latency_p99_ms": 99.0}
#: Display names (screens never show the raw keys) and what each means in one line.
COST_NAMES = {
    "latency_mean_ms": "Mean latency (ms per sample)",
    "latency_p50_ms": "Median latency (ms)",
    "latency_p95_ms": "95th-percentile latency (ms)",
    "latency_p99_ms": "99th-percentile latency (ms)",
    "throughput_per_s": "Throughput (samples per second)",
    "energy_per_sample_j": "Energy per sample (J)",
}
COST_MEANINGS = {
    "latency_mean_ms": "Total prediction time divided by the number of samples (ISO 4213 6.6.2).",
    "latency_p50_ms": "Half of the samples took at most this long (6.6.2).",
    "latency_p95_ms": "95% of the samples took at most this long: the tail users notice (6.6.2).",
    "latency_p99_ms": "99% of the samples took at most this long (6.6.2).",
    "throughput_per_s": "Samples per second when run back to back: 1000 / mean latency (6.6.3).",
    "energy_per_sample_j": "Total energy divided by the number of samples (6.6.5).",
}
#: Which cost the trade-off chart and the headline weigh by default.
DEFAULT_COST = "latency_p95_ms"


@dataclass(frozen=True)
class CostEstimate:
    """One cost statistic of one model: its value and interval (NaN bounds when none was asked or none applies) and
    how the interval was computed (``how``; None without one)."""

    key: str
    value: float
    low: float
    high: float
    how: intervals.IntervalMethod | None = None

    @property
    def method(self) -> str | None:
        return None if self.how is None else str(self.how)


@dataclass(frozen=True)
class ModelCost:
    """The cost statistics of one model. ``n_rows`` rows were measured, standing for ``n_samples`` samples;
    ``per_batch`` says whether latencies were measured per batch; ``estimates`` holds one `CostEstimate` per key
    (energy only when the data has it); ``latencies`` the per-sample latency of each row (for the charts)."""

    model: str
    n_rows: int
    n_samples: int
    per_batch: bool
    estimates: tuple[CostEstimate, ...]
    latencies: np.ndarray
    weights: np.ndarray
    confidence_level: float
    n_resamples: int
    seed: int

    def __getitem__(self, key: str) -> CostEstimate:
        for e in self.estimates:
            if e.key == key:
                return e
        raise KeyError(f"{key!r} is not measured for {self.model} (keys: {', '.join(e.key for e in self.estimates)})")

    def __contains__(self, key: str) -> bool:
        return any(e.key == key for e in self.estimates)

    def to_dict(self, *, with_ci: bool = True) -> dict:
        """``{key: {"value", "low", "high", "method"}}`` (or ``{key: value}`` without intervals) — the CLI's ``cost``
        JSON."""
        def number(v):
            return float(v) if np.isfinite(v) else None
        return {e.key: ({"value": number(e.value), "low": number(e.low), "high": number(e.high), "method": e.method}
                        if with_ci else number(e.value)) for e in self.estimates}


@dataclass(frozen=True)
class CostInput:
    """Validated per-row cost arrays of one model: per-sample latency, per-sample energy (or None), samples per row."""

    latency: np.ndarray
    energy: np.ndarray | None
    weight: np.ndarray
    per_batch: bool


# --- reading -------------------------------------------------------------------------------------------------------

def has_cost(assessment: Assessment) -> bool:
    """Whether the file carries cost columns (``latency_ms`` or ``energy_j``)."""
    return bool(assessment.roles.latency_ms or assessment.roles.energy_j)


def _checked(frame: pd.DataFrame, column: str, file: str, *, what: str, row_numbers: np.ndarray) -> np.ndarray:
    """The column's numbers, refusing text, missing values, negatives and infinities with the first bad row."""
    values = numeric_column(frame, column)
    bad_rules = ((~np.isfinite(values), "is missing or not a finite number"),
                 (np.isfinite(values) & (values < 0), "is negative: a " + what + " cannot be below zero"))
    for mask, rule in bad_rules:
        if mask.any():
            first = int(np.flatnonzero(mask)[0])
            raw = frame[column].iloc[first]
            raise InputError(f"has {int(mask.sum()):,} value{'s' if mask.sum() != 1 else ''} that {rule} (first at "
                             f"row {int(row_numbers[first]):,}: {quote(raw)})", file=file, column=column)
    return values


def _cost_input(frame: pd.DataFrame, *, latency: str | None, energy: str | None, batch: str | None, file: str,
                rows_are_calls: bool, row_numbers: np.ndarray) -> CostInput:
    size = np.ones(len(frame))
    if batch:
        size = _checked(frame, batch, file, what="batch size", row_numbers=row_numbers)
        bad = (size < 1) | (size != np.round(size))
        if bad.any():
            first = int(np.flatnonzero(bad)[0])
            raise InputError(f"must hold whole numbers of at least 1 (first bad value at row "
                             f"{int(row_numbers[first]):,}: {quote(frame[batch].iloc[first])})", file=file,
                             column=batch)
    lat = (_checked(frame, latency, file, what="latency", row_numbers=row_numbers) / size if latency
           else np.full(len(frame), np.nan))
    en = _checked(frame, energy, file, what="energy", row_numbers=row_numbers) / size if energy else None
    weight = size if rows_are_calls else np.ones(len(frame))
    return CostInput(lat, en, weight, per_batch=bool(batch))


def cost_from_assessment(assessment: Assessment, *, models=None, ci: str | None = "auto",
                         confidence_level: float = 0.95, n_resamples: int = DEFAULT_RESAMPLES,
                         seed: int = 0) -> dict[str, ModelCost]:
    """{model: ModelCost} from a predictions file's ``latency_ms``/``energy_j`` (and ``batch_size``) columns; every
    row is one sample (see the module docstring). Raises `AssessError` when the file has no cost column and
    `InputError` naming the column and row of a negative, missing or non-numeric value."""
    r = assessment.roles
    if not has_cost(assessment):
        raise AssessError(f"{assessment.table.name} has no cost column: add `latency_ms` (per sample, or per batch "
                          "with `batch_size`) or `energy_j`, or give a separate cost table")
    chosen = list(models) if models else list(assessment.models)
    out = {}
    for model in chosen:
        if model not in assessment.model_rows:
            raise AssessError(f"no model {quote(model)} in {assessment.table.name} "
                              f"(models: {', '.join(assessment.models)})")
        rows = assessment.model_rows[model]
        part = assessment.frame.iloc[rows]
        data = _cost_input(part, latency=r.latency_ms, energy=r.energy_j, batch=r.batch_size,
                           file=assessment.table.name, rows_are_calls=False, row_numbers=rows + 2)
        out[model] = summarise(model, data, ci=ci, confidence_level=confidence_level, n_resamples=n_resamples,
                               seed=seed)
    return out


#: Column names a tidy cost table may use (compared after `assess.inputs.columns.normalise_name`).
_TABLE_COLUMNS = {"model": ("model", "model_name", "system"), "latency": ("latency_ms", "latency"),
                  "energy": ("energy_j", "energy"), "batch": ("batch_size", "batch_n")}


def cost_from_table(frame: pd.DataFrame, *, file: str = "cost table", ci: str | None = "auto",
                    confidence_level: float = 0.95, n_resamples: int = DEFAULT_RESAMPLES,
                    seed: int = 0) -> dict[str, ModelCost]:
    """{model: ModelCost} from a tidy cost table: one row per call of a model (``model``, ``latency_ms``, optional
    ``batch_size`` and ``energy_j``). Without a ``model`` column the table measures one model, named after ``file``'s
    stem."""
    by_norm = {normalise_name(c): c for c in frame.columns}
    found = {role: next((by_norm[n] for n in names if n in by_norm), None) for role, names in _TABLE_COLUMNS.items()}
    if not found["latency"] and not found["energy"]:
        raise InputError(f"has no `latency_ms` or `energy_j` column (columns: "
                         f"{', '.join(map(str, list(frame.columns)[:12]))})", file=file)
    if found["model"]:
        names = label_strings(frame[found["model"]]).to_numpy(dtype=object)
        missing = pd.isna(names)
        if missing.any():
            raise InputError(f"has an empty model name (first at row {int(np.flatnonzero(missing)[0]) + 2:,})",
                             file=file, column=found["model"])
    else:
        names = np.full(len(frame), str(file).rsplit("/", 1)[-1].split(".")[0] or "model", dtype=object)
    out = {}
    for model in dict.fromkeys(names):
        rows = np.flatnonzero(names == model)
        data = _cost_input(frame.iloc[rows], latency=found["latency"], energy=found["energy"], batch=found["batch"],
                           file=file, rows_are_calls=True, row_numbers=rows + 2)
        out[str(model)] = summarise(str(model), data, ci=ci, confidence_level=confidence_level,
                                    n_resamples=n_resamples, seed=seed)
    return out


# --- statistics ------------------------------------------------------------------------------------------------------

def weighted_percentiles(sorted_values: np.ndarray, counts: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Percentiles ``q`` (0–100) of the multiset holding ``sorted_values[j]`` ``counts[..., j]`` times, per row of
    ``counts`` (shape (b, R) → (b, len(q))), by NumPy's default linear rule.

    With every value written out, position :math:`h = (N - 1)\\,q/100` of the sorted sample (N = its size) lies
    between elements :math:`\\lfloor h\\rfloor` and :math:`\\lfloor h\\rfloor + 1`; the element at position k is
    the first value whose cumulative count exceeds k, found with one pass of comparisons per resample.

    >>> weighted_percentiles(np.array([1., 2., 10.]), np.array([[1, 1, 1]]), np.array([50., 95.]))
    array([[2. , 9.2]])
    """
    counts = np.atleast_2d(counts)
    cum = np.cumsum(counts, axis=1)                              # (b, R)
    total = cum[:, -1].astype(float)
    h = (total[:, None] - 1) * (np.asarray(q, float)[None, :] / 100.0)   # (b, m)
    lo = np.floor(h)
    frac = h - lo
    hi = np.minimum(lo + 1, total[:, None] - 1)

    # Each row of ``cum`` is non-decreasing; shifting row r by r × (largest total + 1) makes the flattened matrix
    # sorted, so one searchsorted finds every resample's positions (O(b·R) for the cumsum, not per percentile).
    width = cum.shape[1]
    shift = (np.arange(cum.shape[0], dtype=np.float64) * (float(total.max()) + 1))[:, None]
    flat = (cum + shift).ravel()

    def at(k):                                                   # value at 0-based position k of each resample
        idx = np.searchsorted(flat, (k + shift).ravel(), side="right").reshape(k.shape) \
            - (np.arange(cum.shape[0]) * width)[:, None]
        return sorted_values[np.minimum(idx, len(sorted_values) - 1)]

    return at(lo) + frac * (at(hi) - at(lo))


def summarise(model: str, data: CostInput, *, ci: str | None = "auto", confidence_level: float = 0.95,
              n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> ModelCost:
    """The cost statistics of one model's rows with intervals by ``ci`` (None: none; see :func:`_bounds`)."""
    has_latency = bool(np.isfinite(data.latency).all())
    keys = [k for k in COST_KEYS if (k != "energy_per_sample_j" and has_latency)
            or (k == "energy_per_sample_j" and data.energy is not None)]
    order = np.argsort(data.latency, kind="stable") if has_latency else np.arange(len(data.latency))
    lat, w = data.latency[order], data.weight[order]
    en = data.energy[order] if data.energy is not None else None
    q = np.array([PERCENTILES[k] for k in keys if k in PERCENTILES])
    unit_weights, w_int = bool(np.all(w == 1)), w.astype(np.int64)

    def statistic(counts):
        counts = np.atleast_2d(counts)
        samples = counts @ w                                     # samples in each resample
        columns = []
        if has_latency:
            mean = (counts @ (w * lat)) / samples
            pct = weighted_percentiles(lat, counts if unit_weights else counts * w_int[None, :], q)
            columns += [mean[:, None], pct, (1000.0 / mean)[:, None]]
        if en is not None:
            columns.append(((counts @ (w * en)) / samples)[:, None])
        return np.hstack(columns)

    point = statistic(np.ones((1, len(lat)), dtype=np.int64))[0]
    bounds = _bounds(ci, keys, point, statistic, lat, en, unit_weights, confidence_level=confidence_level,
                     n_resamples=n_resamples, seed=seed)
    estimates = tuple(CostEstimate(k, float(v), *bounds.get(k, (np.nan, np.nan, None)))
                      for k, v in zip(keys, point))
    return ModelCost(model, len(lat), int(round(w.sum())), data.per_batch, estimates, lat, w, confidence_level,
                     n_resamples, seed)


def _bounds(ci, keys, point, statistic, lat, en, unit_weights, *, confidence_level, n_resamples, seed) -> dict:
    """{key: (low, high, method)}: the choice of :func:`assess.metrics.evaluate.interval_method` for these
    statistics. Under ``"auto"``, when every row is one sample (a predictions file): the t interval of the mean
    latency and energy (:func:`assess.intervals.mean_ci`), its image under 1000 / x for the throughput (a decreasing
    function maps a 95 % interval to one), and the distribution-free order-statistic interval of each percentile
    (:func:`assess.intervals.quantile_ci`; none below ~300 rows for the 99th, which then says so in its method's
    absence); a cost table's calls stand for several samples each and are resampled whole by the seeded bootstrap,
    which under ``"auto"`` stops once its bounds are as precise as shown. ``"bootstrap"``: the bootstrap for all."""
    if ci is None:
        return {}
    out = {}
    analytic = ci == "auto" and unit_weights
    if analytic:
        values = {"latency_mean_ms": lat, "energy_per_sample_j": en}
        for key in keys:
            if key in values:
                c = intervals.mean_ci(values[key], confidence_level=confidence_level, bounds=(0.0, np.inf))
                out[key] = (c.low, c.high, replace(c.how, of="mean of per-sample values"))
            elif key in PERCENTILES:
                c = intervals.quantile_ci(lat, PERCENTILES[key] / 100, confidence_level=confidence_level)
                if np.isfinite(c.low):
                    out[key] = (c.low, c.high, c.how)
        if "latency_mean_ms" in out:
            lo, hi, how = out["latency_mean_ms"]
            out["throughput_per_s"] = (1000.0 / hi, 1000.0 / lo if lo > 0 else np.inf,
                                       replace(how, of="1000 / the mean latency's interval"))
        return out
    boot = intervals.bootstrap_ci(statistic, n=len(lat), point=point, n_resamples=n_resamples,
                                  confidence_level=confidence_level, seed=seed, sequential=ci == "auto")
    for key, c in zip(keys, boot.intervals):
        out[key] = (c.low, c.high, replace(c.how, seed=seed, rows="calls" if not unit_weights else "rows"))
    return out


def efficiency(metric_value: float, cost: ModelCost) -> dict[str, float]:
    """ISO 4213 6.6.4 efficiency: the metric per millisecond of mean latency (``per_ms``) and per joule per sample
    (``per_j``); NaN where the cost is missing or zero. Meant for higher-is-better metrics (accuracy, R²): an error
    per millisecond rewards slowness (`efficiency_applies`)."""
    def ratio(key):
        if key not in cost:
            return float("nan")
        denominator = cost[key].value
        return float(metric_value / denominator) if denominator > 0 else float("nan")
    return {"per_ms": ratio("latency_mean_ms"), "per_j": ratio("energy_per_sample_j")}


def efficiency_applies(task, metric: str) -> bool:
    """Whether a metric per unit of cost reads as efficiency: only when higher values of the metric are better."""
    return get(task, metric).direction == "higher"


def pareto_front(metric: dict[str, float], cost: dict[str, float], *, higher_is_better: bool = True) -> list[str]:
    """Models no other model beats on both the metric and the cost (at least as good on both, better on one).

    >>> pareto_front({"a": .9, "b": .8, "c": .95}, {"a": 1., "b": 2., "c": 5.})
    ['a', 'c']
    """
    names = [m for m in metric if np.isfinite(metric[m]) and m in cost and np.isfinite(cost[m])]
    sign = 1 if higher_is_better else -1

    def dominates(a, b):
        better_metric, cheaper = sign * metric[a] >= sign * metric[b], cost[a] <= cost[b]
        return better_metric and cheaper and (sign * metric[a] > sign * metric[b] or cost[a] < cost[b])

    return [m for m in names if not any(dominates(o, m) for o in names if o != m)]


# --- the trade-off and its headline ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class TradeOffPoint:
    """One model on the accuracy–cost plane: the metric with its interval, the cost with its interval, and whether
    no other model is both better and cheaper (the Pareto front)."""

    model: str
    metric: float
    metric_low: float
    metric_high: float
    cost: float
    cost_low: float
    cost_high: float
    on_front: bool


def trade_off(reports, costs: dict[str, ModelCost], *, metric: str, cost_key: str = DEFAULT_COST
              ) -> list[TradeOffPoint]:
    """The models that have both ``metric`` (from their `assess.metrics.evaluate.MetricReport`) and ``cost_key``,
    with the Pareto front marked (by the metric's registry direction; cheaper is better)."""
    models = [m for m in reports if m in costs and cost_key in costs[m] and metric in reports[m]]
    if not models:
        return []
    direction = get(reports[models[0]].task, metric).direction
    values = {m: reports[m][metric].value for m in models}
    cost_values = {m: costs[m][cost_key].value for m in models}
    front = set(pareto_front(values, cost_values, higher_is_better=direction != "lower"))
    return [TradeOffPoint(m, values[m], reports[m][metric].low, reports[m][metric].high, cost_values[m],
                          costs[m][cost_key].low, costs[m][cost_key].high, m in front) for m in models]


@dataclass(frozen=True)
class Headline:
    """Two models weighed: ``better`` beats ``other`` on the metric by ``difference`` (interval ``low``–``high``,
    from a bootstrap of the difference) at ``cost_ratio`` times the other's cost; ``sentence`` says it."""

    better: str
    other: str
    metric: str
    difference: float
    low: float
    high: float
    cost_key: str
    cost_ratio: float
    sentence: str


def cost_document(assessment: Assessment, costs: dict[str, ModelCost], *, models, metric: str, decision=None,
                  confidence_level: float = 0.95, n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> dict:
    """The ``cost``, ``efficiency`` and ``cost_headline`` entries of the metrics JSON (`assess.cli.cost_section`),
    which the report's report.json carries too: each model's costs, ``metric`` per millisecond and per joule (null
    for a lower-is-better metric), and the :func:`headline` sentence — or ``cost_headline_reason`` when its
    comparison cannot run. ``models``: the models assessed (the metric's values are theirs)."""
    from assess.metrics.reports import compute_reports

    kwargs = {} if decision is None or not assessment.task.is_classification else {"decision": decision}
    values = compute_reports(assessment, models=[m for m in costs if m in models or not models], keys=[metric],
                             **kwargs)
    per_cost = {m: {f"{metric}_{k}": v for k, v in efficiency(values[m][metric].value, c).items()}
                for m, c in costs.items() if m in values} if efficiency_applies(assessment.task, metric) else None
    out = {"cost": {m: c.to_dict() for m, c in costs.items()}, "efficiency": per_cost}
    try:
        line = headline(assessment, costs, metric=metric, confidence_level=confidence_level,
                        n_resamples=n_resamples, seed=seed, **kwargs)
    except AssessError as exc:   # e.g. a metric the bootstrap comparison does not take: the costs still stand
        return out | {"cost_headline": None, "cost_headline_reason": str(exc)}
    return out | {"cost_headline": line.sentence if line else None}


def headline(assessment: Assessment, costs: dict[str, ModelCost], *, metric: str, models=None,
             cost_key: str = DEFAULT_COST, decision=None, confidence_level: float = 0.95,
             n_resamples: int = DEFAULT_RESAMPLES,
             seed: int = 0) -> Headline | None:
    """"Model B is 2.3 points more accurate (95 % CI 1.1–3.5) and 4.1× slower at the 95th percentile."

    ``models`` names the two models (default: the best model by ``metric`` and the cheapest other one by
    ``cost_key``). The difference's interval is the seeded bootstrap of `assess.stats.compare` — paired when the two
    models were scored on the same samples, unpaired otherwise. Metrics on a 0–1 scale are said in points (× 100).
    None when fewer than two models have both numbers.
    """
    from assess.metrics.reports import compute_reports
    from assess.stats.compare import compare, data_design

    names = [m for m in (models or assessment.models) if m in costs and cost_key in costs[m]]
    if len(names) < 2:
        return None
    spec = get(assessment.task, metric)
    kwargs = {} if decision is None else {"decision": decision}
    reports = compute_reports(assessment, models=names, keys=[metric], **kwargs)
    values = {m: reports[m][metric].value for m in names if np.isfinite(reports[m][metric].value)}
    if len(values) < 2:
        return None
    sign = -1 if spec.direction == "lower" else 1
    if models:
        a, b = models[:2]
        better, other = (a, b) if sign * values[a] >= sign * values[b] else (b, a)
    else:
        better = max(values, key=lambda m: sign * values[m])
        other = min((m for m in values if m != better), key=lambda m: costs[m][cost_key].value)
    data = {m: assessment.predictions(m) for m in (better, other)}
    design = data_design(data)
    test = "paired_bootstrap" if design.kind == "paired" else "unpaired_bootstrap"
    result = compare(data, test=test, metric=metric, confidence_level=confidence_level, n_resamples=n_resamples,
                     seed=seed, **kwargs).result
    effect = result.effect                                        # better − other
    scale, unit = (100.0, " points") if spec.range == (0.0, 1.0) else (1.0, "")
    diff, low, high = (sign * scale * v for v in (effect.value, effect.interval.low, effect.interval.high))
    low, high = min(low, high), max(low, high)
    ratio = costs[better][cost_key].value / costs[other][cost_key].value if costs[other][cost_key].value > 0 \
        else float("nan")
    metric_words = spec.name[0].lower() + spec.name[1:] if spec.name[1:2].islower() else spec.name   # "ROC AUC" stays
    word = "more accurate" if metric == "accuracy" else f"better on {metric_words}"
    level = percent_level(confidence_level)
    where = {"latency_mean_ms": "on mean latency", "latency_p50_ms": "at the median",
             "latency_p95_ms": "at the 95th percentile", "latency_p99_ms": "at the 99th percentile",
             "throughput_per_s": "in throughput", "energy_per_sample_j": "in energy per sample"}[cost_key]
    if not np.isfinite(ratio):
        how = "the cost ratio is undefined (a cost of zero)"
    elif f"{max(ratio, 1 / ratio):.1f}" == "1.0":   # equal at the shown precision: never "1.0× slower"
        how = "uses the same energy per sample" if cost_key == "energy_per_sample_j" else f"as fast {where}"
    elif cost_key == "throughput_per_s":     # more samples per second is cheaper
        how = f"{ratio:.1f}× faster" if ratio >= 1 else f"{1 / ratio:.1f}× slower"
        how += f" {where}"
    elif cost_key == "energy_per_sample_j":
        how = f"uses {ratio:.1f}× the energy per sample" if ratio >= 1 else \
            f"uses {1 / ratio:.1f}× less energy per sample"
    else:
        how = f"{ratio:.1f}× slower {where}" if ratio >= 1 else f"{1 / ratio:.1f}× faster {where}"
    between = "–" if low >= 0 else " to "       # "1.1–3.5" reads; "-0.6–-0.2" does not
    interval = f"{level} CI {significant(low, 2)}{between}{significant(high, 2)}"
    if low <= 0 <= high:                         # the interval holds no difference: say so, not "better"
        sentence = (f"{better} and {other} do not clearly differ on {metric_words} ({better} by {significant(diff, 2)}{unit}, "
                    f"{interval}); {better} is {how}.")
    else:
        sentence = f"{better} is {significant(diff, 2)}{unit} {word} ({interval}) than {other} and {how}."
    return Headline(better, other, metric, diff, low, high, cost_key, ratio, sentence)


def cost_frame(costs: dict[str, ModelCost], *, efficiency_by_model: dict[str, dict[str, float]] | None = None,
               metric_name: str = "") -> pd.DataFrame:
    """Display table: one row per model, one column per cost ("value (low–high)", display names), the number of
    samples measured and, with ``efficiency_by_model``, the metric per ms and per joule."""
    from assess.core.formatting import bounds, number

    rows = []
    for model, c in costs.items():
        row = {"Model": model, "Samples measured": f"{c.n_samples:,}"}
        for e in c.estimates:
            interval = bounds(e.low, e.high)
            row[COST_NAMES[e.key]] = number(e.value) + (f" ({interval})" if interval else "")
        if efficiency_by_model and model in efficiency_by_model:
            eff = efficiency_by_model[model]
            row[f"{metric_name} per ms"] = number(eff["per_ms"])
            if np.isfinite(eff["per_j"]):
                row[f"{metric_name} per joule"] = number(eff["per_j"])
        rows.append(row)
    return pd.DataFrame(rows)
