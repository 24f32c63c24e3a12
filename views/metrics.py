"""Metrics page: choose metrics by group, intervals and parameters; one table per model with CI and baselines.

Classification shows its decision widgets (labels from, threshold, β, k); regression and forecast files show only what
applies to them (assess/present/metrics_view.py says which). The numbers and the JSON download are those of
``python -m assess metrics`` for the same settings (assess/metrics/document.py)."""


import streamlit as st

from assess.analyses.folds import fold_metrics
from assess.core.data import Task
from assess.core.formatting import percent_level
from assess.core.progress import Progress
from assess.metrics.document import MetricsSettings, compute_metrics, forecast_breakdowns
from assess.present import metrics_view as mv
from assess.present.summary import breakdown_table
from ui import clustering_view, data_directory, estimation_widgets
from ui import metrics_widgets as ms
from ui.planning_panel import planning_panel
from ui.rows_widgets import confidently_wrong_rows
from ui.state import cached, current_decision, md, require_assessment
from ui.widgets import (choose_metrics, comparison_config, data_table, decision_note, per_model_tabs,
                        resampling_inputs, throttled)

data_directory.metrics_view()   # a data-directory file assessed out of core: its own view, then stop
st.title("Metrics")
assessment = require_assessment()
if assessment.task is Task.CLUSTERING:   # no decision rule, threshold, β or k: its own view (ui/clustering_view.py)
    clustering_view.render(assessment)
    st.stop()
task, asks = assessment.task, mv.questions(assessment)
forecast = task is Task.FORECAST

# --- settings ------------------------------------------------------------------------------------------------------
# the models on a row of their own: in a third of a 1024-px page two names already did not fit
models = st.multiselect("Models", list(assessment.models), default=list(assessment.models))
left, mid, right = st.columns(3)
with left:
    output = None
    if assessment.outputs:  # multi-output regression: the uniform average, or one output's own metrics
        output = st.selectbox("Output", [mv.ALL_OUTPUTS, *assessment.outputs],
                              help="Each output (a `y_true_<name>`/`y_pred_<name>` pair) is assessed on its own; "
                                   "the average is their uniform mean, metric by metric.")
    intervals = mv.interval_choices(task)
    ci, bootstrap_method = intervals.choices[st.selectbox("Confidence interval", list(intervals.choices),
                                                          help=intervals.help)]
with mid:
    level = st.select_slider("Confidence level", [0.80, 0.90, 0.95, 0.99], value=0.95, format_func=percent_level,
                             disabled=ci is None)
    n_resamples, seed = resampling_inputs(st, st, disabled=ci not in ("bootstrap", "auto"),
                                          default=200 if asks.large else None, help=mv.resamples_help(asks.large))
with right:
    season, interval_level = ms.forecast_settings(assessment, asks) if forecast else (None, None)
    beta, k = ms.decision_settings(assessment, asks) if not asks.values_task else (1.0, 2)

chosen = choose_metrics(asks.specs, set(asks.defaults), key=task.value)
if not models or not chosen:
    st.info("Pick at least one model and one metric.")
    st.stop()
if not asks.values_task:
    decision_note(assessment, page="metrics")

# --- compute (shared by every session asking the same; a bootstrap shows its progress) -----------------------------
settings = MetricsSettings(tuple(models), tuple(chosen), current_decision(), float(beta), int(k), ci, float(level),
                           int(n_resamples), int(seed), bootstrap_method, season if forecast else None,
                           interval_level if forecast else None)
bootstrapping = ci in ("bootstrap", "auto")
# a large file: its values, then the intervals from a formula, while the bootstrap runs (ui/metrics_widgets.py)
preview = ms.values_first(assessment, settings) if bootstrapping and asks.large else st.empty()
bar = st.progress(0.0, text="Computing…") if bootstrapping else None
try:
    computed = cached(compute_metrics, assessment, settings, progress=Progress(
        throttled(lambda f: bar.progress(min(1.0, f), text=f"Bootstrap intervals: {f:.0%}")) if bar else None))
    breakdowns = cached(forecast_breakdowns, assessment, settings, tuple(models)) if forecast else None
except ValueError as exc:  # AssessError included: e.g. labels from a column a model does not have
    preview.empty()
    st.error(md(str(exc)))
    st.stop()
finally:
    if bar:
        bar.empty()
preview.empty()
view = mv.metrics_view(assessment, settings, computed, output=output, breakdowns=breakdowns)

# --- results -------------------------------------------------------------------------------------------------------
if view.output_caption:
    st.caption(md(view.output_caption))
for sentence in view.sentences:
    st.markdown(md(sentence))
st.subheader("All models")
st.caption("Value (confidence interval); ★ marks the best model for metrics with a direction (the *better* column: "
           "higher or lower values are better).")
# one table, the models side by side (its point): a value wraps above its interval rather than the table splitting —
# until even wrapped they cannot fit 1024 px (four models): then tables of as many models as fit, each naming the metrics
data_table(view.table, height="content", config=comparison_config(view.table),
           wrap=tuple(c for c in view.table.columns if c not in ("metric", "better", "key")), repeat=("metric", "better"))
if assessment.predictions().fold is not None and not assessment.outputs:  # cross-validation: the spread over folds
    try:
        folds = cached(fold_metrics, assessment, models=settings.models, keys=settings.keys,
                       decision=settings.decision, beta=settings.beta, k=settings.k)
    except ValueError as exc:  # AssessError included: e.g. a model with a single fold
        st.caption(md(f"No per-fold spread: {exc}"))
    else:
        spread = mv.fold_spread(view.table, folds, view.reports)
        st.markdown("**Across folds**")
        st.caption("*mean ± SD* is the metric on each cross-validation fold on its own, averaged, ± its standard "
                   "deviation across folds; the Slices page has the per-fold chart and intervals.")
        data_table(spread, height="content", config=comparison_config(spread), repeat=("metric",))
if view.weighted is not None:
    st.subheader("Variance-weighted averages")
    st.caption("R² and explained variance averaged with each output weighted by the variance of its true values "
               "(scikit-learn's `variance_weighted`, defined for these two metrics only); an output with constant "
               "true values has weight 0.")
    data_table(view.weighted, config=comparison_config(view.weighted))
st.subheader("Per model, with ISO 5.3.13 baselines")
per_model_tabs(view.reports, view.baseline_caption)

if forecast:
    st.subheader("By horizon and by series")
    st.caption("The same metrics on the rows of one horizon, or of one series (MASE keeps each series' scale from "
               "the whole file); intervals from the block bootstrap within each series.")
    names = {s.key: s.name for s in asks.specs if s.key in chosen}
    shown = st.selectbox("Metric", list(names), format_func=names.get, key="forecast_by_metric")
    for title, level_name in (("By horizon", "horizon"), ("By series", "series")):
        table = breakdown_table(breakdowns, level_name, shown)
        if table is not None:
            st.markdown(f"**{title}**")
            data_table(table)

if view.per_class is not None:
    ms.per_class_section(view, task)

c1, c2, c3 = st.columns(3)
c1.download_button("Metrics CSV", view.csv, "metrics.csv", "text/csv", icon=":material/download:")
c2.download_button("Metrics JSON", view.json, "metrics.json", "application/json", icon=":material/download:")
if view.per_class_csv is not None:
    c3.download_button("Per-class CSV", view.per_class_csv, "per_class.csv", "text/csv", icon=":material/download:")
# after the downloads of the tables above (they sat under the estimates, which have a download of their own)
estimation_widgets.section(assessment, settings, models)   # rows without labels: CBPE (issue 35)

confidently_wrong_rows(assessment, models, settings.decision)
ms.definitions(asks.specs, chosen, task)
planning_panel(assessment, models)
