"""Metrics page: choose metrics by group, intervals and parameters; one table per model with CI and baselines.

Classification shows its decision widgets (labels from, threshold, β, k); regression and forecast files show only what
applies to them: the value metrics of the registry, bootstrap intervals and the mean / median baselines (regression)
or the naive, seasonal naive and drift forecasts (forecasts, with the metrics also by horizon and by series and a
block bootstrap).
"""

from dataclasses import replace

import streamlit as st

from assess.inputs.columns import quote
from assess.core.data import Task
from assess.core.decision import LABELS, SCORES
from assess.present.export import to_csv_bytes, to_json_bytes
from assess.core.formatting import count, percent_level, proportion
from assess.metrics import metrics_for, table_for
from assess.metrics.evaluate import VALUE_TASKS
from assess.analyses.folds import fold_metrics
from assess.metrics.reports import compute_breakdowns, compute_output_reports, compute_reports
from assess.present.summary import (FOLD_SPREAD_SUFFIX, breakdown_table, comparison_frame, headline_sentences, long_frame,
                            per_class_frame, with_fold_spread)
from ui import clustering_view, data_directory
from ui.state import Key, current_decision, md, memo, require_assessment, set_decision
from ui.widgets import (choose_metrics, comparison_config, data_table, decision_note,
                           per_model_tabs, throttled)

HEADLINE = {
    Task.BINARY: ("tp", "fp", "tn", "fn", "accuracy", "balanced_accuracy", "precision", "recall", "specificity", "f1",
                  "mcc", "roc_auc", "average_precision", "log_loss", "brier_score"),
    Task.MULTICLASS: ("accuracy", "balanced_accuracy", "precision_macro", "recall_macro", "f1_macro", "f1_weighted",
                      "cohen_kappa", "mcc", "top_k_accuracy", "roc_auc_ovr", "log_loss", "brier_score"),
    Task.MULTILABEL: ("hamming_loss", "exact_match_ratio", "jaccard_samples", "precision_micro", "recall_micro",
                      "f1_micro", "f1_macro", "label_ranking_average_precision"),
    Task.REGRESSION: ("mae", "rmse", "median_absolute_error", "max_error", "mean_error", "mape", "smape", "r2"),
    Task.FORECAST: ("mae", "rmse", "mean_error", "mape", "smape", "mase", "mase_seasonal", "coverage",
                    "winkler_score", "skill_seasonal_naive"),
}
CI_CHOICES = {"auto (best per metric)": "auto", "none": None, "Wilson": "wilson", "Clopper–Pearson": "clopper-pearson",
              "normal (CLT)": "normal", "DeLong (ROC AUC)": "delong", "bootstrap (percentile)": "bootstrap",
              "bootstrap (BCa)": "bootstrap-bca"}
#: Regression and forecasts: every metric is resampled, so only the bootstrap applies.
VALUE_CI_CHOICES = {"auto (bootstrap)": "auto", "none": None, "bootstrap (percentile)": "bootstrap",
                    "bootstrap (BCa)": "bootstrap-bca"}
BASELINE_CAPTION = {
    "classification": "Baselines (ISO 5.3.13): what always predicting the majority class, predicting classes at "
                      "random with their prevalence (stratified), or uniformly at random would score on the same rows.",
    "forecast": "Baselines: the naive (last value), seasonal naive (value one season earlier) and drift forecasts "
                "made from the file's actual values, scored on the rows where each can be formed; the skill scores "
                "compare the model's MSE with theirs (0 = no better, 1 = perfect).",
    "values": "Baselines (ISO 5.3.13 in spirit): what always predicting the mean, or the median, of the true values "
              "would score on the same rows. R² is the skill against the mean: 0 means no better than it.",
}
SOURCE_WORDS = {LABELS: "the predicted-label column", SCORES: "the scores"}
#: The Output choice of a multi-output regression that shows the uniform average over the outputs.
ALL_OUTPUTS = "All outputs (average)"
#: Above this many rows per model the bootstrap defaults to 200 resamples (about 20 s for 1,000 at 1e6 rows).
LARGE_ROWS = 100_000
#: Most rows per model in the per-class table shown (the most frequent classes); the CSV download has them all.
PER_CLASS_ROWS = 100

data_directory.metrics_view()   # a data-directory file assessed out of core: its own view, then stop
st.title("Metrics")
assessment = require_assessment()
if assessment.task is Task.CLUSTERING:   # no decision rule, threshold, β or k: its own view (ui/clustering_view.py)
    clustering_view.render(assessment)
    st.stop()

values_task = assessment.task in VALUE_TASKS
first = assessment.predictions()
has_scores, has_labels = first.scores is not None, first.y_pred is not None
has_intervals = first.lower is not None and first.upper is not None
specs = [s for s in metrics_for(assessment.task) if s.needs in ("labels", "values")
         or (has_scores and s.needs in ("scores", "probabilities")) or (has_intervals and s.needs == "intervals")]
forecast = assessment.task is Task.FORECAST

# --- settings ------------------------------------------------------------------------------------------------------
# the models on a row of their own: in a third of a 1024-px page two names already did not fit
models = st.multiselect("Models", list(assessment.models), default=list(assessment.models))
left, mid, right = st.columns(3)
with left:
    output = None
    if assessment.outputs:  # multi-output regression: the uniform average, or one output's own metrics
        output = st.selectbox("Output", [ALL_OUTPUTS, *assessment.outputs],
                              help="Each output (a `y_true_<name>`/`y_pred_<name>` pair) is assessed on its own; "
                                   "the average is their uniform mean, metric by metric.")
    choices = VALUE_CI_CHOICES if values_task else CI_CHOICES
    if forecast:  # the block bootstrap has no BCa variant
        choices = {"auto (block bootstrap)": "auto", "none": None}
    ci_label = st.selectbox("Confidence interval", list(choices),
                            help="A seeded block bootstrap within each series, in time order, so autocorrelated "
                                 "errors do not shrink the interval." if forecast else
                            "A seeded bootstrap of the rows (i.i.d.)." if values_task else
                            "auto: Wilson for proportions, DeLong for the binary ROC AUC, a seeded bootstrap for the "
                            "rest.")
    ci = choices[ci_label]
    bootstrap_method = "bca" if ci == "bootstrap-bca" else "percentile"
    ci = "bootstrap" if ci == "bootstrap-bca" else ci
with mid:
    level = st.select_slider("Confidence level", [0.80, 0.90, 0.95, 0.99], value=0.95, format_func=percent_level,
                             disabled=ci is None)
    large = first.n > LARGE_ROWS
    resamples_help = "Percentile intervals; the seed makes them reproducible."
    if large:
        resamples_help = (f"200 by default above {LARGE_ROWS:,} rows, so the first intervals come in seconds; "
                          "raise it for the final report. " + resamples_help)
    resamples = st.number_input("Bootstrap resamples", 100, 20_000, 200 if large else 1000, step=100,
                                disabled=ci not in ("bootstrap", "auto"), help=resamples_help)
    seed = st.number_input("Seed", 0, 2**31 - 1, 0, disabled=ci not in ("bootstrap", "auto"),
                           help="Bootstrap resampling is seeded: the same seed gives the same interval.")
with right:
    decision = current_decision()
    beta, k = 1.0, 2
    season, interval_level = None, None
    if forecast:  # the season of the seasonal MASE and the interval's level when its column names do not say it
        season = st.number_input("Season length (0 = from the time stamps)", 0, 10_000, 0,
                                 help="The m of the seasonal naive forecast: 12 for monthly data, 4 for quarterly…") \
            or None
        if has_intervals and first.interval_level is None:
            interval_level = st.select_slider("Prediction interval level", [0.5, 0.8, 0.9, 0.95, 0.99], value=0.9,
                                              format_func=percent_level,
                                              help="The column names do not say it; the Winkler score needs it.")
    if not values_task:  # the decision rule, β and k are classification settings
        source = decision.source_for(assessment.task, has_labels=has_labels, has_scores=has_scores)
        if has_labels and has_scores:
            # The widgets show the shared decision, which the Curves page may have moved since they were drawn.
            st.session_state[Key.LABELS_FROM] = source
            st.radio("Labels from", [LABELS, SCORES], format_func=SOURCE_WORDS.get, horizontal=True,
                     key=Key.LABELS_FROM, help="Shared with the Confusion, Curves and Compare pages.",
                     on_change=lambda: set_decision(replace(current_decision(),
                                                            source=st.session_state[Key.LABELS_FROM])))
        if has_scores and source == SCORES and assessment.task in (Task.BINARY, Task.MULTILABEL):
            st.session_state[Key.METRICS_THRESHOLD] = decision.threshold
            st.number_input("Threshold (score ≥ threshold is positive)", step=0.01, format="%.3f",
                            key=Key.METRICS_THRESHOLD, help="Shared with the Curves page's threshold explorer.",
                            on_change=lambda: set_decision(current_decision().with_threshold(
                                st.session_state[Key.METRICS_THRESHOLD])))
        beta = st.number_input("β of F-beta", 0.05, 20.0, 1.0, step=0.25,
                               help="β > 1 weighs recall more, β < 1 precision more.")
        k = st.number_input("k of top-k accuracy", 1, max(1, len(assessment.classes)), min(2, len(assessment.classes)),
                            disabled=assessment.task is not Task.MULTICLASS)

chosen = choose_metrics(specs, set(HEADLINE[assessment.task]), key=assessment.task.value)
if not models or not chosen:
    st.info("Pick at least one model and one metric.")
    st.stop()

if not values_task:
    decision_note(assessment, page="metrics")

# --- compute (memoised per session; a bootstrap shows its progress) --------------------------------------------------
params = dict(models=tuple(models), keys=tuple(chosen), decision=current_decision(), beta=float(beta), k=int(k),
              ci=ci, confidence_level=float(level), resamples=int(resamples), seed=int(seed),
              bootstrap_method=bootstrap_method)
if forecast:
    params |= {"season": season, "interval_level": interval_level}


bootstrapping = ci in ("bootstrap", "auto")
preview = st.empty()
if bootstrapping and large:
    # The values take well under a second even at 1e6 rows: shown while the intervals are resampled — also to every
    # other session waiting for the same shared bootstrap (ui/store.py), not only to the one running it.
    try:
        quick = memo(assessment, "metric_values", tuple(sorted({**params, "ci": None}.items())),
                     lambda: compute_reports(assessment, **{**params, "ci": None}))
    except ValueError:   # the same error follows from the full computation below, which shows it
        quick = None
    if quick is not None:
        with preview.container():
            st.caption("Values first; the intervals follow in a few seconds.")
            quick_table = comparison_frame(quick)
            data_table(quick_table, config=comparison_config(quick_table))


def compute():
    bar = st.progress(0.0, text="Computing…") if bootstrapping else None
    progress = throttled(lambda f: bar.progress(min(1.0, f), text=f"Bootstrap intervals: {f:.0%}")) if bar else None
    if assessment.outputs:  # every output and the averages at once: the Output choice only picks among them
        result = compute_output_reports(assessment, progress=progress,
                                        **{k: v for k, v in params.items() if k not in ("decision", "beta", "k")})
    else:
        result = compute_reports(assessment, progress=progress, **params)
    if bar:
        bar.empty()
    return result


try:
    reports = memo(assessment, "metrics", tuple(sorted(params.items())), compute)
except ValueError as exc:  # AssessError included: e.g. labels from a column a model does not have
    preview.empty()
    st.error(md(str(exc)))
    st.stop()
preview.empty()

by_model = None
if assessment.outputs:
    by_model = reports
    reports = {m: r.average if output == ALL_OUTPUTS else r.by_output[output] for m, r in by_model.items()}

# --- results -------------------------------------------------------------------------------------------------------
if by_model is not None:
    st.caption(md(f"Output {quote(output)}: its own `y_true`/`y_pred` pair." if output != ALL_OUTPUTS else
                  f"The uniform average over the {len(assessment.outputs)} outputs "
                  f"({', '.join(map(quote, assessment.outputs))}), metric by metric; intervals resample the rows of "
                  "all outputs together."))
for sentence in headline_sentences(reports, positive=assessment.positive):
    st.markdown(md(sentence))

st.subheader("All models")
st.caption("Value (confidence interval); ★ marks the best model for metrics with a direction (the *better* column: "
           "higher or lower values are better).")
table = comparison_frame(reports)
# one table, the models side by side (its point): a value wraps above its interval rather than the table splitting —
# until even wrapped they cannot fit 1024 px (four models): then tables of as many models as fit, each naming the metrics
data_table(table, height="content", config=comparison_config(table),
           wrap=tuple(c for c in table.columns if c not in ("metric", "better", "key")), repeat=("metric", "better"))
if first.fold is not None and by_model is None:  # cross-validation: the spread over folds, the models side by side
    try:
        folds = memo(assessment, "metrics_folds", tuple(sorted(params.items())), lambda: fold_metrics(
            assessment, **{k: v for k, v in params.items() if k in ("models", "keys", "decision", "beta", "k")}))
    except ValueError as exc:  # AssessError included: e.g. a model with a single fold
        st.caption(md(f"No per-fold spread: {exc}"))
    else:
        spread = with_fold_spread(table, folds, reports)
        spread = spread[["metric", "key", *[c for c in spread.columns if c.endswith(FOLD_SPREAD_SUFFIX)]]]
        spread = spread[(spread.drop(columns=["metric", "key"]) != "").any(axis=1)]   # counts have none
        st.markdown("**Across folds**")
        st.caption("*mean ± SD* is the metric on each cross-validation fold on its own, averaged, ± its standard "
                   "deviation across folds; the Slices page has the per-fold chart and intervals.")
        spread.columns = [c.removesuffix(FOLD_SPREAD_SUFFIX) if c.endswith(FOLD_SPREAD_SUFFIX) else c
                          for c in spread.columns]
        data_table(spread, height="content", config=comparison_config(spread), repeat=("metric",))

if by_model is not None and output == ALL_OUTPUTS and any(r.variance_weighted for r in by_model.values()):
    st.subheader("Variance-weighted averages")
    st.caption("R² and explained variance averaged with each output weighted by the variance of its true values "
               "(scikit-learn's `variance_weighted`, defined for these two metrics only); an output with constant "
               "true values has weight 0.")
    weighted = comparison_frame({m: r.variance_weighted_report for m, r in by_model.items()})
    data_table(weighted, config=comparison_config(weighted))

st.subheader("Per model, with ISO 5.3.13 baselines")
per_model_tabs(reports, BASELINE_CAPTION["forecast" if forecast else "values" if values_task else "classification"])

if forecast:
    st.subheader("By horizon and by series")
    st.caption("The same metrics on the rows of one horizon, or of one series (MASE keeps each series' scale from "
               "the whole file); intervals from the block bootstrap within each series.")
    shown = st.selectbox("Metric", [s.key for s in specs if s.key in chosen],
                         format_func=lambda key: next(s.name for s in specs if s.key == key), key="forecast_by_metric")
    by_params = {key: v for key, v in params.items() if key in ("models", "ci", "confidence_level", "resamples",
                                                                 "seed", "season", "interval_level")}
    try:
        breakdown = memo(assessment, "metrics_breakdown", tuple(sorted(by_params.items())) + (shown,),
                         lambda: compute_breakdowns(assessment, keys=[shown], **by_params))
    except ValueError as exc:
        st.error(md(str(exc)))
        st.stop()
    for title, level_name in (("By horizon", "horizon"), ("By series", "series")):
        table = breakdown_table(breakdown, level_name, shown)
        if table is not None:
            st.markdown(f"**{title}**")
            data_table(table)

per_class = per_class_frame(reports)
if per_class is not None:
    st.subheader("Per class" if assessment.task is Task.MULTICLASS else "Per label")
    shown = per_class
    if len(assessment.classes) > PER_CLASS_ROWS:  # the download below keeps every class
        shown = per_class.groupby("model", sort=False, group_keys=False).apply(
            lambda rows: rows.nlargest(PER_CLASS_ROWS, "support", keep="first"))
        st.caption(f"The {PER_CLASS_ROWS} classes with the most true rows (support) of {len(assessment.classes):,}, "
                   "per model; the Per-class CSV below has every class.")
    # Support whole, every rate with the same 3 decimals (not "0" beside "0.1714"), headers from the registry.
    rates = [c for c in shown.columns if c not in ("model", "class", "label", "support")]
    if any(shown[c].isna().any() for c in rates):   # e.g. the precision of a class never predicted
        st.caption("— : undefined for that class (e.g. precision of a class no row was predicted as: 0 / 0).")
    data_table(shown, formats=dict.fromkeys(rates, proportion) | {"support": count},
               headers={c.key: c.name for c in table_for(assessment.task)} | {"support": "Support"},
               repeat=("model", "class", "label"))

long = long_frame(reports)
doc = {"task": assessment.task.value, "file": assessment.table.name, "sha256": assessment.table.sha256,
       "settings": {key: v for key, v in params.items() if key not in ("models", "keys", "decision")
                    and not (values_task and key in ("beta", "k"))}
       | ({} if values_task else {"labels_from": params["decision"].source, "threshold": params["decision"].threshold,
                                  "label_thresholds": dict(params["decision"].per_label) or None}),
       "models": {m: r.to_dict(with_ci=ci is not None) for m, r in reports.items()},
       "undefined": {m: r.reasons for m, r in reports.items() if r.reasons}}
if by_model is not None:
    doc |= {"output": None if output == ALL_OUTPUTS else output, "outputs": list(assessment.outputs)}
    if output == ALL_OUTPUTS:
        doc["variance_weighted"] = {m: r.variance_weighted_dict(with_ci=ci is not None) for m, r in by_model.items()}
c1, c2, c3 = st.columns(3)
c1.download_button("Metrics CSV", to_csv_bytes(long), "metrics.csv", "text/csv", icon=":material/download:")
c2.download_button("Metrics JSON", to_json_bytes(doc), "metrics.json", "application/json",
                   icon=":material/download:")
if per_class is not None:
    c3.download_button("Per-class CSV", to_csv_bytes(per_class), "per_class.csv", "text/csv",
                       icon=":material/download:")

with st.expander("Definitions of the chosen metrics", icon=":material/function:"):
    for spec in specs:
        if spec.key in chosen:
            st.markdown(f"**{spec.name}** (`{spec.key}`) — {spec.meaning}  \n*Source: {spec.source}*")
            st.latex(spec.latex)
    columns = table_for(assessment.task)
    if columns:
        st.markdown("**Per-class / per-label table:** " + " · ".join(f"*{c.name}* — {c.meaning}" for c in columns))
