r"""Where does the model fail: every metric per slice (subgroup) of the rows, the gap to the overall value, tests of
whether a slice differs from the rest, and fairness gaps when a slice column is a protected attribute.

A *slice* is the rows sharing a value of one column (``group``, ``sex``, ``site``…) or of several columns at once
(their crossing, ``sex × site``). Every number per slice comes from :func:`assess.metrics.evaluate.evaluate` on the
slice's rows (:func:`assess.metrics.breakdown.evaluate_groups`), so it is the same registry formula and interval as
the pooled value on the Metrics page. ISO/IEC TS 4213:2022 asks for test data representative of the intended use
(5.3.2, data representativeness and bias) and free of channel effects — how, where or by whom data were collected
(5.3.8); performance per subgroup (per site, device, collector, population group) is how both are seen
(reference file 000_59498108d050ac39.txt, 5.3.2 and 5.3.8).

Tests, slice against the rest of the rows (one p-value per slice), with the Benjamini–Hochberg false discovery rate
across the slices of one model and metric (ISO 4213 7.10.3, :func:`assess.stats.corrections.adjust_pvalues`):

- a proportion (accuracy, recall, …; its registry entry has :class:`~assess.metrics.registry.Proportion` counts):
  Pearson's χ² on the 2 × 2 table (slice / rest × counted / not), Fisher's exact test when an expected cell is
  below 5 (ISO 4213 7.5, 7.7); the omnibus test is χ² on the k × 2 table of every tested slice;
- the mean of a per-sample loss (MAE, MSE, RMSE, Brier score, multi-label Hamming loss): Kruskal–Wallis on the
  per-sample losses (ISO 4213 7.4), two groups for a slice against the rest, k groups for the omnibus;
- the binary ROC AUC: DeLong's test for independent samples (:func:`assess.stats.scores.unpaired_delong`);
- any other metric (F1, MCC, R², …): the two-sample bootstrap of the difference slice − rest (shift p-value,
  percentile interval; :func:`assess.stats.scores.unpaired_bootstrap`, or an exact multinomial draw of the confusion
  cells for label metrics); no omnibus test.

A test's bootstrap draws all ``test_resamples``, under ``ci="auto"`` too: the sequential rule of
:func:`assess.intervals.bootstrap_ci` stops when the *bounds* are as precise as shown, which says nothing of the
Monte-Carlo error of a p-value near the level (about ±0.015 at p = 0.05 after 200 resamples).

Forecast errors of one series are autocorrelated, which these tests (like any test treating rows as independent)
do not model: their p-values are then too small; read them as a screen. Weighted rows make the counts sums of
weights, which χ² and Fisher do not take: every metric then uses the bootstrap.
A slice with fewer than ``min_size`` rows is reported (its value and interval) but not tested, and the table says so.

Fairness (binary tasks; :func:`fairness_gaps`): per group of a protected attribute the selection rate
:math:`P(\hat y = 1)`, the true positive rate and the false positive rate, and fairlearn's summaries of them
(``fairlearn.metrics``, same names and definitions): the *difference* is the largest minus the smallest group value,
the *ratio* the smallest over the largest;

.. math::
    \mathrm{demographic\_parity\_difference} = \max_g s_g - \min_g s_g,\qquad
    \mathrm{equalized\_odds\_difference} = \max(\Delta\mathrm{TPR}, \Delta\mathrm{FPR}),\qquad
    \mathrm{equalized\_odds\_ratio} = \min(\rho_\mathrm{TPR}, \rho_\mathrm{FPR}),

and ``equal_opportunity_difference``/``_ratio`` are those of the TPR alone (Hardt, Price & Srebro 2016). Intervals
(:func:`gap_intervals`): the largest (smallest) of the group pairs' analytic intervals — Newcombe's for a difference,
the log-scale MOVER for a ratio — which always holds its estimate, unlike a percentile bootstrap of an extreme; near
no gap its lower (upper) bound is 0 (1) unless the pairs' simultaneous intervals exclude no gap.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as sps

from assess import intervals
from assess.analyses.folds import train_size_column
from assess.core.data import Predictions, Task
from assess.core.decision import Decision, predicted_labels
from assess.core.defaults import DEFAULT_RESAMPLES
from assess.core.errors import AssessError
from assess.core.formatting import UNDEFINED_IN_WORDS
from assess.inputs.assessment import Assessment, annotator_columns
from assess.inputs.columns import label_strings, quote
from assess.metrics import binary, multiclass
from assess.metrics.breakdown import evaluate_groups
from assess.metrics.evaluate import evaluate
from assess.metrics.forecast_state import coded_series, forecast_context, subset
from assess.metrics.registry import get, metrics_for, slice_test_metric
from assess.stats.bridge import registry_metric
from assess.stats.corrections import adjust_pvalues
from assess.stats.counts import chi2_independence, fisher_exact
from assess.stats.scores import shift_summary, unpaired_bootstrap, unpaired_delong
from assess.stats.shaping import sample_losses

__all__ = ["SliceAnalysis", "FairnessReport", "analyse_slices", "fairness_gaps", "slice_values", "slice_candidates",
           "default_slice_columns", "MIN_SLICE_SIZE", "MAX_SLICES", "FAIRNESS_GAPS", "CROSS"]

#: Below this many rows a slice is reported but not tested: its interval is too wide for a test to mean anything.
MIN_SLICE_SIZE = 30
#: Most slices (distinct values, or combinations of crossed columns): a column with more is an id or a number.
MAX_SLICES = 100
#: How a crossed slice is named: "large × malignant".
CROSS = " × "
#: The label of rows whose slice column is empty.
MISSING = "(missing)"
#: Metrics that are the mean (or a monotone function of the mean) of a per-sample loss, and that loss
#: (:func:`assess.stats.shaping.sample_losses`): Kruskal–Wallis compares the losses themselves.
LOSS_OF = {"mae": "absolute", "mse": "squared", "rmse": "squared", "brier_score": "brier"}
#: Expected count below which Fisher's exact test replaces χ² (Cochran's rule).
MIN_EXPECTED = 5.0
#: fairlearn's names of the gap summaries, with their display names.
FAIRNESS_GAPS = {
    "demographic_parity_difference": "Demographic parity difference",
    "demographic_parity_ratio": "Demographic parity ratio",
    "equalized_odds_difference": "Equalised odds difference",
    "equalized_odds_ratio": "Equalised odds ratio",
    "equal_opportunity_difference": "Equal opportunity difference",
    "equal_opportunity_ratio": "Equal opportunity ratio",
}
TEST_NAMES = {"chi2": "χ² test", "fisher": "Fisher's exact test", "kruskal": "Kruskal–Wallis",
              "delong": "DeLong (independent samples)", "bootstrap": "unpaired bootstrap"}
#: Resamples of a bootstrap test whose metric is evaluated once per resample (about 4 ms per call).
SLOW_RESAMPLES = 200


# ------------------------------------------------------------------------------------------------ slice columns


#: Roles whose columns may still be sliced by when a person chooses to (the Slices page offers them), though the
#: default leaves them out: each has a view of its own (folds, time, the train/test mark, the cost columns).
SLICEABLE_ROLES = ("fold", "repeat", "split", "timestamp", "horizon", "series", "origin", "latency_ms", "energy_j",
                   "batch_size")


def slice_candidates(assessment: Assessment) -> list[str]:
    """The columns a file can be sliced by: every column besides the predictions — the columns of every role
    (`Roles.used_columns`) but the subgroups, the features and `SLICEABLE_ROLES` — with 2 to `MAX_SLICES` distinct
    values, an empty cell counting as one. Counting distinct values is a pass over each column: callers keep the
    list per file and roles."""
    roles, frame = assessment.roles, assessment.frame
    sliceable = {getattr(roles, r) for r in SLICEABLE_ROLES} | set(roles.groups) | set(roles.features)
    predictions = roles.used_columns() - sliceable
    return [str(c) for c in frame.columns
            if c not in predictions and 2 <= frame[c].nunique(dropna=False) <= MAX_SLICES]


def default_slice_columns(assessment: Assessment, candidates: Sequence[str]) -> tuple[list[str], bool]:
    """(columns, declared): the subgroup columns the user declared (``group``, the Data page's *Subgroup slices*,
    ``--group-col``) among ``candidates``; else the first candidate that is a feature or no role's at all — not a
    fold, a time, a train/test mark, a learning curve's training size or another annotator's labels, which have
    views of their own — and ``declared`` False, so a reader is told the column was chosen for them."""
    roles = assessment.roles
    declared = [g for g in roles.groups if g in candidates]
    if declared:
        return declared, True
    own = (roles.used_columns() - set(roles.features)) | {train_size_column(assessment)}
    own |= {c for _, c in annotator_columns(assessment)}
    return [c for c in candidates if c not in own][:1], False


# ------------------------------------------------------------------------------------------------ slice labels


def slice_values(frame: pd.DataFrame, columns: Sequence[str], *, name: str = "the file",
                 max_slices: int = MAX_SLICES) -> pd.DataFrame:
    """One text label per row and column of ``columns`` (empty cells read ``(missing)``) plus the ``slice`` column,
    the crossing of all of them ("a × b"). Validated once, here: the columns exist, each has at least 2 values, and
    there are at most ``max_slices`` slices."""
    columns = list(dict.fromkeys(columns))
    if not columns:
        raise AssessError("choose at least one slice column")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise AssessError(f"{name}: no column {quote(missing[0])} to slice by (columns: "
                          f"{', '.join(map(quote, map(str, frame.columns[:20])))})")
    out = pd.DataFrame(index=frame.index)
    for col in columns:
        labels = label_strings(frame[col]).fillna(MISSING).astype(str)
        distinct = labels.nunique()
        if distinct < 2:
            raise AssessError(f"{name}: slice column {quote(col)} has a single value ({quote(labels.iloc[0])} in "
                              f"all {len(labels):,} rows); slicing needs at least 2 values")
        if distinct > max_slices:
            example = labels.iloc[0]
            raise AssessError(f"{name}: slice column {quote(col)} has {distinct:,} distinct values (first row: "
                              f"{quote(example)}); a slice column needs at most {max_slices:,} — is it an id or a "
                              "measurement? Bin it into a few ranges first")
        out[col] = labels
    crossed = out[columns[0]] if len(columns) == 1 else out[columns].agg(CROSS.join, axis=1)
    if crossed.nunique() > max_slices:
        raise AssessError(f"{name}: crossing {' × '.join(map(quote, columns))} gives {crossed.nunique():,} slices; "
                          f"at most {max_slices:,} can be compared — cross fewer columns")
    out["slice"] = crossed
    return out


# ------------------------------------------------------------------------------------------------ results


@dataclass(frozen=True, eq=False)
class SliceAnalysis:
    """Metrics per slice, the overall values and the tests across slices.

    ``metrics``: one row per model, slice and metric — ``model``, ``slice`` (the crossed label), one column per
    slice column, ``n`` (rows), ``key``, ``name``, ``value``, ``low``, ``high``, ``method`` (how the interval was
    computed — :func:`assess.metrics.evaluate.interval_method`'s choice on the slice's rows, with the resamples a
    bootstrap drew; None without one), ``overall``, ``gap`` (value −
    overall), ``reason`` (why undefined), ``tested`` (n ≥ ``min_size``).
    ``tests``: one row per model, tested metric and tested slice — ``slice``, ``n``, ``test`` (display name),
    ``statistic``, ``pvalue``, ``p_adjusted`` (Benjamini–Hochberg across the slices), ``rest`` (the metric on the
    other rows), ``difference`` (slice − rest), ``low``/``high`` (its bootstrap interval, bootstrap only), ``worse``
    (the slice is worse than the rest by the metric's direction).
    ``omnibus``: one row per model and tested metric — ``test``, ``statistic``, ``df``, ``pvalue``, ``slices``.
    ``untested``: the slices below ``min_size`` per model, with their size.
    """

    columns: tuple[str, ...]
    metrics: pd.DataFrame
    tests: pd.DataFrame
    omnibus: pd.DataFrame
    min_size: int
    confidence_level: float
    test_keys: tuple[str, ...]
    notes: tuple[str, ...] = ()

    def worst(self, model: str, key: str, count: int = 5) -> pd.DataFrame:
        """The ``count`` slices with the worst value of ``key`` for ``model`` (by the metric's direction), with
        their adjusted p-values when tested."""
        rows = self.metrics[(self.metrics["model"] == model) & (self.metrics["key"] == key)]
        rows = rows[np.isfinite(rows["value"].to_numpy(dtype=float))]
        if rows.empty:
            return rows
        direction = self.metrics.attrs.get("directions", {}).get(key, "higher")
        rows = rows.sort_values("value", ascending=direction != "lower", kind="stable").head(count)
        tests = self.tests[(self.tests["model"] == model) & (self.tests["key"] == key)][["slice", "p_adjusted"]]
        return rows.merge(tests, on="slice", how="left")

    def to_dict(self) -> dict:
        """The JSON form (``assess metrics --slice``): see :mod:`assess.cli.slices`."""
        by_model: dict = {}
        for rec in self.metrics.to_dict("records"):
            entry = by_model.setdefault(rec["model"], {}).setdefault(rec["slice"], {
                "n": int(rec["n"]), "tested": bool(rec["tested"]), "values": {c: rec[c] for c in self.columns},
                "metrics": {}})
            entry["metrics"][rec["key"]] = {"value": _num(rec["value"]), "low": _num(rec["low"]),
                                            "high": _num(rec["high"]), "method": rec["method"],
                                            "overall": _num(rec["overall"]),
                                            "gap": _num(rec["gap"])}
        tests = [{k: (_num(v) if isinstance(v, float) else v) for k, v in rec.items()}
                 for rec in self.tests.to_dict("records")]
        omnibus = [{k: (_num(v) if isinstance(v, float) else v) for k, v in rec.items()}
                   for rec in self.omnibus.to_dict("records")]
        return {"columns": list(self.columns), "min_size": self.min_size, "test_metrics": list(self.test_keys),
                "by_model": by_model, "tests": tests, "omnibus": omnibus, "notes": list(self.notes)}


def _num(v):
    return None if v is None or not np.isfinite(v) else float(v)


# ------------------------------------------------------------------------------------------------ analysis


def analyse_slices(assessment: Assessment, columns: Sequence[str], *, models=None, keys=None, test_keys=None,
                   decision: Decision = Decision(), ci: str | None = "auto", confidence_level: float = 0.95,
                   n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0, min_size: int = MIN_SLICE_SIZE,
                   test_resamples: int = DEFAULT_RESAMPLES) -> SliceAnalysis:
    """Every metric of ``keys`` (default: those :func:`evaluate` computes) per slice of ``columns`` and per model,
    with intervals (``ci`` as in :func:`evaluate`), the overall value and the gap; the tests of the module docstring
    for each metric of ``test_keys`` (default: the registry's `slice_test_metric` of the task) on the slices with at least
    ``min_size`` rows."""
    if isinstance(min_size, bool) or not isinstance(min_size, (int, np.integer)) or min_size < 2:
        raise AssessError(f"`min_size` must be a whole number ≥ 2 (got {min_size!r})")
    task = assessment.task
    labels = slice_values(assessment.frame, columns, name=assessment.table.name)
    chosen = list(models or assessment.models)
    for m in chosen:
        if m not in assessment.models:
            raise AssessError(f"{assessment.table.name}: no model {quote(m)} (models: "
                              f"{', '.join(map(quote, assessment.models))})")
    if keys is not None:
        keys = [keys] if isinstance(keys, str) else list(keys)
        for key in keys:
            get(task, key)
    test_keys = [slice_test_metric(task)] if test_keys is None else (
        [test_keys] if isinstance(test_keys, str) else list(test_keys))
    for key in test_keys:
        get(task, key)
    if keys is not None:
        keys = list(dict.fromkeys(keys + test_keys))
    options = dict(ci=ci, confidence_level=confidence_level, n_resamples=n_resamples, seed=seed)
    if task.is_classification:
        options["decision"] = decision
    metric_rows, test_rows, omnibus_rows, notes = [], [], [], []
    for model in chosen:
        pred = assessment.predictions(model)
        rows = assessment.model_rows[model]
        model_labels = labels.iloc[rows] if len(rows) != len(labels) else labels
        context = None
        if task is Task.FORECAST:
            pred, series_names = coded_series(pred)
            context = forecast_context(pred, None, series_names)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # the overall value and counts only: its interval is not shown beside the slices
            overall = evaluate(pred, keys, baselines=False, context=context, **{**options, "ci": None})
            groups = list(evaluate_groups(pred, model_labels["slice"].to_numpy(), keys, context=context, **options))
        first_of = {g: int(idx[0]) for g, idx, _ in groups}
        for g, idx, report in groups:
            values = model_labels.iloc[first_of[g]]
            for r in report.results:
                o = overall[r.key].value
                metric_rows.append({"model": model, "slice": g, **{c: values[c] for c in columns}, "n": idx.size,
                                    "key": r.key, "name": r.name, "value": r.value, "low": r.low, "high": r.high,
                                    "method": r.method, "overall": o, "gap": r.value - o, "reason": r.reason,
                                    "tested": idx.size >= min_size})
        small = [(g, idx.size) for g, idx, _ in groups if idx.size < min_size]
        if small:
            notes.append(f"{model}: {len(small)} slice{'s' if len(small) != 1 else ''} below {min_size} rows "
                         f"reported but not tested ({', '.join(f'{quote(g)} {n:,}' for g, n in small[:5])}"
                         f"{', …' if len(small) > 5 else ''})")
        tested = [(g, idx, report) for g, idx, report in groups if idx.size >= min_size]
        for key in test_keys:
            rows_t, omni = _tests(pred, key, tested, overall[key], decision=decision, confidence_level=confidence_level,
                                  n_resamples=test_resamples, seed=seed)
            for row in rows_t:
                test_rows.append({"model": model, "key": key, **row})
            if omni is not None:
                omnibus_rows.append({"model": model, "key": key, **omni})
    metrics = pd.DataFrame(metric_rows)
    metrics.attrs["directions"] = {k: get(task, k).direction for k in metrics["key"].unique()} if len(metrics) else {}
    tests = pd.DataFrame(test_rows, columns=["model", "key", "slice", "n", "test", "statistic", "pvalue", "p_adjusted",
                                             "value", "rest", "difference", "low", "high", "worse"])
    omnibus = pd.DataFrame(omnibus_rows, columns=["model", "key", "test", "statistic", "df", "pvalue", "slices"])
    return SliceAnalysis(tuple(dict.fromkeys(columns)), metrics, tests, omnibus, int(min_size),
                         float(confidence_level), tuple(test_keys), tuple(notes))


def _tests(pred: Predictions, key: str, tested, overall, *, decision, confidence_level, n_resamples, seed):
    """The per-slice tests (slice against the rest) of one metric, BH-adjusted, and the omnibus test."""
    spec = get(pred.task, key)
    if not tested:
        return [], None
    weighted = pred.weight is not None
    weight_free = not weighted
    proportion = (spec.proportion is not None and not weighted and overall.counts is not None
                  and pred.task in (Task.BINARY, Task.MULTICLASS))
    loss = LOSS_OF.get(key) if not weighted else None
    if loss == "brier" and (pred.scores is None or pred.task is Task.MULTILABEL):
        loss = None
    losses = sample_losses(pred, loss=loss, decision=decision) if loss else None
    if key == "hamming_loss" and pred.task is Task.MULTILABEL and not weighted:
        # the Hamming loss is the mean over rows of each row's share of wrong labels
        labels = np.asarray(predicted_labels(pred.task, pred.y_pred, pred.scores, decision, labels=pred.classes,
                                             model=pred.model), dtype=bool)
        losses = (np.asarray(pred.y_true, dtype=bool) != labels).mean(axis=1)
    lower_better = spec.direction == "lower"
    by_cells = cells_metric(pred, spec)
    labels = metric_input(pred, by_cells, decision) if by_cells is not None else None
    rows = []
    everything = np.arange(pred.n)
    for g, idx, report in tested:
        r = report[key]
        rest_idx = np.setdiff1d(everything, idx, assume_unique=True)
        row = {"slice": g, "n": idx.size, "value": r.value, "rest": math.nan, "difference": math.nan,
               "low": math.nan, "high": math.nan, "statistic": math.nan, "pvalue": math.nan}
        if rest_idx.size < 2:
            continue
        if proportion and r.counts is not None:
            x, n = r.counts
            x_rest, n_rest = overall.counts[0] - x, overall.counts[1] - n
            table = np.array([[x, n - x], [x_rest, n_rest - x_rest]], dtype=float)
            if n <= 0 or n_rest <= 0:
                continue
            expected = table.sum(1, keepdims=True) * table.sum(0, keepdims=True) / table.sum()
            use_fisher = bool((expected < MIN_EXPECTED).any())
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result = (fisher_exact(table.astype(np.int64)) if use_fisher
                          else chi2_independence(table.astype(np.int64)))
            rest_value = x_rest / n_rest
            row |= {"test": TEST_NAMES["fisher" if use_fisher else "chi2"], "statistic": result.statistic,
                    "pvalue": result.pvalue, "rest": rest_value}
        elif losses is not None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                res = sps.kruskal(losses[idx], losses[rest_idx]) if np.ptp(losses) > 0 else None
            rest_value = _metric_on(pred, rest_idx, key, decision)
            row |= {"test": TEST_NAMES["kruskal"], "statistic": float(res.statistic) if res else math.nan,
                    "pvalue": float(res.pvalue) if res else math.nan, "rest": rest_value}
        elif key == "roc_auc" and pred.task is Task.BINARY and pred.scores is not None and weight_free:
            y, sc = np.asarray(pred.y_true), np.asarray(pred.scores)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    res = unpaired_delong(y[idx], sc[idx], y[rest_idx], sc[rest_idx],
                                          confidence_level=confidence_level, names=(str(g), "rest"))
                except AssessError:     # a slice without both classes: its AUC is undefined
                    continue
            row |= {"test": TEST_NAMES["delong"], "statistic": res.statistic, "pvalue": res.pvalue,
                    "rest": r.value - res.effect.value, "low": res.effect.interval.low,
                    "high": res.effect.interval.high}
        elif by_cells is not None and not weighted:
            res = cells_bootstrap(pred, by_cells, labels, idx, rest_idx, n_resamples=n_resamples,
                                   confidence_level=confidence_level, seed=seed)
            if res is None:
                continue
            difference, p, low, high = res
            row |= {"test": f"{TEST_NAMES['bootstrap']} ({n_resamples:,} resamples)", "statistic": difference,
                    "pvalue": p, "rest": r.value - difference, "low": low, "high": high}
        else:
            if pred.task is Task.FORECAST and spec.group not in REGRESSION_GROUPS:
                continue        # MASE and the interval scores need the series' context: no bootstrap slice test
            metric = cells_metric(pred, spec) or registry_metric(pred.task, key, classes=pred.classes)
            y = metric_input(pred, metric, decision)
            w = None if pred.weight is None else np.asarray(pred.weight)
            # A metric evaluated once per resample (score metrics other than the ROC AUC) gets fewer resamples.
            b = n_resamples if metric.vectorized else min(n_resamples, SLOW_RESAMPLES)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    res = unpaired_bootstrap(np.asarray(pred.y_true)[idx], y[idx], np.asarray(pred.y_true)[rest_idx],
                                             y[rest_idx], metric=metric, n_resamples=b,
                                             confidence_level=confidence_level, seed=seed,
                                             weight_a=None if w is None else w[idx],
                                             weight_b=None if w is None else w[rest_idx],
                                             vectorized=metric.vectorized, names=(str(g), "rest"), metric_name=key)
                except AssessError:
                    continue
            row |= {"test": f"{TEST_NAMES['bootstrap']} ({b:,} resamples)", "statistic": res.statistic,
                    "pvalue": res.pvalue, "rest": r.value - res.statistic, "low": res.effect.interval.low,
                    "high": res.effect.interval.high}
        row["difference"] = row["value"] - row["rest"]
        row["worse"] = bool(row["difference"] > 0) if lower_better else bool(row["difference"] < 0)
        rows.append(row)
    if rows:
        adjusted = adjust_pvalues([r["pvalue"] for r in rows], method="fdr_bh")
        for r, p in zip(rows, adjusted):
            r["p_adjusted"] = float(p)
    omnibus = None
    if len(tested) >= 2:
        if proportion and all(rep[key].counts is not None for _, _, rep in tested):
            table = np.array([[rep[key].counts[0], rep[key].counts[1] - rep[key].counts[0]] for _, _, rep in tested])
            table = table[table.sum(1) > 0]
            if table.shape[0] >= 2 and (table.sum(0) > 0).all():
                res = chi2_independence(table.astype(np.int64))
                omnibus = {"test": f"χ² test ({table.shape[0]} × 2)", "statistic": res.statistic, "df": res.df,
                           "pvalue": res.pvalue, "slices": int(table.shape[0])}
        elif losses is not None and np.ptp(losses) > 0:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                res = sps.kruskal(*[losses[idx] for _, idx, _ in tested])
            omnibus = {"test": "Kruskal–Wallis", "statistic": float(res.statistic), "df": float(len(tested) - 1),
                       "pvalue": float(res.pvalue), "slices": len(tested)}
    return rows, omnibus


REGRESSION_GROUPS = {s.group for s in metrics_for(Task.REGRESSION)}


def cells_metric(pred: Predictions, spec):
    """A binary or multi-class label metric as a vectorised callable for the bootstrap: a (b, n) matrix of resample
    weights gives the b confusion matrices in one bincount, and the registry formula runs on them as a batch."""
    if spec.needs != "labels" or pred.task not in (Task.BINARY, Task.MULTICLASS):
        return None
    k = 2 if pred.task is Task.BINARY else len(pred.classes)

    def metric(y_true, y, sample_weight=None):
        n = np.asarray(y_true).shape[0]
        w = np.ones((1, n)) if sample_weight is None else np.atleast_2d(np.asarray(sample_weight, dtype=float))
        code = np.asarray(y_true).astype(np.intp) * k + np.asarray(y).astype(np.intp)
        offsets = code[None, :] + (np.arange(w.shape[0]) * k * k)[:, None]
        cm = np.bincount(offsets.ravel(), weights=w.ravel(), minlength=w.shape[0] * k * k).reshape(-1, k, k)
        if pred.task is Task.BINARY:            # cm[t, p]: t, p = 0 negative, 1 positive
            state = binary.BinaryState(tp=cm[:, 1, 1], fp=cm[:, 0, 1], tn=cm[:, 0, 0], fn=cm[:, 1, 0], batch=True)
        else:
            state = multiclass.MulticlassState(cm=cm, classes=tuple(pred.classes), batch=True)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            values = np.broadcast_to(np.asarray(spec.compute(state), dtype=float), (w.shape[0],))
        return values if sample_weight is not None and np.ndim(sample_weight) == 2 else float(values[0])

    metric.__name__ = spec.key
    metric.uses_scores = False
    metric.vectorized = True
    metric.higher_is_better = spec.direction != "lower"
    return metric


def cells_bootstrap(pred: Predictions, metric, labels: np.ndarray, idx: np.ndarray, rest_idx: np.ndarray, *,
                     n_resamples: int, confidence_level: float, seed: int):
    """The two-sample bootstrap of a label metric's difference slice − rest, exact and independent of n: the rows
    of a group differ only by their confusion cell, so resampling the slice's rows (and, independently, the rest's)
    is a multinomial draw of its k² cells (:func:`assess.intervals.bootstrap_ci` with ``frequencies``). Returns the
    difference, the shift p-value and the percentile interval (as :func:`assess.stats.scores.unpaired_bootstrap`),
    or None when the metric is undefined on the data."""
    k = 2 if pred.task is Task.BINARY else len(pred.classes)
    code = np.asarray(pred.y_true).astype(np.intp) * k + labels.astype(np.intp)
    freq = np.r_[np.bincount(code[idx], minlength=k * k), np.bincount(code[rest_idx], minlength=k * k)]
    keep = np.flatnonzero(freq)
    y_cells, p_cells = np.divmod(np.arange(k * k), k)    # the (true, predicted) class of each cell

    def value(cells: np.ndarray) -> np.ndarray:           # (b, k*k) cell counts -> (b,) metric values
        return metric(y_cells, p_cells, sample_weight=cells)

    def statistic(counts: np.ndarray) -> np.ndarray:
        full = np.zeros((counts.shape[0], 2 * k * k))
        full[:, keep] = counts
        return value(full[:, :k * k]) - value(full[:, k * k:])
    observed = float(statistic(freq[keep][None, :])[0])
    if not np.isfinite(observed):
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        boot = intervals.bootstrap_ci(statistic, strata=keep // (k * k), frequencies=freq[keep], point=observed,
                                      n_resamples=n_resamples, confidence_level=confidence_level, seed=seed)
        p, low, high, _, _ = shift_summary(np.asarray(boot.estimates, dtype=float).reshape(-1), observed,
                                            "two-sided", confidence_level, "the bootstrap")
    return observed, p, low, high


def metric_input(pred: Predictions, metric, decision: Decision) -> np.ndarray:
    """What :func:`registry_metric`'s callable takes of a model: scores, numeric predictions or decided labels."""
    if getattr(metric, "uses_scores", False):
        if pred.scores is None:
            raise AssessError(f"model {quote(pred.model)} has no scores")
        return np.asarray(pred.scores)
    if not pred.task.is_classification:
        return np.asarray(pred.y_pred, dtype=float)
    return np.asarray(predicted_labels(pred.task, pred.y_pred, pred.scores, decision, labels=pred.classes,
                                       model=pred.model))


def _metric_on(pred: Predictions, rows: np.ndarray, key: str, decision: Decision) -> float:
    options = {"decision": decision} if pred.task.is_classification else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(evaluate(subset(pred, rows), [key], baselines=False, **options)[key].value)


# ------------------------------------------------------------------------------------------------ fairness


@dataclass(frozen=True, eq=False)
class FairnessReport:
    """``by_group``: per group ``group``, ``n``, ``selection_rate``, ``tpr``, ``fpr`` (NaN when the group has no
    positives, or no negatives). ``gaps``: one row per fairlearn summary — ``key``, ``name``, ``value``, ``low``,
    ``high``, ``method`` (how the interval was computed, :class:`assess.intervals.IntervalMethod`; None without one),
    ``note`` (what the interval means near 0), ``reason`` — with the interval of :func:`gap_intervals`."""

    column: str
    model: str
    by_group: pd.DataFrame
    gaps: pd.DataFrame
    confidence_level: float

    def to_dict(self) -> dict:
        return {"column": self.column,
                "by_group": {r["group"]: {"n": int(r["n"]), "selection_rate": _num(r["selection_rate"]),
                                          "tpr": _num(r["tpr"]), "fpr": _num(r["fpr"])}
                             for r in self.by_group.to_dict("records")},
                "gaps": {r["key"]: {"value": _num(r["value"]), "low": _num(r["low"]), "high": _num(r["high"]),
                                    "method": None if r["method"] is None else str(r["method"]), "note": r["note"]}
                         for r in self.gaps.to_dict("records")}}


#: The columns of the cells of a group: true positives, false positives, false negatives, true negatives.
TP, FP, FN, TN = range(4)


def _rates(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Selection rate, TPR and FPR from cells (..., G, 4) ordered tp, fp, fn, tn; NaN where a denominator is 0."""
    x, n = _rate_counts(cells)
    with np.errstate(invalid="ignore", divide="ignore"):
        return tuple(np.where(n[..., i] > 0, x[..., i] / n[..., i], np.nan) for i in range(3))


def _rate_counts(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(x, n) of the selection rate, TPR and FPR as (..., G, 3) arrays, from cells (..., G, 4) — counts, or sums of
    weights (or of squared weights: then ``n`` is the denominator of Kish's effective n)."""
    tp, fp, fn, tn = (cells[..., i] for i in range(4))
    x = np.stack([tp + fp, tp, fp], axis=-1)
    n = np.stack([tp + fp + fn + tn, tp + fn, fp + tn], axis=-1)
    return x, n


def _gaps(cells: np.ndarray) -> np.ndarray:
    """The six fairlearn summaries (..., 6) in :data:`FAIRNESS_GAPS` order, from cells (..., G, 4)."""
    selection, tpr, fpr = _rates(cells)
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)

        def difference(r):
            return np.nanmax(r, axis=-1) - np.nanmin(r, axis=-1)

        def ratio(r):
            hi, lo = np.nanmax(r, axis=-1), np.nanmin(r, axis=-1)
            return np.where(hi > 0, lo / hi, np.where(hi == 0, 1.0, np.nan))   # all zero: equal (fairlearn: 1)
        return np.stack([difference(selection), ratio(selection),
                         np.maximum(difference(tpr), difference(fpr)), np.minimum(ratio(tpr), ratio(fpr)),
                         difference(tpr), ratio(tpr)], axis=-1)


#: What a gap's interval means near no gap, in its note (see :func:`gap_intervals`).
NEAR_ZERO = {
    "difference": "the largest of the group pairs' Newcombe intervals, so it holds the estimate; near 0 (rates almost "
                  "equal) a largest difference is biased upward, so the lower bound is 0 wherever the pairs' "
                  "simultaneous (Bonferroni) intervals cannot tell the gap from 0: at no gap the interval then covers "
                  "0 at least 97.5% of the time for a 95% interval",
    "ratio": "the smallest of the group pairs' log-scale MOVER intervals, so it holds the estimate; near 1 (rates "
             "almost equal) a smallest ratio is biased downward, so the upper bound is 1 wherever the pairs' "
             "simultaneous (Bonferroni) intervals cannot tell the ratio from 1: at equal rates the interval then "
             "covers 1 at least 97.5% of the time for a 95% interval",
}


#: Why a defined ratio gap has no interval: every pair's denominator rate is 0 (the ratio is fairlearn's 1 by
#: convention, which no sampling model gives a spread).
NO_RATIO_INTERVAL = "no interval: every group's rate is 0, so no ratio of rates can be estimated (1 by convention)"


def gap_intervals(cells: np.ndarray, squares: np.ndarray | None = None, *, confidence_level: float = 0.95
                  ) -> tuple[np.ndarray, np.ndarray]:
    r"""``(low, high)``, each (..., 6) in :data:`FAIRNESS_GAPS` order, of the gaps of cells (..., G, 4) — counts,
    or sums of weights with ``squares`` their sums of squared weights (Kish's effective n per group and rate).

    A difference gap is a largest difference, :math:`D = \max_k d_k` over the components
    :math:`d_{gh} = r_g - r_h` (every ordered pair of groups; the equalised odds difference over the TPR and the FPR
    pairs); a ratio gap a smallest ratio, :math:`\min_k \rho_k`, :math:`\rho_{gh} = r_g / r_h`. A percentile
    bootstrap of such an extreme is biased — a resample's largest difference exceeds the sample's whenever its noise
    favours any pair — and its interval could miss its own estimate (issue 33 §1.6: 0.00564, CI 0.00579–0.0309).
    Instead each component gets its analytic interval :math:`[L_k, U_k]` at the asked level (Newcombe's hybrid score
    interval of a difference of independent proportions, the log-scale MOVER of a ratio:
    :mod:`assess.intervals.mover`, from the groups' Wilson intervals), and the gap's interval is
    :math:`[\max_k L_k,\ \max_k U_k]` (difference) or :math:`[\min_k L_k,\ \min_k U_k]` (ratio), cut to [0, 1].

    Why it covers: :math:`L_k \le \hat d_k \le U_k` for every k, so the interval holds :math:`\hat D`. With
    :math:`k^*` the pair that is truly largest, :math:`\max_k U_k < D` needs :math:`U_{k^*} < d_{k^*}`
    (probability ≤ α/2), and :math:`\max_k L_k > D` needs :math:`L_k > D \ge d_k` for some k (≤ α/2 for each pair
    whose true difference is near D, ≈ 0 for the others): a union bound over the components (the argument behind
    intervals for the largest of several parameters; Andrews, Kitagawa & McCloskey, "Inference on winners", QJE
    2024, §2, for why the naive bootstrap of a maximum fails). When one pair stands out the coverage is that of its
    own interval (the seeded simulation in the tests: 95 ± 1.5 %).

    Near no gap several pairs are near the top and the largest estimated difference is biased upward: the union
    bound allows the lower bound to exceed a true gap of 0 up to (number of pairs) × α/2 of the time (79 % coverage
    at 4 equal groups). So the lower bound (a ratio's upper bound) stands only where the pairs' simultaneous
    intervals — Bonferroni at α/K, K the ordered pairs of the gap — exclude no gap; elsewhere it is 0 (1). At no
    gap that fails with probability ≤ K · α/(2K) = α/2 and the upper bound cannot miss (it is ≥ the estimate ≥ 0),
    so the coverage there is ≥ 1 − α/2; away from it the rule only widens, never narrows (:data:`NEAR_ZERO`).
    """
    x, n = _rate_counts(np.asarray(cells, dtype=np.float64))
    if squares is not None:      # weighted: Wilson on Kish's effective n, n_eff = (Σw)² / Σw², x scaled with it
        _, n_sq = _rate_counts(np.asarray(squares, dtype=np.float64))
        with np.errstate(invalid="ignore", divide="ignore"):
            n_eff = np.where(n_sq > 0, n * n / np.where(n_sq > 0, n_sq, 1.0), 0.0)
            x = np.where(n > 0, x / np.where(n > 0, n, 1.0), 0.0) * n_eff
        n = n_eff
    low, high = _extreme_bounds(x, n, confidence_level)
    # Near no gap: the lower bound (a ratio's upper bound) stands only where the pairs' simultaneous intervals —
    # Bonferroni over the K ordered pairs of the gap, K = 2 G (G − 1) for the equalised odds, G (G − 1) otherwise —
    # tell the gap from none; else it is 0 (1): at no gap P(some L_k > 0) ≤ Σ_k α / (2K) = α/2.
    k = x.shape[-2] * (x.shape[-2] - 1)
    alpha = 1.0 - confidence_level
    single, double = _extreme_bounds(x, n, 1.0 - alpha / k), _extreme_bounds(x, n, 1.0 - alpha / (2 * k))
    odds = np.array(["odds" in key for key in FAIRNESS_GAPS])
    bonf_low, bonf_high = np.where(odds, double[0], single[0]), np.where(odds, double[1], single[1])
    ratio = np.array([key.endswith("ratio") for key in FAIRNESS_GAPS])
    low = np.where(~ratio & ~(bonf_low > 0) & np.isfinite(low), 0.0, low)
    high = np.where(ratio & ~(bonf_high < 1) & np.isfinite(high), 1.0, high)
    return low, high


def _extreme_bounds(x: np.ndarray, n: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    """The (low, high) of :func:`gap_intervals` before the check against no gap: the largest (smallest) of the
    components' bounds at ``level``, cut to [0, 1], from the rates' counts (..., G, 3)."""
    p, lo, hi = intervals.wilson_bounds(x, n, confidence_level=level)                # (..., G, 3)
    a = (p[..., :, None, :], lo[..., :, None, :], hi[..., :, None, :])               # group g of the pair (g, h)
    b = (p[..., None, :, :], lo[..., None, :, :], hi[..., None, :, :])               # group h
    pair = ~np.eye(p.shape[-2], dtype=bool)[..., None]
    with warnings.catch_warnings(), np.errstate(invalid="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)          # all-NaN slices: no pair defined, NaN
        dl, dh = intervals.newcombe_difference(*a, *b)           # (..., G, G, 3)
        rl, rh = intervals.mover_ratio(*a, *b)
        dl, dh = np.where(pair, dl, np.nan), np.where(pair, dh, np.nan)
        rl, rh = np.where(pair, rl, np.nan), np.where(pair, rh, np.nan)
        d_low, d_high = np.nanmax(dl, axis=(-3, -2)), np.nanmax(dh, axis=(-3, -2))  # (..., 3): selection, tpr, fpr
        r_low, r_high = np.nanmin(rl, axis=(-3, -2)), np.nanmin(rh, axis=(-3, -2))
    sel, tpr, fpr = 0, 1, 2
    low = np.stack([d_low[..., sel], r_low[..., sel], np.fmax(d_low[..., tpr], d_low[..., fpr]),
                    np.fmin(r_low[..., tpr], r_low[..., fpr]), d_low[..., tpr], r_low[..., tpr]], axis=-1)
    high = np.stack([d_high[..., sel], r_high[..., sel], np.fmax(d_high[..., tpr], d_high[..., fpr]),
                     np.fmin(r_high[..., tpr], r_high[..., fpr]), d_high[..., tpr], r_high[..., tpr]], axis=-1)
    return np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0)


def fairness_gaps(pred: Predictions, groups, *, column: str = "group", decision: Decision = Decision(),
                  ci: str | None = "auto", confidence_level: float = 0.95) -> FairnessReport:
    """Selection rate, TPR and FPR per group of a protected attribute (``groups``, one label per row) and
    fairlearn's difference and ratio summaries with the intervals of :func:`gap_intervals` (any ``ci`` but None:
    no other method covers an extreme of the groups' rates; see there). Binary only: the labels come from
    ``decision`` as on every page."""
    if pred.task is not Task.BINARY:
        raise AssessError(f"fairness gaps compare selection and error rates of a binary decision; the task is "
                          f"{pred.task.value}")
    g = np.asarray(groups, dtype=object)
    if g.shape != (pred.n,):
        raise AssessError(f"`groups` must have one label per row ({pred.n:,}) (got {g.shape[0]:,})")
    names, codes = np.unique(g.astype(str), return_inverse=True)
    if names.size < 2:
        raise AssessError(f"fairness gaps need at least 2 groups in {quote(column)} (got 1: {quote(names[0])})")
    y = np.asarray(pred.y_true) == 1
    yp = np.asarray(predicted_labels(pred.task, pred.y_pred, pred.scores, decision, labels=pred.classes,
                                     model=pred.model)) == 1
    cell = np.where(y, np.where(yp, TP, FN), np.where(yp, FP, TN))
    flat = codes * 4 + cell
    k = names.size
    w = None if pred.weight is None else np.asarray(pred.weight, dtype=float)
    point_cells = np.bincount(flat, weights=w, minlength=4 * k).reshape(k, 4)
    point = _gaps(point_cells)
    if ci is None:
        low = high = np.full(point.shape, np.nan)
    else:
        squares = None if w is None else np.bincount(flat, weights=w * w, minlength=4 * k).reshape(k, 4)
        low, high = gap_intervals(point_cells, squares, confidence_level=confidence_level)
    selection, tpr, fpr = _rates(point_cells)
    by_group = pd.DataFrame({"group": names, "n": np.bincount(codes, minlength=k), "selection_rate": selection,
                             "tpr": tpr, "fpr": fpr})
    rows = []
    for i, (key, name) in enumerate(FAIRNESS_GAPS.items()):
        value = float(point[i])
        reason = None
        if not np.isfinite(value):
            reason = ("no group has both positives and negatives" if "odds" in key or "opportunity" in key
                      else UNDEFINED_IN_WORDS)
        kind = "ratio" if key.endswith("ratio") else "difference"
        method = None if ci is None or not np.isfinite(low[i]) else intervals.IntervalMethod(
            "Newcombe hybrid score" if kind == "difference" else "log-scale MOVER (Wilson)", effective_n=w is not None,
            of=f"{'largest' if kind == 'difference' else 'smallest'} of the group pairs' intervals")
        note = NEAR_ZERO[kind] if method is not None else (
            NO_RATIO_INTERVAL if ci is not None and np.isfinite(value) and kind == "ratio" else None)
        rows.append({"key": key, "name": name, "value": value, "low": float(low[i]), "high": float(high[i]),
                     "method": method, "note": note, "reason": reason})
    return FairnessReport(column, pred.model, by_group, pd.DataFrame(rows), float(confidence_level))
