"""Slices page: where the model fails (a metric per slice with intervals, tests across slices, the worst slices,
fairness gaps), how stable the estimate is across cross-validation folds, and whether more data still helps."""

import numpy as np
import pandas as pd
import streamlit as st

from assess.present import charts
from assess.present.charts.slices import (fairness_chart, fold_metric_chart, learning_curve_chart, slice_forest_chart,
                                  slice_heatmap)
from assess.inputs.columns import quote
from assess.analyses.folds import fold_metrics, learning_curve, train_size_column
from assess.core.data import Task
from assess.core.errors import AssessError
from assess.metrics import metrics_for
from assess.metrics.registry import TASKS, get
from assess.analyses.slices import (DEFAULT_TEST_METRIC, MAX_SLICES, MIN_SLICE_SIZE, analyse_slices,
                           default_slice_columns, fairness_gaps, slice_candidates, slice_values)
from assess.core.formatting import UNDEFINED, bounds, number, p_value, percent_level
from ui.state import current_decision, md, memo, require_assessment
from ui.widgets import all_charts_button, chart, data_table, decision_note

st.title("Slices")
assessment = require_assessment()
task = assessment.task
if task not in TASKS or task is Task.CLUSTERING:   # clustering has its indices, not slices: the Clusters page
    st.info("Slices are available for classification, regression and forecasts; this file's task is "
            f"{task.label}{' — the Clusters page shows its indices' if task is Task.CLUSTERING else ''}.")
    st.stop()

roles = assessment.roles
# Counting distinct values of every column is a pass over the file: once per file and roles, not on every rerun.
candidates = memo(assessment, "slice_candidates", (), lambda: slice_candidates(assessment))
first = assessment.predictions()
specs = [s for s in metrics_for(task) if s.kind != "count" and (
    s.needs in ("labels", "values") or (first.scores is not None and s.needs in ("scores", "probabilities")))]
names = {s.key: s.name for s in specs}
default_metric = DEFAULT_TEST_METRIC[task]
colors = charts.model_colors(assessment.models)
decision = current_decision()
figures: list = []

# --- settings ------------------------------------------------------------------------------------------------------
left, mid, right = st.columns(3)
with left:
    defaults, _ = default_slice_columns(assessment, candidates)
    columns = st.multiselect("Slice by", candidates, default=defaults, key="slice_columns",
                             help="Each value of a column is a slice; two or more columns are crossed "
                                  "(every combination of their values). The Data page's *Subgroup slices* are chosen "
                                  f"first. Columns with more than {MAX_SLICES} values are not offered.")
with mid:
    metric = st.selectbox("Metric", list(names), index=list(names).index(default_metric) if default_metric in names
                          else 0, format_func=names.get, key="slice_metric",
                          help="Shown per slice and tested across slices.")
    model = st.selectbox("Model", list(assessment.models), format_func=str, key="slice_model")
with right:
    min_size = st.number_input("Minimum slice size to test", 2, 100_000, MIN_SLICE_SIZE, step=5,
                               key="slice_min_size",
                               help="Smaller slices are shown (hollow, grey) but not tested: their intervals are "
                                    "too wide for a test to mean anything.")
    level = st.select_slider("Confidence level", [0.80, 0.90, 0.95, 0.99], value=0.95, format_func=percent_level,
                             key="slice_level")

if task.is_classification:
    decision_note(assessment)
spec = get(task, metric)
higher = spec.direction != "lower"
alpha = round(1 - float(level), 12)   # p-values are written with the digits that keep them on their side of it

if not candidates:
    st.info("This file has no column to slice by (a column with 2 to 100 distinct values besides the predictions).")
elif not columns:
    st.info("Choose at least one column to slice by.")
else:
    params = (tuple(columns), metric, decision, int(min_size), float(level))
    try:
        analysis = memo(assessment, "slices", params, lambda: analyse_slices(
            assessment, columns, keys=[metric], test_keys=[metric], decision=decision, ci="auto",
            confidence_level=float(level), min_size=int(min_size)))
    except (AssessError, ValueError) as exc:
        st.error(md(str(exc)))
        st.stop()
    rows = analysis.metrics[(analysis.metrics["model"] == model) & (analysis.metrics["key"] == metric)]
    tests = analysis.tests[(analysis.tests["model"] == model) & (analysis.tests["key"] == metric)]
    shown = rows.merge(tests[["slice", "test", "pvalue", "p_adjusted", "rest"]], on="slice", how="left")
    overall = float(rows["overall"].iloc[0]) if len(rows) else float("nan")

    st.subheader("Where the model fails")
    worst = analysis.worst(model, metric, count=3)
    # only slices worse than all rows are "worst": with two slices one is above the overall value
    worst = worst[worst["value"] < overall] if higher else worst[worst["value"] > overall]
    if len(worst):
        parts = []
        for r in worst.itertuples(index=False):
            p = r.p_adjusted
            note = f"adjusted {p_value(p, alpha)}" if isinstance(p, float) and np.isfinite(p) else "not tested"
            parts.append(f"{r.slice} {number(r.value)} ({note})")
        st.markdown(md(f"Worst slices of {model} by {spec.name} (all rows: {number(overall)}): "
                       + "; ".join(parts) + "."))
    elif np.isfinite(overall):
        st.markdown(md(f"No slice of {model} has a worse {spec.name} than all rows ({number(overall)})."))
    if len(assessment.models) > 1:   # every model's worst slice at a glance; the chart below is the chosen model's
        worst_rows = [analysis.worst(m, metric, count=1).assign(model=m) for m in assessment.models]
        worst_rows = [w for w in worst_rows if len(w)]
        if worst_rows:
            every = pd.concat(worst_rows, ignore_index=True)
            data_table(pd.DataFrame({
                "Model": every["model"], "Worst slice": every["slice"], "Rows": every["n"].map("{:,}".format),
                spec.name: every["value"].map(number), "All rows": every["overall"].map(number),
                "Adjusted p (BH)": every["p_adjusted"].map(
                    lambda p: p_value(p, alpha, cell=True) if isinstance(p, float) and np.isfinite(p)
                    else "not tested")}),
                repeat=("Model",))
    fig = slice_forest_chart(rows=shown, overall=overall, metric=spec.name, model=model, min_size=int(min_size),
                             confidence_level=float(level), higher_is_better=higher)
    figures.append(fig)
    chart(fig, f"{spec.name} per slice", key="slice_forest")
    for note in analysis.notes:
        if note.startswith(f"{model}:"):
            st.caption(md(note))

    if len(analysis.columns) == 2:
        fig = slice_heatmap(rows=rows, row_column=analysis.columns[0], col_column=analysis.columns[1],
                            metric=spec.name, model=model, min_size=int(min_size))
        figures.append(fig)
        chart(fig, f"{spec.name} by crossed slices", key="slice_heatmap")

    st.subheader("Tests across slices")
    omnibus = analysis.omnibus[(analysis.omnibus["model"] == model) & (analysis.omnibus["key"] == metric)]
    if len(omnibus):
        o = omnibus.iloc[0]
        st.markdown(md(f"{o['test']} across the {int(o['slices']):,} tested slices: statistic "
                       f"{o['statistic']:.3g} on {int(o['df']):,} df, {p_value(o['pvalue'], alpha)}."))
    table = pd.DataFrame({
        "Slice": shown["slice"], "Rows": shown["n"].map("{:,}".format),
        spec.name: shown["value"].map(number),
        "Interval": [bounds(lo, hi) for lo, hi in zip(shown["low"], shown["high"])],
        # signed, with the decimals of the values beside it ("-0.007", "+0.014"), not mixed significant figures
        "Gap to all rows": shown["gap"].map(lambda g: ("+" if g >= 0 else "") + number(g) if np.isfinite(g)
                                            else UNDEFINED),
        "Rest of the rows": shown["rest"].map(number),
        "Test": shown["test"].fillna("not tested (no other rows, or undefined)").where(
            shown["tested"], f"not tested (under {int(min_size):,} rows)"),
        "p": shown["pvalue"].map(lambda p: p_value(p, alpha, cell=True)),
        "Adjusted p (BH)": shown["p_adjusted"].map(lambda p: p_value(p, alpha, cell=True)),
    })
    # nine columns: two tables at 1024 px, each naming its slices; "p-value" as on the Compare page, not "P"
    data_table(table, repeat=("Slice",), headers={"p": "p-value"})
    st.caption("Each slice is tested against the rest of the rows: χ² (Fisher's exact test when an expected count "
               "is below 5) for proportions, Kruskal–Wallis on per-sample losses for mean losses, DeLong for the ROC "
               "AUC, a two-sample bootstrap for other metrics. Adjusted p: Benjamini–Hochberg false discovery rate "
               "across the slices (ISO/IEC TS 4213 7.10.3).")

    if task is not Task.BINARY:
        st.caption("Fairness gaps (demographic parity, equalised odds) compare the rates of a binary decision; this "
                   f"file's task is {task.label}.")
    elif len(analysis.columns) > 1:
        st.caption("Fairness gaps need one slice column, the protected attribute; choose a single column to see them.")
    if task is Task.BINARY and len(analysis.columns) == 1:
        st.subheader("Fairness gaps")
        st.caption(md(f"If the column {quote(analysis.columns[0])} is a protected attribute: the selection rate, "
                      "true positive rate and false positive rate per group and fairlearn's summaries — "
                      "difference = largest − smallest group value, ratio = smallest / largest (demographic parity: selection rate; equal "
                      "opportunity: TPR; equalised odds: the worse of TPR and FPR). Intervals: bootstrap within "
                      "each group."))
        labels = slice_values(assessment.frame, analysis.columns, name=assessment.table.name)["slice"]
        groups = labels.iloc[assessment.model_rows[model]].to_numpy()
        if len(set(groups)) >= 2:
            report = memo(assessment, "fairness", (model, analysis.columns, decision, float(level)),
                          lambda: fairness_gaps(assessment.predictions(model), groups, column=analysis.columns[0],
                                                decision=decision, confidence_level=float(level)))
            fig = fairness_chart(by_group=report.by_group, column=analysis.columns[0], model=model)
            figures.append(fig)
            chart(fig, "Fairness rates", key="fairness")
            gaps = report.gaps
            # display names on screen ("Equalised odds ratio"); the keys are fairlearn's function names
            data_table(pd.DataFrame({"Gap": gaps["name"], "Value": gaps["value"].map(number),
                                       "Interval": [bounds(lo, hi) for lo, hi in zip(gaps["low"], gaps["high"])]}))

if roles.fold:
    st.subheader("Across cross-validation folds")
    try:
        folds = memo(assessment, "fold_metrics", (metric, decision, float(level)),
                     lambda: fold_metrics(assessment, keys=[metric], decision=decision, confidence_level=float(level)))
    except (AssessError, ValueError) as exc:
        st.error(md(str(exc)))
    else:
        fig = fold_metric_chart(per_fold=folds.per_fold, summary=folds.summary, metric=spec.name, colors=colors)
        figures.append(fig)
        chart(fig, f"{spec.name} per fold", key="folds")
        s = folds.summary
        data_table(pd.DataFrame({"Model": s["model"], "All rows pooled": s["pooled"].map(number),
                                   "Mean over folds": s["mean"].map(number), "SD": s["sd"].map(number),
                                   "Interval of the mean": [bounds(lo, hi) for lo, hi in zip(s["low"], s["high"])],
                                   "Folds": s["n_folds"].map("{:,}".format), "Interval method": s["method"]}),
                   repeat=("Model",))
        st.caption("The t interval over one k-fold run treats the folds as independent (they share training data, "
                   "so it is somewhat narrow); with a repeat column it is the Nadeau–Bengio corrected resampled t "
                   "interval, (1/J + 1/(k−1)) s² (Nadeau & Bengio 2003; Bouckaert & Frank 2004).")

size_column = train_size_column(assessment)
if size_column is not None:
    st.subheader("Learning curve")
    try:
        curve = memo(assessment, "learning_curve", (metric, decision, float(level)),
                     lambda: learning_curve(assessment, metric, decision=decision, confidence_level=float(level)))
    except (AssessError, ValueError) as exc:
        st.error(md(str(exc)))
    else:
        fig = learning_curve_chart(points=curve.points, metric=spec.name, column=curve.column, colors=colors)
        figures.append(fig)
        chart(fig, "Learning curve", key="learning_curve")
        for r in curve.trend.itertuples(index=False):
            st.markdown(md(f"{r.model}: {r.verdict}"))

all_charts_button(figures, "slices.pdf", key="slices")
