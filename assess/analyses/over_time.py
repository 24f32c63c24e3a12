r"""Is it getting worse over time: every metric per period of the file's time stamps, with its interval, and a
change test of each period against a reference, Benjamini–Hochberg adjusted across the periods.

A *period* is a calendar day, week (Monday to Sunday), month or quarter of the time-stamp column (the ``timestamp``
role: a column named ``timestamp``, ``time``, ``date``, ``datetime`` or ``ds``, or the one chosen on the Data page),
or one of N windows of (nearly) equal row counts in time order. A period is named by its first day (ISO date), a
window by its first time stamp. Each period's numbers come from :func:`assess.metrics.evaluate.evaluate` on its own
rows (:func:`assess.metrics.breakdown.evaluate_groups`), so they are the registry formula and the interval the
Metrics page shows for the same rows.

The *reference* is the first period, the first k periods or a date range. Each other period is compared with the
reference rows (those of the period itself left out, so the two samples are disjoint) by the test for independent
samples that fits the metric, the ones the registry's unpaired tests run (:mod:`assess.stats.registry`):

- a proportion (accuracy, recall, precision …; its registry entry has counts): the two-proportion χ² test on the
  2 × 2 table period / reference × counted / not (:func:`assess.stats.counts.chi2_independence`, no continuity
  correction), Fisher's exact test when an expected count is below 5, and Newcombe's hybrid-score interval of the
  difference p_period − p_reference from the two Wilson intervals (:func:`assess.intervals.mover.newcombe_difference`);
- the binary ROC AUC: DeLong's test for independent samples (:func:`assess.stats.scores.unpaired_delong`);
- every other metric (F1, MCC, log loss, MAE, R² …): the two-sample bootstrap of the difference
  (:func:`assess.stats.scores.unpaired_bootstrap`; for label metrics the exact multinomial draw of the confusion
  cells the Slices page uses), shift p-value and percentile interval.

Counts (tp, fp, …) grow with the rows and are not tested. The p-values of one model and metric are adjusted across
the tested periods by Benjamini–Hochberg (:func:`assess.stats.corrections.adjust_pvalues`, ``fdr_bh``): a few of a
year of monthly tests come out below 0.05 by chance alone. Rows of one period are treated as independent of each
other and of the reference's; predictions that share a cause over time (a batch, a customer) make the p-values too
small: read them as a screen.

``n`` counts a period's rows and ``n_labelled`` those with a ground truth; rows without one are counted, and
estimating a metric on them (performance estimation) is left to the caller of :meth:`OverTime.to_dict`.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from assess.analyses.slices import (MIN_EXPECTED, SLOW_RESAMPLES, cells_bootstrap, cells_metric, metric_input,
                                    REGRESSION_GROUPS)
from assess.core.data import Predictions, Task
from assess.core.decision import Decision
from assess.core.defaults import DEFAULT_RESAMPLES
from assess.core.errors import AssessError, shorten
from assess.core.formatting import UNDEFINED_IN_WORDS, class_phrase, name_in_sentence, number, p_value
from assess.inputs.assessment import Assessment
from assess.inputs.columns import quote
from assess.inputs.timestamps import distinct_dates
from assess.intervals.mover import newcombe_difference
from assess.intervals.proportions import wilson_bounds
from assess.metrics.breakdown import evaluate_groups
from assess.metrics.evaluate import MetricResult, evaluate
from assess.metrics.forecast_state import coded_series, forecast_context, subset
from assess.metrics.registry import get, headline, slice_test_metric
from assess.stats.bridge import registry_metric
from assess.stats.corrections import adjust_pvalues
from assess.stats.counts import chi2_independence, fisher_exact
from assess.stats.scores import unpaired_bootstrap, unpaired_delong

__all__ = ["PERIODS", "OverTime", "Reference", "over_time", "parse_reference", "time_column", "has_time",
           "default_keys", "default_period", "MAX_PERIODS"]

#: Calendar periods and their pandas period frequency (weeks run Monday to Sunday, as ISO 8601 weeks).
PERIODS = {"day": "D", "week": "W-SUN", "month": "M", "quarter": "Q"}
#: Most periods: a day-by-day view of several years is a chart nobody reads and a thousand tests.
MAX_PERIODS = 400
#: Tasks with an over-time view: one truth and one prediction per row (forecasts: their regression metrics).
TASKS = (Task.BINARY, Task.MULTICLASS, Task.REGRESSION, Task.FORECAST)
#: Binary metrics whose value is about the positive class: the sentence names it ("recall for positive (1) cases").
_POSITIVE_METRICS = {"precision", "recall", "f1", "fbeta", "npv", "fpr", "fnr", "fdr", "for", "positive_lr",
                     "negative_lr", "average_precision", "prevalence", "predicted_positive_rate"}


# ------------------------------------------------------------------------------------------------------ inputs


def time_column(assessment: Assessment) -> str | None:
    """The file's time-stamp column when its task has an over-time view, else None (a multi-output regression too:
    its metrics are per output, and the view follows one metric of one prediction)."""
    return assessment.roles.timestamp if assessment.task in TASKS and not assessment.outputs else None


def has_time(assessment: Assessment | None) -> bool:
    """Whether the Over time page and the report's section apply to the file."""
    return assessment is not None and time_column(assessment) is not None


def default_keys(assessment: Assessment) -> tuple[str, ...]:
    """The metrics followed over time when none are chosen: the metric the tests across slices use (accuracy, MAE)
    and the task's headline metric (the binary ROC AUC when the file has scores)."""
    has_scores = assessment.predictions().scores is not None
    return tuple(dict.fromkeys((slice_test_metric(assessment.task), headline(assessment.task, has_scores=has_scores))))


#: The fewest periods a default period gives: fewer is no trend; a coarser period is chosen while it gives this many.
MIN_DEFAULT_PERIODS = 4
#: The windows of step-number time stamps, or of stamps too close together for four days.
DEFAULT_WINDOWS = 8


def default_period(assessment: Assessment):
    """The period the report (and the page first) uses: the coarsest of quarter, month, week and day giving at least
    `MIN_DEFAULT_PERIODS` periods, else `DEFAULT_WINDOWS` equal-size windows."""
    stamps, dated = _stamps(assessment.frame[time_column(assessment)], time_column(assessment))
    if dated:
        for period in ("quarter", "month", "week", "day"):
            if pd.Series(stamps).dt.to_period(PERIODS[period]).nunique() >= MIN_DEFAULT_PERIODS:
                return period
    return DEFAULT_WINDOWS


@dataclass(frozen=True)
class Reference:
    """What every period is compared with: the ``first`` k periods, or the rows from ``start`` to ``end`` (both
    days included)."""

    first: int | None = 1
    start: pd.Timestamp | None = None
    end: pd.Timestamp | None = None

    def __post_init__(self):
        if self.first is None:
            if self.start is None or self.end is None:
                raise AssessError("a reference range needs a start and an end date")
            if self.end < self.start:
                raise AssessError(f"the reference range ends ({self.end.date()}) before it starts "
                                  f"({self.start.date()})")
        elif isinstance(self.first, bool) or not isinstance(self.first, (int, np.integer)) or self.first < 1:
            raise AssessError(f"the reference must be the first k ≥ 1 periods (got {self.first!r})")


def parse_reference(text: str | None) -> Reference:
    """``None``/``"first"`` → the first period; ``"3"`` → the first 3 periods; ``"2024-01-01:2024-03-31"`` → that
    date range, both days included (``--reference``).

    >>> parse_reference("2024-01-01:2024-03-31").end
    Timestamp('2024-03-31 00:00:00')
    >>> parse_reference("3").first
    3
    """
    if text is None or str(text).strip().lower() == "first":
        return Reference()
    text = str(text).strip()
    if text.isdigit():
        return Reference(int(text))
    parts = text.split(":")
    if len(parts) != 2:
        raise AssessError(f"--reference must be 'first', a number of first periods or START:END dates "
                          f"(got {shorten(repr(text))})")
    bounds = pd.to_datetime(pd.Series(parts), errors="coerce", format="mixed")
    if bounds.isna().any():
        bad = parts[int(np.flatnonzero(bounds.isna().to_numpy())[0])]
        raise AssessError(f"--reference: {shorten(repr(bad))} is not a date (expected e.g. 2024-01-01:2024-03-31)")
    return Reference(None, bounds.iloc[0].normalize(), bounds.iloc[1].normalize())


def _stamps(values: pd.Series, name: str) -> tuple[np.ndarray, bool]:
    """(stamps, dated): datetime64 stamps of the column, or its numbers (step numbers) with ``dated`` False; a
    value that is neither is refused, naming its row."""
    if pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values):
        v = values.to_numpy(dtype=float)
        if not np.isfinite(v).all():
            i = int(np.flatnonzero(~np.isfinite(v))[0])
            raise AssessError(f"time-stamp column {quote(name)} has {int((~np.isfinite(v)).sum()):,} empty "
                              f"cell(s) (first at row {i + 1})")
        return v, False
    parsed, codes = distinct_dates(values)
    bad = parsed.isna().to_numpy()[codes]
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise AssessError(f"time-stamp column {quote(name)}: {int(bad.sum()):,} value(s) are not dates (row "
                          f"{i + 1}: {shorten(repr(values.iloc[i]))})")
    return parsed.to_numpy(dtype="datetime64[ns]")[codes], True


def _periods(stamps: np.ndarray, dated: bool, period) -> tuple[np.ndarray, list]:
    """(code per row, period starts in order): calendar periods of dated stamps, or ``period`` equal-size windows
    in time order (ties split between windows by row order)."""
    if isinstance(period, str):
        if period not in PERIODS:
            raise AssessError(f"the period must be one of {', '.join(PERIODS)} or a number of windows "
                              f"(got {period!r})")
        if not dated:
            raise AssessError("the time stamps are step numbers, not dates: calendar periods need dates; choose a "
                              "number of equal-size windows instead")
        starts = pd.Series(stamps).dt.to_period(PERIODS[period]).dt.start_time
        codes, labels = pd.factorize(starts, sort=True)
        return codes, list(labels)
    if isinstance(period, bool) or not isinstance(period, (int, np.integer)) or period < 2:
        raise AssessError(f"the number of windows must be a whole number ≥ 2 (got {period!r})")
    if period > stamps.size:
        raise AssessError(f"{int(period):,} windows need at least as many rows (got {stamps.size:,})")
    order = np.argsort(stamps, kind="stable")
    codes = np.empty(stamps.size, dtype=np.int64)
    for i, part in enumerate(np.array_split(order, int(period))):
        codes[part] = i
    starts = [stamps[part[0]] for part in np.array_split(order, int(period))]
    return codes, [pd.Timestamp(s) if dated else float(s) for s in starts]


def period_key(start) -> str:
    """The JSON key of a period: its start as an ISO date (with the time when it is not midnight), or the step
    number of undated stamps."""
    if isinstance(start, pd.Timestamp):
        return start.date().isoformat() if start == start.normalize() else start.isoformat()
    return f"{start:g}"


def period_words(start, period) -> str:
    """A period in a sentence: "March 2024", "2024 Q1", "the week of 4 March 2024", "4 March 2024", "the window
    from 2024-03-04"."""
    if not isinstance(start, pd.Timestamp):
        return f"the window from step {start:g}"
    if period == "month":
        return f"{start:%B %Y}"
    if period == "quarter":
        return f"{start.year} Q{start.quarter}"
    if period == "week":
        return f"the week of {start.day} {start:%B %Y}"
    if period == "day":
        return f"{start.day} {start:%B %Y}"
    return f"the window from {period_key(start)}"


# ------------------------------------------------------------------------------------------------------ result


@dataclass(frozen=True, eq=False)
class OverTime:
    """Metrics per period and their change against the reference.

    ``periods``: one row per model and period — ``model``, ``period`` (start), ``key`` (JSON key, ISO date),
    ``words`` (in a sentence), ``n``, ``n_labelled``, ``reference`` (the period is wholly in the reference).
    ``metrics``: one row per model, period and metric — ``model``, ``period``, ``metric`` (registry key), ``name``,
    ``value``, ``low``, ``high``, ``method``, ``reason``.
    ``changes``: one row per model, metric and period outside the reference — ``model``, ``period``, ``metric``,
    ``test``, ``value``, ``reference_value``, ``difference`` (period − reference), ``low``/``high`` (its interval),
    ``pvalue``, ``p_adjusted`` (Benjamini–Hochberg across the periods), ``worse`` (by the metric's direction),
    ``sentence``, ``reason`` (why not tested).
    """

    task: Task
    column: str
    period: str | int
    reference: Reference
    reference_words: str
    keys: tuple[str, ...]
    periods: pd.DataFrame
    metrics: pd.DataFrame
    changes: pd.DataFrame
    confidence_level: float
    #: Each model's unlabelled rows' period keys, row for row as `Assessment.unlabelled_predictions` holds them
    unlabelled_periods: Mapping[str, np.ndarray] = field(default_factory=dict)

    def to_dict(self, estimated: Callable[[str, str], dict | None] | None = None) -> dict:
        """``{model: {period start: {"n", "n_labelled", "observed": {key: {value, low, high}}, "change": {key:
        {difference, low, high, pvalue, p_adjusted}}}}}`` (``assess metrics --by-time``; the reference's own periods
        have an empty ``"change"``). ``estimated(model, period key)``: the performance estimated on a period's
        unlabelled rows, ``{key: {value, low, high}}``; it is called only for periods with unlabelled rows and
        written under ``"estimated"`` beside ``"observed"``."""
        out: dict = {}
        for row in self.periods.itertuples(index=False):
            entry = {"n": int(row.n), "n_labelled": int(row.n_labelled), "observed": {}, "change": {}}
            out.setdefault(row.model, {})[row.key] = entry
            if estimated is not None and row.n_labelled < row.n:
                value = estimated(row.model, row.key)
                if value is not None:
                    entry["estimated"] = value
        for r in self.metrics.itertuples(index=False):
            out[r.model][period_key(r.period)]["observed"][r.metric] = {"value": _num(r.value), "low": _num(r.low),
                                                                       "high": _num(r.high)}
        for r in self.changes.itertuples(index=False):
            out[r.model][period_key(r.period)]["change"][r.metric] = {
                "difference": _num(r.difference), "low": _num(r.low), "high": _num(r.high),
                "pvalue": _num(r.pvalue), "p_adjusted": _num(r.p_adjusted)}
        return out

    def sentences(self, model: str, metric: str) -> list[str]:
        """The change sentences of one model and metric, in time order (tested periods only)."""
        rows = self.changes[(self.changes["model"] == model) & (self.changes["metric"] == metric)]
        return [s for s in rows["sentence"] if isinstance(s, str)]     # untested periods have none (NaN)


def _num(v):
    return None if v is None or not np.isfinite(v) else float(v)


# ------------------------------------------------------------------------------------------------------ analysis


def over_time(assessment: Assessment, period="month", *, reference: Reference = Reference(), models=None, keys=None,
              decision: Decision = Decision(), ci: str | None = "auto", confidence_level: float = 0.95,
              n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0, test_resamples: int = DEFAULT_RESAMPLES
              ) -> OverTime:
    """Every metric of ``keys`` (default :func:`default_keys`) per ``period`` (``"day"``, ``"week"``, ``"month"``,
    ``"quarter"`` or a number of equal-size windows) of the file's time stamps, for each model, with its interval
    (``ci`` as in :func:`assess.metrics.evaluate.evaluate`), and the change tests of the module notes against
    ``reference``."""
    column = time_column(assessment)
    if column is None:
        why = ("it has several outputs" if assessment.outputs and assessment.roles.timestamp
               else f"its task is {assessment.task.label}" if assessment.roles.timestamp
               else "it has no time-stamp column (name one `timestamp` or `date`, or choose it on the Data page)")
        raise AssessError(f"{assessment.table.name}: no over-time view: {why}")
    task = assessment.task
    keys = list(default_keys(assessment) if keys is None else ([keys] if isinstance(keys, str) else keys))
    for key in keys:
        get(task, key)
    chosen = list(models or assessment.models)
    for m in chosen:
        if m not in assessment.models:
            raise AssessError(f"{assessment.table.name}: no model {quote(m)} (models: "
                              f"{', '.join(map(quote, assessment.models))})")
    stamps, dated = _stamps(assessment.frame[column], column)
    if reference.first is None and not dated:
        raise AssessError("a reference date range needs dated time stamps; these are step numbers — use the first "
                          "k periods")
    truth = _labelled(assessment)
    options = dict(ci=ci, confidence_level=confidence_level, n_resamples=n_resamples, seed=seed)
    if task.is_classification:
        options["decision"] = decision
    period_rows, metric_rows, change_rows, unlabelled_periods = [], [], [], {}
    for model in chosen:
        rows = assessment.model_rows[model]
        pred = assessment.predictions(model)
        model_stamps, labelled = _model_stamps(assessment, model, column, stamps, truth)
        codes, starts = _periods(model_stamps, dated, period)
        if len(starts) > MAX_PERIODS:
            raise AssessError(f"{len(starts):,} periods of a {period} are too many to show and test (at most "
                              f"{MAX_PERIODS:,}); choose a longer period")
        context = None
        if task is Task.FORECAST:
            pred, series_names = coded_series(pred)
            context = forecast_context(pred, None, series_names)
        if reference.first is not None:
            in_reference = codes < reference.first
            reference_period = np.arange(len(starts)) < reference.first
        else:
            end = reference.end + pd.Timedelta(days=1)
            in_reference = (model_stamps >= reference.start.to_datetime64()) & (model_stamps < end.to_datetime64())
            reference_period = np.array([bool(in_reference[codes == i].all()) for i in range(len(starts))])
        if not in_reference.any():
            raise AssessError(f"model {quote(model)}: no row falls in "
                              f"{_reference_words(reference, starts, period)}")
        # the rows the predictions hold: the labelled ones; the periods count every row, the unlabelled too
        if (~labelled).any():
            unlabelled_periods[model] = np.array([period_key(s) for s in starts])[codes[~labelled]]
        scored = _scored(pred.n, labelled, model)
        scored_codes, ref_idx = codes[scored], np.flatnonzero(in_reference[scored])
        if not ref_idx.size:
            raise AssessError(f"model {quote(model)}: no labelled row falls in "
                              f"{_reference_words(reference, starts, period)}")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            groups = {int(g): (idx, report) for g, idx, report in
                      evaluate_groups(pred, scored_codes, keys, context=context, **options)}
            # the reference's counts, for the two-proportion tests of periods outside it
            ref_report = evaluate(subset(pred, ref_idx), keys, baselines=False, **{**options, "ci": None}) \
                if task is not Task.FORECAST else None
        sizes = np.bincount(codes, minlength=len(starts))
        labelled_sizes = np.bincount(codes, weights=labelled, minlength=len(starts))
        for i, start in enumerate(starts):
            period_rows.append({"model": model, "period": start, "key": period_key(start),
                                "words": period_words(start, period), "n": int(sizes[i]),
                                "n_labelled": int(labelled_sizes[i]), "reference": bool(reference_period[i])})
            results = groups[i][1].results if i in groups else [_no_truth(get(task, key)) for key in keys]
            for r in results:
                metric_rows.append({"model": model, "period": start, "metric": r.key, "name": r.name,
                                    "value": r.value, "low": r.low, "high": r.high, "method": r.method,
                                    "reason": r.reason})
        words = _reference_words(reference, starts, period)
        for key in keys:
            rows_k = []
            for i, start in enumerate(starts):
                if reference_period[i]:
                    continue
                if i not in groups:
                    rows_k.append({"model": model, "period": start, "metric": key, **_EMPTY,
                                   "reason": NO_TRUTH, "_words": "", "_low": math.nan, "_high": math.nan})
                    continue
                idx, report = groups[i]
                others = np.setdiff1d(ref_idx, idx, assume_unique=True)
                whole = ref_report is not None and others.size == ref_idx.size
                row = _change(pred, key, idx, others, report[key], decision=decision,
                              confidence_level=confidence_level, n_resamples=test_resamples, seed=seed,
                              reference_result=ref_report[key] if whole else None)
                rows_k.append({"model": model, "period": start, "metric": key, **row,
                               "_words": period_words(start, period), "_low": report[key].low,
                               "_high": report[key].high})
            tested = [r for r in rows_k if np.isfinite(r["pvalue"])]
            if tested:
                for r, p in zip(tested, adjust_pvalues([r["pvalue"] for r in tested], method="fdr_bh")):
                    r["p_adjusted"] = float(p)
            spec = get(task, key)
            for r in rows_k:
                r["sentence"] = _sentence(r, spec, words, assessment, confidence_level)
                for private in ("_words", "_low", "_high"):
                    del r[private]
            change_rows += rows_k
    periods = pd.DataFrame(period_rows, columns=["model", "period", "key", "words", "n", "n_labelled", "reference"])
    metrics = pd.DataFrame(metric_rows, columns=["model", "period", "metric", "name", "value", "low", "high",
                                                 "method", "reason"])
    changes = pd.DataFrame(change_rows, columns=["model", "period", "metric", "test", "value", "reference_value",
                                                 "difference", "low", "high", "pvalue", "p_adjusted", "worse",
                                                 "reason", "sentence"])
    return OverTime(task, column, period, reference, _reference_words(reference, starts, period), tuple(keys), periods,
                    metrics, changes, float(confidence_level), unlabelled_periods)


#: Why a period without a labelled row has no observed metric (its performance can only be estimated).
NO_TRUTH = "no row of this period has a ground truth"


def period_estimate(assessment: Assessment, result: OverTime, model: str, period: str, *,
                    decision: Decision = Decision(), confidence_level: float = 0.95,
                    n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> dict | None:
    """The performance of the period ``period`` (its key, an ISO date) estimated on its unlabelled rows by CBPE
    (`assess.analyses.estimation`, calibrated on every labelled row of the model, as the file's own estimate):
    ``{key: {value, low, high}}`` for the metrics of ``result`` it estimates, else for every metric it estimates;
    None when the period has no unlabelled row or the file allows no estimate (no probability scores)."""
    from assess.analyses.estimation import estimate_predictions
    from assess.metrics.forecast_state import subset

    at = np.flatnonzero(result.unlabelled_periods.get(model, np.array([], dtype=object)) == period)
    if not at.size:
        return None
    try:
        found = estimate_predictions(assessment.predictions(model), subset(assessment.unlabelled_predictions(model), at),
                                     decision, level=confidence_level, n_resamples=n_resamples, seed=seed).as_json()
    except AssessError:
        return None
    values = {k: v for k, v in found.items() if isinstance(v, dict) and "value" in v}
    return {k: v for k, v in values.items() if k in result.keys} or values


def labelled_periods(assessment: Assessment, model: str, period) -> tuple[np.ndarray, list]:
    """(codes, starts): each of ``model``'s labelled rows' period, an index into the period ``starts``, row for row as
    its predictions hold them (periods as :func:`over_time` makes them, unlabelled rows included)."""
    column = time_column(assessment)
    if column is None:
        raise AssessError(f"{assessment.table.name}: no time-stamp column")
    stamps, dated = _stamps(assessment.frame[column], column)
    model_stamps, labelled = _model_stamps(assessment, model, column, stamps, _labelled(assessment))
    codes, starts = _periods(model_stamps, dated, period)
    return codes[_scored(assessment.predictions(model).n, labelled, model)], starts


def period_positions(assessment: Assessment, model: str, period, start) -> np.ndarray:
    """The positions, among ``model``'s predictions (as `assess.analyses.rows.rows_at` takes them), of the rows of
    the period that begins at ``start`` (a period start of :func:`over_time`'s ``periods``), for its drill-down."""
    codes, starts = labelled_periods(assessment, model, period)
    keys = [period_key(s) for s in starts]
    if period_key(start) not in keys:
        raise AssessError(f"model {quote(model)} has no rows in the period beginning {period_key(start)}")
    return np.flatnonzero(codes == keys.index(period_key(start)))


def _model_stamps(assessment: Assessment, model: str, column: str, stamps: np.ndarray, truth: np.ndarray):
    """(stamps, labelled) of every row of ``model``: its rows of the file's table, then its unlabelled rows (rows
    without a ground truth, which the assessment sets apart; `Assessment.unlabelled_frame`), so that a period of
    predictions whose labels have not arrived is a period too."""
    rows = assessment.model_rows[model]
    unlabelled = assessment.unlabelled_frame(model)
    if unlabelled is None or not len(unlabelled):
        return stamps[rows], truth[rows]
    later = _stamps(unlabelled[column], column)[0]
    if later.dtype != stamps.dtype:
        raise AssessError(f"time-stamp column {quote(column)}: the rows without a ground truth hold "
                          f"{'dates' if later.dtype.kind == 'M' else 'numbers'}, the others not")
    return np.concatenate([stamps[rows], later]), np.r_[truth[rows], np.zeros(later.size, bool)]


def _no_truth(spec) -> MetricResult:
    return MetricResult(spec.key, spec.name, math.nan, reason=NO_TRUTH)


def _scored(n: int, labelled: np.ndarray, model: str) -> np.ndarray:
    """Positions, among a model's rows, of the rows its predictions hold: all of them, or the labelled ones."""
    if n == labelled.size:
        return np.arange(n)
    if n == int(labelled.sum()):
        return np.flatnonzero(labelled)
    raise AssessError(f"model {quote(model)}: its predictions hold {n:,} rows, but it has {labelled.size:,} rows "
                      f"({int(labelled.sum()):,} labelled)")


def _labelled(assessment: Assessment) -> np.ndarray:
    """Whether each row of the file has a ground truth (every truth column filled)."""
    roles = assessment.roles
    columns = [c for c in ([roles.y_true] + [t for _, t, _ in roles.outputs]) if c]
    return assessment.frame[columns].notna().all(axis=1).to_numpy() if columns else \
        np.ones(len(assessment.frame), dtype=bool)


def _reference_words(reference: Reference, starts, period) -> str:
    if reference.first is None:
        return f"the reference period {reference.start.date().isoformat()} to {reference.end.date().isoformat()}"
    if reference.first == 1 or len(starts) <= 1:
        return f"the first period ({period_words(starts[0], period)})" if starts else "the first period"
    last = starts[min(reference.first, len(starts)) - 1]
    return (f"the first {min(reference.first, len(starts))} periods ({period_words(starts[0], period)} to "
            f"{period_words(last, period)})")


_EMPTY = {"test": None, "value": math.nan, "reference_value": math.nan, "difference": math.nan, "low": math.nan,
          "high": math.nan, "pvalue": math.nan, "p_adjusted": math.nan, "worse": None, "reason": None}


def _change(pred: Predictions, key: str, idx: np.ndarray, ref: np.ndarray, result, *, decision: Decision,
            confidence_level: float, n_resamples: int, seed: int, reference_result=None) -> dict:
    """The test of the module notes of one metric, period rows ``idx`` against reference rows ``ref``."""
    spec = get(pred.task, key)
    row = dict(_EMPTY, value=result.value)
    if spec.kind == "count":
        return row | {"reason": "a count grows with the rows of a period; it is not compared"}
    if idx.size < 2 or ref.size < 2:
        return row | {"reason": "fewer than 2 rows in the period or the reference"}
    if not result.defined:
        return row | {"reason": f"{UNDEFINED_IN_WORDS} in this period: {result.reason}"}
    weighted = pred.weight is not None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if (spec.proportion is not None and not weighted and result.counts is not None
                and pred.task in (Task.BINARY, Task.MULTICLASS)):
            other = reference_result if reference_result is not None else _reference_result(pred, key, ref, decision)
            if other.counts is None or other.counts[1] <= 0 or result.counts[1] <= 0:
                return row | {"reason": f"{UNDEFINED_IN_WORDS} in the reference"}
            (x, n), (x_ref, n_ref) = result.counts, other.counts
            table = np.array([[x, n - x], [x_ref, n_ref - x_ref]], dtype=float)
            expected = table.sum(1, keepdims=True) * table.sum(0, keepdims=True) / table.sum()
            fisher = bool((expected < MIN_EXPECTED).any())
            test = (fisher_exact if fisher else chi2_independence)(np.rint(table).astype(np.int64))
            (p1, l1, u1), (p2, l2, u2) = (wilson_bounds(x, n, confidence_level=confidence_level),
                                          wilson_bounds(x_ref, n_ref, confidence_level=confidence_level))
            low, high = newcombe_difference(p1, l1, u1, p2, l2, u2)
            row |= {"test": "Fisher's exact test" if fisher else "two-proportion χ² test",
                    "reference_value": x_ref / n_ref, "pvalue": float(test.pvalue), "low": float(low),
                    "high": float(high)}
        elif key == "roc_auc" and pred.task is Task.BINARY and pred.scores is not None and not weighted:
            y, s = np.asarray(pred.y_true), np.asarray(pred.scores)
            try:
                test = unpaired_delong(y[idx], s[idx], y[ref], s[ref], confidence_level=confidence_level)
            except AssessError as exc:
                return row | {"reason": str(exc)}
            row |= {"test": "DeLong (independent samples)", "reference_value": result.value - test.effect.value,
                    "pvalue": float(test.pvalue), "low": test.effect.interval.low, "high": test.effect.interval.high}
        else:
            if pred.task is Task.FORECAST and spec.group not in REGRESSION_GROUPS:
                return row | {"reason": "needs the whole series' context (MASE, interval scores): not compared "
                                        "period by period"}
            cells = cells_metric(pred, spec)
            if cells is not None and not weighted:
                labels = metric_input(pred, cells, decision)
                out = cells_bootstrap(pred, cells, labels, idx, ref, n_resamples=n_resamples,
                                       confidence_level=confidence_level, seed=seed)
                if out is None:
                    return row | {"reason": f"{UNDEFINED_IN_WORDS} in the reference"}
                difference, p, low, high = out
                row |= {"test": f"unpaired bootstrap ({n_resamples:,} resamples)", "pvalue": float(p),
                        "reference_value": result.value - difference, "low": low, "high": high}
            else:
                metric = registry_metric(pred.task, key, classes=pred.classes)
                y = metric_input(pred, metric, decision)
                w = None if pred.weight is None else np.asarray(pred.weight)
                b = n_resamples if metric.vectorized else min(n_resamples, SLOW_RESAMPLES)
                truth = np.asarray(pred.y_true)
                try:
                    test = unpaired_bootstrap(truth[idx], y[idx], truth[ref], y[ref], metric=metric, n_resamples=b,
                                              confidence_level=confidence_level, seed=seed,
                                              weight_a=None if w is None else w[idx],
                                              weight_b=None if w is None else w[ref], vectorized=metric.vectorized,
                                              metric_name=key)
                except AssessError as exc:
                    return row | {"reason": str(exc)}
                row |= {"test": f"unpaired bootstrap ({b:,} resamples)", "pvalue": float(test.pvalue),
                        "reference_value": result.value - test.statistic, "low": test.effect.interval.low,
                        "high": test.effect.interval.high}
    row["difference"] = row["value"] - row["reference_value"]
    if not np.isfinite(row["pvalue"]):
        row["reason"] = row["reason"] or f"the test is {UNDEFINED_IN_WORDS} on these rows"
    row["worse"] = bool(row["difference"] > 0) if spec.direction == "lower" else bool(row["difference"] < 0)
    return row


def _reference_result(pred: Predictions, key: str, ref: np.ndarray, decision: Decision):
    """The metric on reference rows (its counts), without an interval."""
    options = {"decision": decision} if pred.task.is_classification else {}
    return evaluate(subset(pred, ref), [key], baselines=False, ci=None, **options)[key]


def _sentence(row: dict, spec, reference_words: str, assessment: Assessment, confidence_level: float) -> str | None:
    """"In March 2024 accuracy fell to 0.87 (0.85–0.89) from 0.92 in the first period (January 2024); the drop is
    significant, adjusted p = 0.003." — None for a period that was not tested."""
    if not np.isfinite(row["pvalue"]) or not np.isfinite(row["p_adjusted"]):
        return None
    name = name_in_sentence(spec.name)
    if assessment.task is Task.BINARY and spec.key in _POSITIVE_METRICS and assessment.positive is not None:
        name = f"{name} for {class_phrase(assessment.positive, role='positive')} cases"
    value, ref = row["value"], row["reference_value"]
    verb, noun = ("fell to", "drop") if value < ref else ("rose to", "rise") if value > ref else ("stayed at", "change")
    low, high = row["_low"], row["_high"]
    interval = f" ({number(low)}–{number(high)})" if np.isfinite(low) and np.isfinite(high) else ""
    alpha = round(1.0 - confidence_level, 12)      # 0.95 → 0.05, free of binary noise
    word = "significant" if row["p_adjusted"] < alpha else "not significant"
    adjusted = p_value(row["p_adjusted"], alpha).removeprefix("p ")
    if noun == "change":       # the same value: nothing to call a drop or a rise
        return (f"In {row['_words']} {name} {verb} {number(value)}{interval}, as in {reference_words}; adjusted p "
                f"{adjusted}.")
    return (f"In {row['_words']} {name} {verb} {number(value)}{interval} from {number(ref)} in {reference_words}; "
            f"the {noun} is {word}, adjusted p {adjusted}.")
