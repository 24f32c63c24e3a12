"""Metric reports of several models side by side, the best model per metric, and plain-language sentences.

What a stakeholder reads (SPEC use 2): "Model `logistic`'s recall is 0.92 (95 % CI 0.88–0.95): it finds about 9 in
10 malignant cases; always predicting the majority class finds none." Everything here formats numbers the engine
computed; nothing is recomputed.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pandas as pd

from assess.core.data import Task
from assess.core.formatting import UNDEFINED, bounds, class_phrase, name_in_sentence, number, percent_level
from assess.intervals import method_name
from assess.metrics import MetricReport, baseline_columns, get


def best_models(reports: dict[str, MetricReport], key: str) -> set[str]:
    """Models with the best defined value of ``key`` by the registry's direction (ties all win; none if undirected)."""
    first = next(iter(reports.values()))
    direction = get(first.task, key).direction
    values = {m: r[key].value for m, r in reports.items() if key in r and np.isfinite(r[key].value)}
    if direction not in ("higher", "lower") or len(values) < 2:
        return set()
    best = max(values.values()) if direction == "higher" else min(values.values())
    return {m for m, v in values.items() if np.isclose(v, best, rtol=0, atol=1e-12)}


def nominal_words(nominal: float | None) -> str:
    """The level a prediction interval is meant to hold the truth at, for beside its achieved coverage."""
    return f"nominal {percent_level(nominal)}" if nominal is not None else "nominal level not stated"


def coverage_name(name: str, nominal: float | None) -> str:
    """An interval coverage's name with its nominal level: "Interval coverage (nominal 90%)" — 0.791 alone cannot
    be judged."""
    return f"{name} ({nominal_words(nominal)})"


def with_nominal(reports: dict[str, MetricReport], nominal: float | None) -> dict[str, MetricReport]:
    """``reports`` whose interval coverage is named with its ``nominal`` level (`coverage_name`), so every table made
    of them (side by side, per model, the CSV) shows what the coverage should be beside what it is."""
    def renamed(report):
        if "coverage" not in report:
            return report
        results = tuple(replace(r, name=coverage_name(r.name, nominal)) if r.key == "coverage" else r
                        for r in report.results)
        return replace(report, results=results)
    return {m: renamed(r) for m, r in reports.items()}


def value_with_ci(result) -> str:
    """"0.993 (0.991–0.995)": a value and its interval, as a sentence quotes it."""
    ci = bounds(result.low, result.high)
    return f"{number(result.value)} ({ci})" if ci else number(result.value)


def leaders(reports: dict[str, MetricReport], key: str) -> tuple[str, str]:
    """The best and the runner-up model on ``key`` by its direction (at least two models, all with ``key``)."""
    direction = get(next(iter(reports.values())).task, key).direction
    ranked = sorted(reports, key=lambda m: reports[m][key].value, reverse=direction == "higher")
    return ranked[0], ranked[1]


def leader_text(reports: dict[str, MetricReport], key: str) -> str:
    """The best model on ``key`` against the runner-up, each value with its interval: "Model gbm is best on ROC AUC:
    0.993 (0.991–0.995) against 0.981 (0.976–0.986) for model forest (95% intervals)" — the report's recommendation
    and the Metrics page's best-model sentence both say it. "Model" names each as one, as `headline_sentences` do: a
    bare name starts no sentence ("logistic is best…") and a model called 1 or True never reads as a number."""
    top, runner = leaders(reports, key)
    r_top, r_runner = reports[top][key], reports[runner][key]
    level = percent_level(reports[top].confidence_level)
    shown = bounds(r_top.low, r_top.high) or bounds(r_runner.low, r_runner.high)
    return (f"Model {top} is best on {name_in_sentence(r_top.name)}: {value_with_ci(r_top)} against "
            f"{value_with_ci(r_runner)} for model {runner}" + (f" ({level} intervals)" if shown else ""))


def best_sentence(reports: dict[str, MetricReport], key: str) -> str | None:
    """Which model is best on ``key`` (the page's headline metric), in one sentence: the leader against the
    runner-up with their intervals (`leader_text`), or the models that tie; None with fewer than two models or a
    metric without a direction. Whether the difference is more than chance is a test's to say (Compare page)."""
    if len(reports) < 2 or not all(key in r and r[key].defined for r in reports.values()):
        return None
    best = best_models(reports, key)
    if not best:
        return None
    if len(best) > 1:
        tied = [m for m in reports if m in best]
        return (f"Models {', '.join(tied[:-1])} and {tied[-1]} tie for best on "
                f"{name_in_sentence(reports[tied[0]][key].name)} ({number(reports[tied[0]][key].value)}).")
    return (f"{leader_text(reports, key)}. Whether the difference is more than chance is for a test to say "
            "(Compare page).")


#: How the tables say a metric's direction (the registry's ``direction``).
BETTER = {"higher": "higher ↑", "lower": "lower ↓", "none": ""}


def comparison_frame(reports: dict[str, MetricReport], *, interval_rows: bool = False) -> pd.DataFrame:
    """Display table: one row per metric, which way is better (the registry's direction, e.g. lower for the Brier
    score and log loss), one column per model with "value (low–high)", ★ on the best model.

    ``interval_rows``: the intervals on a row of their own under each metric's values ("95% interval", key "") instead
    of beside them, so a column is as wide as a value or an interval rather than both (a narrow screen)."""
    first = next(iter(reports.values()))
    level = f"{percent_level(first.confidence_level)} interval"
    rows = []
    for key in first.keys:
        row = {"metric": first[key].name, "better": BETTER[get(first.task, key).direction], "key": key}
        below = {"metric": level, "better": "", "key": ""}
        winners = best_models(reports, key)
        for model, report in reports.items():
            if key not in report:
                row[model] = below[model] = ""
                continue
            r = report[key]
            text = number(r.value, count=get(report.task, key).kind == "count")
            ci = bounds(r.low, r.high)
            below[model] = ci
            row[model] = (f"{text} ({ci})" if ci and not interval_rows else text) + (" ★" if model in winners else "")
        rows.append(row)
        if interval_rows and any(below[model] for model in reports):
            rows.append(below)
    return pd.DataFrame(rows)


#: The header ending of a model's fold-spread column (`with_fold_spread`).
FOLD_SPREAD_SUFFIX = " · folds: mean ± SD"


def with_fold_spread(table: pd.DataFrame, folds, reports: dict[str, MetricReport]) -> pd.DataFrame:
    """:func:`comparison_frame` with a "<model> · folds: mean ± SD" column after each model's pooled column, from a
    :class:`assess.analyses.folds.FoldSummary` (counts get none: a mean count per fold is not a count)."""
    spread = folds.summary.set_index(["model", "key"])
    out = table.copy()
    for model, report in reports.items():
        cells = []
        for key in out["key"]:
            if (model, key) not in spread.index or get(report.task, key).kind == "count":
                cells.append("")
                continue
            row = spread.loc[(model, key)]
            cells.append(f"{number(row['mean'])} ± {number(row['sd'])}" if np.isfinite(row["mean"]) else UNDEFINED)
        out.insert(out.columns.get_loc(model) + 1, f"{model}{FOLD_SPREAD_SUFFIX}", cells)
    return out


def baseline_text(result, baseline: str, *, count: bool) -> str:
    """One baseline cell, as the Metrics page and the report both write it: a count baseline is an expected count
    (78.99 true positives at random), written whole as counts are; undefined as —."""
    value = result.baselines.get(baseline, np.nan)
    return number(np.round(value) if count else value, count=count)


def model_frame(report: MetricReport) -> pd.DataFrame:
    """Display table of one model: formatted value, interval, the interval's method in words
    (`assess.intervals.IntervalMethod.words`; the exports keep the full method with its seed), the task's baselines (majority,
    stratified, uniform for classification; mean, median for regression), and why/caveat."""
    rows = []
    for r in report.results:
        count = get(report.task, r.key).kind == "count"
        rows.append({"metric": r.name, "value": number(r.value, count=count), "interval": bounds(r.low, r.high),
                     "method": method_name(r.how)}
                    | {b: baseline_text(r, b, count=count) for b in baseline_columns(report.task)}
                    | {"remark": r.reason or r.note or ""})
    return pd.DataFrame(rows)


def long_frame(reports: dict[str, MetricReport]) -> pd.DataFrame:
    """Export table: one row per model and metric with the unrounded value, interval, method, reason, baselines."""
    frames = []
    for model, report in reports.items():
        frame = report.to_frame()
        frame.insert(0, "model", model)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def per_class_frame(reports: dict[str, MetricReport]) -> pd.DataFrame | None:
    """The per-class (multi-class) or per-label (multi-label) tables of every model, stacked with a model column."""
    frames = []
    for model, report in reports.items():
        if report.table is not None:
            table = report.table.reset_index()  # the index holds the class (label) names
            table.insert(0, "model", model)
            frames.append(table)
    return pd.concat(frames, ignore_index=True) if frames else None


def about(value: float) -> str:
    """A proportion in words people use: "about 4 in 5", from the fractions with denominator 2, 3, 4, 5 or 10.

    >>> about(0.82), about(0.5), about(0.34), about(0.97), about(0.004), about(1.0)
    ('about 4 in 5', 'about 1 in 2', 'about 1 in 3', 'almost all', 'almost none', 'all')
    """
    if value >= 1:
        return "all"
    if value <= 0:
        return "none"
    if value >= 0.95:
        return "almost all"
    if value < 0.05:
        return "almost none"
    candidates = sorted({Fraction(k, d) for d in (2, 3, 4, 5, 10) for k in range(1, d)},
                        key=lambda f: (abs(float(f) - value), f.denominator))
    frac = candidates[0]
    return f"about {frac.numerator} in {frac.denominator}"


def _interval(result, level: float) -> str:
    ci = bounds(result.low, result.high)
    return f", {percent_level(level)} CI {ci}" if ci else ""


def _times(value: float) -> str:
    """How often, in words: "about 4 in 5 times", "about half the time", "almost never".

    >>> _times(0.8), _times(0.52), _times(0.01)
    ('about 4 in 5 times', 'about half the time', 'almost never')
    """
    words = about(value)
    return {"all": "every time", "almost all": "almost every time", "none": "never", "almost none": "almost never",
            "about 1 in 2": "about half the time"}.get(words, f"{words} times")


def _value_sentences(name: str, report: MetricReport, level: float, units: str,
                     nominal: float | None = None) -> list[str]:
    """Regression / pooled forecast: the MAE against the mean predictor's, the bias, R², in the units of y_true."""
    out = []
    unit = f" {units}" if units else ""
    errs = "forecasts" if report.task is Task.FORECAST else "predictions"
    if "mae" in report and report["mae"].defined:
        m = report["mae"]
        ci = _interval(m, level)
        if report.task is Task.FORECAST:
            # the naive forecast exists only where a value was seen before (not a series' first rows): its MAE is
            # scored on those rows, which can be fewer than the model's — said, so the two are not read as alike
            base = m.baselines.get("naive", np.nan)
            mean = (f"; the naive forecast, the last value seen, is off by {number(base)}{unit} on the rows where it "
                    "can be formed, which can be fewer than the model's" if np.isfinite(base) else "")
        else:
            base = m.baselines.get("mean", np.nan)
            mean = (f"; the mean predictor (always the mean of y_true) is off by {number(base)}{unit}"
                    if np.isfinite(base) else "")
        out.append(f"{name}'s {errs} are off by {number(m.value)}{unit} on average (MAE{ci}){mean}.")
    if "mean_error" in report and report["mean_error"].defined:
        b = report["mean_error"]
        way = ("over-predicts" if b.value > 0 else "under-predicts" if b.value < 0
               else "neither over- nor under-predicts")
        size = f" by {number(abs(b.value))}{unit}" if b.value != 0 else ""
        if np.isfinite(b.low) and np.isfinite(b.high) and b.low < 0 < b.high:   # the interval says: no clear bias
            out.append(f"{name} shows no clear bias: its mean error {number(b.value)}{unit} has a "
                       f"{percent_level(level)} CI of {bounds(b.low, b.high)}, which includes 0.")
        else:
            out.append(f"{name} {way}{size} on average (mean error {number(b.value)}{_interval(b, level)}).")
    if "r2" in report and report["r2"].defined:
        r = report["r2"]
        out.append(f"{name} explains {r.value:.0%} of the variation of the truth (R² {number(r.value)}"
                   f"{_interval(r, level)}; 0 is predicting the mean).")
    if report.task is Task.FORECAST:
        out += _forecast_sentences(name, report, level, nominal)
    return out


def _forecast_sentences(name: str, report: MetricReport, level: float, nominal: float | None) -> list[str]:
    """MASE as "times as far off as the naive forecast" (Hyndman & Koehler 2006) and the interval coverage.

    MASE's scale is the naive forecast's mean error over each whole series (every row of its actuals), not over the
    rows the model forecast: the sentence says so."""
    out = []
    for key, what in (("mase", "the naive forecast one step ahead (the last value seen)"),
                      ("mase_seasonal", "the seasonal naive forecast (the value one season earlier)")):
        if key in report and report[key].defined:
            m = report[key]
            out.append(f"{name}'s forecasts are {number(m.value)} times as far off as {what} is over each whole "
                       f"series; below 1 is better than it (MASE{_interval(m, level)}).")
    if "coverage" in report and report["coverage"].defined:
        c = report["coverage"]
        meant = f", against the {percent_level(nominal)} they are meant to" if nominal is not None else \
            " (their nominal level is not stated)"
        out.append(f"{name}'s prediction intervals hold the actual value {c.value:.0%} of the time{meant}; "
                   f"coverage {number(c.value)}{_interval(c, level)}.")
    return out


#: Kaufman & Rousseeuw (1990, ch. 2, Table 4)'s reading of a mean silhouette: (lower bound, words).
SILHOUETTE_WORDS = ((0.70, "a strong structure"), (0.50, "a reasonable structure"),
                    (0.25, "a weak structure that could be artificial"), (-np.inf, "no substantial structure"))


def _clustering_sentences(name: str, inner: str, report: MetricReport, level: float) -> list[str]:
    """What the headline indices say of one clustering, in words: agreement with the reference classes (adjusted
    Rand index, against the 0 of random clusters of the same sizes), purity as "rows that share their cluster's
    main class", the normalized mutual information as shared information, and the mean silhouette read by Kaufman &
    Rousseeuw's bands."""
    out = []
    if "adjusted_rand_index" in report and report["adjusted_rand_index"].defined:
        a = report["adjusted_rand_index"]
        how = ("matches the reference classes exactly" if a.value >= 1 - 1e-12 else
               "agrees with the reference classes no better than random clusters of the same sizes" if a.value <= 0
               else "agrees with the reference classes beyond chance")
        out.append(f"{name} {how} (adjusted Rand index {number(a.value)}{_interval(a, level)}; 0 is random clusters "
                   "of the same sizes, 1 the classes exactly).")
    if "purity" in report and report["purity"].defined:
        p = report["purity"]
        out.append(f"In {inner}, {about(p.value)} rows share their "
                   f"cluster's most common class (purity {number(p.value)}{_interval(p, level)}).")
    if "normalized_mutual_info" in report and report["normalized_mutual_info"].defined:
        m = report["normalized_mutual_info"]   # I(C; K) over the mean of H(C) and H(K)
        out.append(f"{name}'s clusters and the reference classes share {m.value:.0%} of their information "
                   f"(normalized mutual information {number(m.value)}{_interval(m, level)}; 0 the clusters say "
                   "nothing of the classes, 1 they are the classes).")
    if "silhouette" in report and report["silhouette"].defined:
        s = report["silhouette"]
        words = next(w for bound, w in SILHOUETTE_WORDS if s.value > bound)
        out.append(f"On the features alone, {inner} shows {words} "
                   f"(mean silhouette {number(s.value)}{_interval(s, level)}; 1 is compact, well-apart clusters, 0 "
                   "rows on the borders between clusters, below 0 rows closer to another cluster).")
    return out


def headline_sentences(reports: dict[str, MetricReport], *, positive: str | None = None,
                       units: str = "", nominal: float | None = None) -> list[str]:
    """One sentence per model for the headline metrics that were computed, for a stakeholder to read aloud.

    ``units``: what y_true is measured in, for regression and forecast sentences (e.g. "mmol/L"); default none.
    ``nominal``: forecasts, the level the prediction intervals are meant to hold the truth at.
    """
    sentences = []
    for model, report in reports.items():
        level = report.confidence_level
        name = f"Model {model}"   # plain text: pages pass sentences through `md`, which escapes what a file holds
        inner = f"model {model}"  # the same inside a sentence ("When model gbm flags …")
        if report.task is Task.BINARY:
            # "positive (1) cases", "malignant cases": a class named 1 or True never reads "1 in 3 1 cases"
            phrase = class_phrase(positive, role="positive") if positive is not None else "positive"
            case = f"{phrase} cases"
            if "recall" in report and report["recall"].defined:
                r = report["recall"]
                base = r.baselines.get("majority", np.nan)
                majority = (f"; always predicting the majority class finds {about(base)}"
                            if np.isfinite(base) else "")
                sentences.append(f"{name}'s recall is {number(r.value)} ({_interval(r, level)[2:] or 'no interval'}): "
                                 f"it finds {about(r.value)} {case}{majority}.")
            if "precision" in report and report["precision"].defined:
                p = report["precision"]
                sentences.append(f"When {inner} flags a case as {phrase}, it is right "
                                 f"{_times(p.value)} (precision {number(p.value)}{_interval(p, level)}).")
            if "roc_auc" in report and report["roc_auc"].defined:
                a = report["roc_auc"]
                sentences.append(f"Given one {phrase} case and one other case at random, {inner} scores the "
                                 f"{phrase} case higher {a.value:.1%} of the time (ROC AUC "
                                 f"{number(a.value)}{_interval(a, level)}; 0.5 is guessing).")
        elif report.task is Task.MULTICLASS:
            if "accuracy" in report and report["accuracy"].defined:
                a = report["accuracy"]
                base = a.baselines.get("majority", np.nan)
                majority = (f"; always predicting the most common class gets {about(base)} right"
                            if np.isfinite(base) else "")
                sentences.append(f"{name} labels {about(a.value)} samples correctly (accuracy {number(a.value)}"
                                 f"{_interval(a, level)}){majority}.")
            if "balanced_accuracy" in report and report["balanced_accuracy"].defined:
                b = report["balanced_accuracy"]
                sentences.append(f"Averaged over the {len(report.classes)} classes, {inner} finds "
                                 f"{about(b.value)} of each class (balanced accuracy {number(b.value)}"
                                 f"{_interval(b, level)}).")
        elif report.task is Task.CLUSTERING:
            sentences += _clustering_sentences(f"Clustering {model}", f"clustering {model}", report, level)
        elif report.task in (Task.REGRESSION, Task.FORECAST):
            sentences += _value_sentences(name, report, level, units, nominal)
        elif report.task is Task.MULTILABEL:
            if "exact_match_ratio" in report and report["exact_match_ratio"].defined:
                e = report["exact_match_ratio"]
                sentences.append(f"{name} gets the whole label set exactly right for {about(e.value)} samples "
                                 f"(exact match ratio {number(e.value)}{_interval(e, level)}).")
            if "hamming_loss" in report and report["hamming_loss"].defined:
                h = report["hamming_loss"]
                sentences.append(f"{name} gets {about(h.value)} individual label decisions wrong (Hamming loss "
                                 f"{number(h.value)}{_interval(h, level)}).")
    return sentences


def breakdown_table(frame: pd.DataFrame, level: str, key: str) -> pd.DataFrame | None:
    """Display table of one metric from a forecast breakdown (:func:`assess.metrics.reports.compute_breakdowns`):
    a row per horizon (``level="horizon"``) or series, a column per model, "value (low–high)" in each cell; None when
    the file has no such grouping."""
    part = frame[(frame["by"] == level) & (frame["key"] == key)]
    if part.empty:
        return None
    group = part["horizon"].map(lambda h: f"{h:g}") if level == "horizon" else part["series"].astype(str)
    cells = [number(v) + (f" ({bounds(lo, hi)})" if bounds(lo, hi) else "")
             for v, lo, hi in zip(part["value"], part["low"], part["high"])]
    table = pd.DataFrame({level: group.to_numpy(), "model": part["model"].to_numpy(), "cell": cells})
    order = list(dict.fromkeys(table[level]))
    models = list(dict.fromkeys(table["model"]))
    wide = table.pivot(index=level, columns="model", values="cell").reindex(index=order, columns=models)
    return wide.reset_index().rename_axis(columns=None)
