"""What the Slices page says of one model and metric, from a `SliceAnalysis`: where the model fails (the slices worse
than all rows, every model's worst slice), the per-slice table with its tests, the omnibus test; and the fairness gaps
of one protected attribute. Values and sentences only; the page draws them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from assess.analyses.slices import FairnessReport, SliceAnalysis, fairness_gaps, slice_values
from assess.core.data import Task
from assess.core.decision import Decision
from assess.core.formatting import UNDEFINED, bounds, name_in_sentence, number, p_value
from assess.inputs.assessment import Assessment
from assess.intervals import method_name
from assess.metrics.registry import TASKS, applicable_to, get


def sliceable(task: Task) -> bool:
    """Slices for classification, regression and forecasts; clustering has its indices (the Clusters page)."""
    return task in TASKS and task is not Task.CLUSTERING


def metric_choices(assessment: Assessment) -> dict[str, str]:
    """{key: name} of the metrics shown per slice: what the file can answer (`registry.applicable_to`), no counts and
    no interval scores."""
    return {s.key: s.name for s in applicable_to(assessment) if s.kind != "count" and s.needs != "intervals"}


def _tested(p) -> bool:
    return isinstance(p, float) and bool(np.isfinite(p))


@dataclass(frozen=True)
class SliceReport:
    """One model's slices by one metric: ``rows`` (per slice, with its test in ``shown``), the all-rows value, the
    sentence on the worst slices, every model's worst slice, the omnibus sentence and the table the page shows."""

    rows: pd.DataFrame
    shown: pd.DataFrame
    overall: float
    worst: str | None
    every_worst: pd.DataFrame | None
    omnibus: str | None
    table: pd.DataFrame
    notes: tuple[str, ...]


def slice_report(analysis: SliceAnalysis, task: Task, model: str, metric: str, min_size: int,
                 confidence_level: float = 0.95) -> SliceReport:
    """The `SliceReport` of ``model`` by ``metric`` (a key of ``task``); slices under ``min_size`` rows untested."""
    spec = get(task, metric)
    higher = spec.direction != "lower"
    rows = analysis.metrics[(analysis.metrics["model"] == model) & (analysis.metrics["key"] == metric)]
    tests = analysis.tests[(analysis.tests["model"] == model) & (analysis.tests["key"] == metric)]
    shown = rows.merge(tests[["slice", "test", "pvalue", "p_adjusted", "rest"]], on="slice", how="left")
    overall = float(rows["overall"].iloc[0]) if len(rows) else float("nan")

    alpha = 1.0 - confidence_level   # p-values show the digits that decide against it (`p_value`)
    worst = analysis.worst(model, metric, count=3)
    # only slices worse than all rows are "worst": with two slices one is above the overall value
    worst = worst[worst["value"] < overall] if higher else worst[worst["value"] > overall]
    sentence = None
    if len(worst):
        parts = [f"{r.slice} {number(r.value)} ("
                 + (f"adjusted {p_value(r.p_adjusted, alpha)}" if _tested(r.p_adjusted) else "not tested") + ")"
                 for r in worst.itertuples(index=False)]
        sentence = (f"Worst slices of model {model} by {name_in_sentence(spec.name)} (all rows: {number(overall)}): "
                    + "; ".join(parts) + ".")
    elif np.isfinite(overall):
        sentence = (f"No slice of model {model} has a worse {name_in_sentence(spec.name)} than all rows "
                    f"({number(overall)}).")

    every_worst = None
    models = list(dict.fromkeys(analysis.metrics["model"]))
    if len(models) > 1:   # every model's worst slice at a glance; the chart is the chosen model's
        found = [w.assign(model=m) for m in models if len(w := analysis.worst(m, metric, count=1))]
        if found:
            every = pd.concat(found, ignore_index=True)
            every_worst = pd.DataFrame({
                "Model": every["model"], "Worst slice": every["slice"], "Rows": every["n"].map("{:,}".format),
                spec.name: every["value"].map(number), "All rows": every["overall"].map(number),
                "Adjusted p (BH)": every["p_adjusted"].map(
                    lambda p: p_value(p, alpha, cell=True) if _tested(p) else "not tested")})

    omnibus = analysis.omnibus[(analysis.omnibus["model"] == model) & (analysis.omnibus["key"] == metric)]
    omnibus_sentence = None
    if len(omnibus):
        o = omnibus.iloc[0]
        omnibus_sentence = (f"{o['test']} across the {int(o['slices']):,} tested slices: statistic "
                            f"{o['statistic']:.3g} on {int(o['df']):,} df, {p_value(o['pvalue'], alpha)}.")
    table = pd.DataFrame({
        "Slice": shown["slice"], "Rows": shown["n"].map("{:,}".format),
        spec.name: shown["value"].map(number),
        "Interval": [bounds(lo, hi) for lo, hi in zip(shown["low"], shown["high"])],
        "Interval method": shown["method"].map(method_name),
        # signed, with the decimals of the values beside it ("-0.007", "+0.014"), not mixed significant figures
        "Gap to all rows": shown["gap"].map(lambda g: ("+" if g >= 0 else "") + number(g) if np.isfinite(g)
                                            else UNDEFINED),
        "Rest of the rows": shown["rest"].map(number),
        "Test": shown["test"].fillna("not tested (no other rows, or undefined)").where(
            shown["tested"], f"not tested (under {int(min_size):,} rows)"),
        "p": shown["pvalue"].map(lambda p: p_value(p, alpha, cell=True)),
        "Adjusted p (BH)": shown["p_adjusted"].map(lambda p: p_value(p, alpha, cell=True)),
    })
    notes = tuple(n for n in analysis.notes if n.startswith(f"{model}:"))
    return SliceReport(rows, shown, overall, sentence, every_worst, omnibus_sentence, table, notes)


def fairness_view(assessment: Assessment, model: str, column: str, decision: Decision,
                  confidence_level: float) -> FairnessReport | None:
    """`fairness_gaps` of ``model`` across the values of ``column`` (a protected attribute); None when the model's
    rows hold fewer than two of them."""
    labels = slice_values(assessment.frame, [column], name=assessment.table.name)["slice"]
    groups = labels.iloc[assessment.model_rows[model]].to_numpy()
    if len(set(groups)) < 2:
        return None
    return fairness_gaps(assessment.predictions(model), groups, column=column, decision=decision,
                         confidence_level=confidence_level)


def fairness_table(report: FairnessReport) -> pd.DataFrame:
    """The gaps under their display names ("Equalised odds ratio"), with their intervals, how each was computed and
    what it means near no gap (`assess.analyses.slices.gap_intervals`)."""
    gaps = report.gaps
    return pd.DataFrame({"Gap": gaps["name"], "Value": gaps["value"].map(number),
                         "Interval": [bounds(lo, hi) for lo, hi in zip(gaps["low"], gaps["high"])],
                         "Interval method": gaps["method"].map(method_name), "Near no gap": gaps["note"].fillna("")})


def fold_table(summary: pd.DataFrame) -> pd.DataFrame:
    """`assess.analyses.folds.FoldSummary.summary` under the Slices page's headers, formatted."""
    s = summary
    return pd.DataFrame({"Model": s["model"], "All rows pooled": s["pooled"].map(number),
                         "Mean over folds": s["mean"].map(number), "SD": s["sd"].map(number),
                         "Interval of the mean": [bounds(lo, hi) for lo, hi in zip(s["low"], s["high"])],
                         "Folds": s["n_folds"].map("{:,}".format), "Interval method": s["method"]})
