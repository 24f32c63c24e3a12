"""Compare page: is model B really better than A? The design the data have (paired or independent samples) and why,
the tests that fit the question and the design, each test's options (from the test registry), results with
corrected p-values, assumptions, one plain sentence, and the charts that show it."""

import numpy as np
import pandas as pd
import streamlit as st

from assess.present import charts
from assess.core.errors import AssessError
from assess.present.export import to_csv_bytes, to_json_bytes
from assess.core.formatting import count, interval, percent_level
from assess.inputs.read import ACCEPTED_EXTENSIONS
from assess.metrics import get, metrics_for
from assess.stats import (CORRECTIONS, INDEPENDENT, PAIRED, QUESTIONS, TESTS, Design, compare, compare_all,
                          compare_subgroups, data_design, fold_table_from_predictions, suggest_tests,
                          suggestions_frame)
from assess.stats.compare import is_weighted
from assess.stats.folds import FriedmanDetails
from assess.stats.scores import DieboldMarianoDetails
from assess.stats.inputs import read_fold_table
from assess.core.decision import Decision
from ui.state import current_decision, fingerprint, keep_result, kept_result, md, read_upload, require_assessment
from ui.multilabel_views import per_label_test_tables
from ui.widgets import all_charts_button, chart, data_table, decision_note, text_column_width

FROM_PREDICTIONS, FROM_FOLDS = "the loaded predictions", "per-fold scores I upload"
ONE_TEST, ALL_TESTS = "compare", "compare_all"
DESIGN_WORDS = {PAIRED: "Paired samples", INDEPENDENT: "Independent samples"}
#: Result columns under the names people read (the table keeps its keys for the CSV and JSON downloads).
RESULT_HEADERS = {"model_a": "Model A", "model_b": "Model B", "method": "Method", "statistic": "Statistic",
                  "df": "df", "pvalue": "p-value", "pvalue_adjusted": "Adjusted p", "effect": "Effect",
                  "effect_value": "Effect size", "effect_low": "Low", "effect_high": "High", "n": "n"}


def test_title(key: str) -> str:
    """A test's name for people ("McNemar's test"), never its id (``mcnemar``)."""
    return TESTS[key].title if key in TESTS else key


def option_widgets(spec, data_kind: str, task, from_data: dict) -> dict:
    """One widget per option of the test (on this kind of data and task), in up to three columns; returns the
    values. ``from_data``: the starting value of on/off options whose default is decided by the data."""
    shown = list(spec.options_for(data_kind, task))
    values: dict = {}
    if not shown:
        return values
    columns = st.columns(min(3, len(shown)))
    for i, opt in enumerate(shown):
        if opt.shown_if is not None and values.get(opt.shown_if[0], spec.option(opt.shown_if[0]).default) \
                not in opt.shown_if[1]:
            continue
        where = columns[i % len(columns)]
        if opt.kind is str:
            value = where.selectbox(opt.label, opt.choices, index=opt.choices.index(opt.default), help=opt.help)
        elif opt.kind is bool:
            start = opt.default if opt.default is not None else from_data.get(opt.name, True)
            value = where.toggle(opt.label, value=start, help=opt.help)
        else:
            bounds = {k: opt.kind(v) for k, v in (("min_value", opt.minimum), ("max_value", opt.maximum))
                      if v is not None}
            value = where.number_input(opt.label, value=opt.default, step=1 if opt.kind is int else None,
                                       placeholder="from the data" if opt.default is None else None, help=opt.help,
                                       **bounds)
        if value is not None:
            values[opt.name] = value
    return values


st.title("Compare")
st.caption("Is the difference between models real or luck? Pick the question; the page says whether the models were "
           "scored on the same samples, suggests the tests that fit, and says the answer in one sentence.")
source = st.radio("Compare models from", [FROM_PREDICTIONS, FROM_FOLDS], horizontal=True)

# --- the data --------------------------------------------------------------------------------------------------------
folds_frame, metric_columns, assessment, first = None, [], None, None
if source == FROM_FOLDS:
    upload = st.file_uploader("Per-fold scores: columns `model`, `fold` (optionally `repeat`) and one numeric column "
                              "per metric", type=list(ACCEPTED_EXTENSIONS), key="fold_upload")
    if upload is None:
        st.stop()
    try:
        folds_frame, metric_columns = read_fold_table(read_upload(upload.getvalue(), upload.name))
    except AssessError as exc:
        st.error(md(str(exc)))
        st.stop()
    models_available = list(dict.fromkeys(folds_frame["model"]))
    n_folds = int(folds_frame.groupby("model")["fold"].nunique().min())
    n_repeats = int(folds_frame["repeat"].nunique()) if "repeat" in folds_frame else None
else:
    assessment = require_assessment()
    if assessment.task.is_classification:
        decision_note(assessment)
    models_available = list(assessment.models)
    first = assessment.predictions()
    n_folds = len(set(first.fold)) if first.fold is not None else None
    n_repeats = None

questions = {k: v for k, v in QUESTIONS.items() if k != "error_rate"}
if source == FROM_FOLDS:
    questions = {k: v for k, v in questions.items() if k in ("two_models", "several_models", "cv_folds")}
if assessment is not None and assessment.roles.groups == ():
    questions.pop("subgroups", None)
unavailable = []   # (question, why): said under the radio instead of failing after Run
if source == FROM_PREDICTIONS and n_folds is None and "cv_folds" in questions:
    questions.pop("cv_folds")
    unavailable.append((QUESTIONS["cv_folds"], "the file has no cross-validation fold column (mark one on the Data "
                                               "page, or upload per-fold scores)"))
if len(models_available) < 3 and "several_models" in questions:
    questions.pop("several_models")
    unavailable.append((QUESTIONS["several_models"], f"it needs at least 3 models; the file has "
                                                     f"{len(models_available)}"))
if len(models_available) < 2:
    questions = {k: v for k, v in questions.items() if k == "subgroups"}
if not questions:
    st.info("There is only one model and no subgroup column: nothing to compare. Load a file with several models "
            "(a `model` column, or `y_pred_<model>` columns) or mark a subgroup column on the Data page.")
    st.stop()
default_question = "cv_folds" if source == FROM_FOLDS else "two_models" if "two_models" in questions else \
    next(iter(questions))
question = st.radio("Question", list(questions), format_func=questions.get,
                    index=list(questions).index(default_question), horizontal=True)
for words, why in unavailable:
    st.caption(md(f"Not offered: “{words}” — {why}."))

# --- settings ------------------------------------------------------------------------------------------------------
with st.container(horizontal=True):   # three groups of settings that wrap below ~1280 px instead of squeezing
    left, mid, right = (st.container(width=300) for _ in range(3))
with left:
    if question == "subgroups":
        models = [st.selectbox("Model", models_available)]
    elif question == "two_models":
        models = st.multiselect("Two models", models_available, default=models_available[:2], max_selections=2)
    else:
        models = st.multiselect("Models", models_available, default=models_available)
with mid:
    if folds_frame is not None:
        metric = st.selectbox("Metric (column)", metric_columns)
    else:
        try:
            names = {s.key: s.name for s in metrics_for(assessment.task)   # internal clustering indices: not
                     if s.kind != "count" and s.needs != "features"}   # resampled by the tests
        except ValueError:  # a task whose metrics are not in the registry yet
            names = {}
        if names:
            default = next((k for k in ("accuracy", "mae") if k in names), next(iter(names)))
            metric = st.selectbox("Metric", list(names), index=list(names).index(default), format_func=names.get,
                                  help="Used by the bootstrap and fold tests; McNemar, Cochran's Q, chi-squared and "
                                       "Fisher compare right/wrong per sample (accuracy), DeLong the ROC AUC, "
                                       "Welch's t and Mann-Whitney a per-sample loss, Diebold–Mariano the forecast "
                                       "losses.")
        else:
            metric = None
            st.caption(f"The {assessment.task.label} task has no metrics in the registry yet: the tests that compare "
                       "a metric are listed as not run.")
    correction = st.selectbox("Multiple-comparison correction", ["auto", *CORRECTIONS],
                              help="auto: Holm for pairs (Nemenyi after Friedman).")
with right:
    confidence_level = st.select_slider("Confidence level", [0.90, 0.95, 0.99], value=0.95,
                                        format_func=percent_level)
    alternative = st.selectbox("Alternative", ["two-sided", "greater", "less"],
                               help="greater: the first model's effect is larger (e.g. higher accuracy, larger "
                                    "loss); less: smaller.")

needed = 1 if question == "subgroups" else 2
if len(models) < needed:
    st.info(f"Pick at least {needed} model{'s' if needed > 1 else ''}.")
    st.stop()

# --- the design ----------------------------------------------------------------------------------------------------
output = None
if assessment is not None and assessment.outputs:
    output = st.selectbox("Output", list(assessment.outputs), key="compare_output",
                          help="This file predicts several targets; the tests compare the models on one at a time.")
predictions = None if assessment is None else {m: assessment.predictions(m, output=output) for m in models}
try:
    if question == "subgroups":
        design = Design(INDEPENDENT, "subgroups are disjoint sets of samples")
    else:
        design = data_design(folds_frame if folds_frame is not None else predictions, models=models,
                             metric=metric if folds_frame is not None else None)
except AssessError as exc:
    st.error(md(str(exc)))
    st.stop()
st.info(f"**{DESIGN_WORDS[design.kind]}**: " + md(f"{design.reason}. ")
        + ("The tests below use the pairing." if design.kind == PAIRED else
           "The tests below compare the models as independent samples."), icon=":material/join_inner:")

# --- which test ----------------------------------------------------------------------------------------------------
has_scores = predictions is not None and all(p.scores is not None for p in predictions.values())
try:
    suggestions = suggest_tests(question=question, n_models=len(models),
                                data="folds" if (folds_frame is not None or question == "cv_folds") else "predictions",
                                paired=design.kind == PAIRED,
                                task=None if assessment is None else assessment.task, has_scores=has_scores,
                                n_folds=n_folds, n_repeats=n_repeats,
                                blocks=first is not None and (first.fold is not None or first.series is not None),
                                weighted=predictions is not None and is_weighted(predictions))
except AssessError as exc:
    st.warning(md(str(exc)))
    st.stop()
st.subheader("Suitable tests")
frame = suggestions_frame(suggestions).assign(test=lambda f: f["test"].map(test_title))
# The test, its kind and the tick as narrow as their text (a "small" tick column cut its header to "Recommen" at
# 1024 px), the rest for the reason, which the caption under "Test" gives in full for the chosen test.
data_table(frame, shrink=("why",), config={
    "recommended": st.column_config.CheckboxColumn("Recommended", width=text_column_width([], header="Recommended")),
    "why": st.column_config.Column("Why", help="Why the test fits; the chosen test's reason is under the Test box")})
tests = [s.test for s in suggestions]
recommended = next((s.test for s in suggestions if s.recommended), tests[0])
test = st.selectbox("Test", tests, index=tests.index(recommended), format_func=test_title)
spec = TESTS[test]
why = {s.test: s.why for s in suggestions}[test]
st.caption(md(f"{spec.title} — {spec.doc} ({spec.reference}). Why this test: {why}"))
data_kind = "folds" if folds_frame is not None else "predictions"
task = None if assessment is None else assessment.task
options = option_widgets(spec, data_kind, task,
                         {"higher_is_better": folds_frame is not None or metric is None
                          or get(assessment.task, metric).direction != "lower"})

b1, b2 = st.columns([1, 3])
run_clicked = b1.button("Run test", type="primary", icon=":material/play_arrow:")
run_all = question != "subgroups" and b2.button("Run all suitable tests", icon=":material/playlist_play:",
                                                 help="Every test listed above, with the same correction; each "
                                                      "test's own options keep their defaults.")
# Results depend on the data and its roles (positive class included) and on the decision, not only on the widgets.
decision = current_decision() if assessment is not None else Decision()
data_key = None if assessment is None else fingerprint(assessment)
all_params = (source, question, tuple(models), output, metric, correction, confidence_level, decision, data_key)
if run_all:
    try:
        with st.spinner("Running every suitable test…"):
            data = folds_frame if folds_frame is not None else predictions
            keep_result(ALL_TESTS, all_params, compare_all(
                data, models=models, metric=metric, correction=correction, confidence_level=confidence_level,
                question=question, decision=decision))
    except (AssessError, ValueError) as exc:
        keep_result(ALL_TESTS, all_params, None)
        st.error(md(str(exc)))
every = kept_result(ALL_TESTS, all_params)
if every is not None:
    st.subheader("Every suitable test")
    for comparison in every.comparisons:
        st.markdown(f"**{md(test_title(comparison.test))}** — " + md(comparison.sentence))
    for test_name, reason in every.skipped.items():
        st.caption(md(f"{test_title(test_name)} was not run: {reason}"))
    frames = [c.to_frame().assign(test=c.test) for c in every.comparisons]
    if frames:
        every_table = pd.concat(frames, ignore_index=True)
        st.download_button("All results CSV", to_csv_bytes(every_table), "all_tests.csv", "text/csv",
                           icon=":material/download:")
params = (*all_params, alternative, test, tuple(sorted(options.items())))
if run_clicked:
    try:
        with st.spinner(f"Running the {test_title(test)}…"):
            if question == "subgroups":
                result = compare_subgroups(predictions[models[0]], test=test, correction=correction,
                                           confidence_level=confidence_level, decision=decision, **options)
            else:
                data = folds_frame if folds_frame is not None else predictions
                uses_metric = spec.takes_metric(data_kind, task)
                result = compare(data, test=test, models=models, metric=metric if uses_metric else None,
                                 correction=correction, confidence_level=confidence_level, alternative=alternative,
                                 decision=decision, **options)
        keep_result(ONE_TEST, params, result)
    except (AssessError, ValueError) as exc:
        keep_result(ONE_TEST, params, None)
        st.error(md(str(exc)))

result = kept_result(ONE_TEST, params)
if result is None:
    st.stop()

# --- the answer ----------------------------------------------------------------------------------------------------
st.subheader("Result")
st.success(md(result.sentence), icon=":material/campaign:")
if result.design is not None:
    st.caption(md(f"Design assumed: {DESIGN_WORDS[result.design.kind].lower()} — {result.design.reason}."))
table = result.to_frame()
show = table[[c for c in ("model_a", "model_b", "method", "statistic", "df", "pvalue", "pvalue_adjusted",
                          "effect", "effect_value", "effect_low", "effect_high", "n") if c in table.columns]]
show = show.loc[:, show.notna().any()].copy()  # e.g. no pair columns for a single two-model result
# Twelve columns do not fit a 1024-px screen (the last ones were cut off): a method or an effect that every row shares
# is said once (the method above the table, the effect as its column's header) and the interval's two bounds share
# one cell ("[0.030, 0.073]"); the numbers stay numbers.
shared = {c: show[c].iloc[0] for c in ("method", "effect")
          if c in show.columns and len(show) and show[c].nunique(dropna=False) == 1}
if "method" in shared:
    st.caption(md(f"Method: {shared['method']}."))
headers = dict(RESULT_HEADERS)
if "effect" in shared:
    headers["effect_value"] = f"{str(shared['effect'])[:1].upper()}{str(shared['effect'])[1:]}"
if {"effect_low", "effect_high"} <= set(show.columns):
    where = show.columns.get_loc("effect_low")
    show.insert(where, "effect_interval", [interval(lo, hi) for lo, hi in zip(show["effect_low"], show["effect_high"])])
    headers["effect_interval"] = f"{percent_level(confidence_level)} interval"
show = show.drop(columns=[c for c in ("effect_low", "effect_high", *shared) if c in show.columns])
# Missing cells (no df for a bootstrap, no adjusted p on an omnibus row, no pair on it) read "—", never "None";
# numbers 4 significant digits; n whole. A column with a missing cell becomes text here: the grid shows a missing
# cell as "None" whatever the Styler's na_rep says. Complete number columns stay numbers (sorting, exports, tests).
number_format = {c: "{:.4g}".format for c in ("statistic", "pvalue", "pvalue_adjusted", "effect_value")} | {
    "n": count, "df": lambda d: d if isinstance(d, str) else f"{d:g}", "model_a": str, "model_b": str}
data_table(show, formats=number_format, headers=headers)

checked = result.checked
if checked is not None and checked.assumptions:
    st.markdown("**Assumptions**")
    for a in checked.assumptions:
        mark = (":green[:material/check_circle:]" if a.met else ":orange[:material/warning:]" if a.met is False
                else ":material/info:")
        st.markdown(f"{mark} " + md(f"{a.name}: {a.detail}"))

horizon_tables = [(r.models, r.details.table()) for r in ([result.result] if result.result else [])
                  + [p.result for p in result.pairs] if isinstance(r.details, DieboldMarianoDetails)
                  and r.details.by_horizon]
if horizon_tables:
    st.markdown("**Diebold–Mariano by horizon** (each horizon tested with its own lag length h − 1; p-values "
                "adjusted by Holm across the horizons, and across series × horizons for the per-series rows)")
    for (model_a, model_b), dm_table in horizon_tables:
        st.caption(md(f"{model_a} − {model_b}: a negative difference means {model_a}'s loss is lower"))
        number = st.column_config.NumberColumn
        data_table(dm_table, config={
            "h_used": number("lags (h)", help="The horizon's lag length used; 1 where the variance estimate fell "
                                             "back"),
            "mean_loss_a": number(f"mean loss, {model_a}", format="%.4g"),
            "mean_loss_b": number(f"mean loss, {model_b}", format="%.4g"),
            "pvalue": number("p-value", format="%.4g"),
            "pvalue_holm": number("Holm p", format="%.4g"),
            **{c: number(format="%.4g") for c in ("difference", "low", "high", "statistic")}})

label_figures = per_label_test_tables(result)  # multi-label: McNemar per label

if len(result.models) > 2 and result.pairs:
    st.markdown("**Adjusted p-values between pairs**")
    matrix = result.pvalue_matrix(adjusted=True).astype(float)   # the diagonal is no pair: NaN, shown as —
    data_table(matrix, formats=dict.fromkeys(matrix.columns, "{:.4g}"), hide_index=False,
               headers={m: str(m) for m in matrix.columns})   # the models' own names, not put in words

# --- charts --------------------------------------------------------------------------------------------------------
figures = list(label_figures)
metric_title = metric if folds_frame is not None or metric is None else get(assessment.task, metric).name
details = None if result.result is None else result.result.details
if isinstance(details, FriedmanDetails) and np.isfinite(details.critical_difference):
    fig = charts.critical_difference_chart(average_ranks=details.average_ranks,
                                           critical_difference=details.critical_difference,
                                           title=f"Critical difference diagram — {metric_title}")
    figures.append(fig)
    chart(fig, "Critical difference", key="cd")
effects = [(f"{p.model_a} − {p.model_b}", p.result.effect) for p in result.pairs if p.result.effect is not None]
if not effects and result.result is not None and result.result.effect is not None and len(result.models) == 2:
    effects = [(f"{result.models[0]} − {result.models[1]}", result.result.effect)]
if effects and any(np.isfinite(eff.value) for _, eff in effects):
    word = "Paired differences" if result.design is not None and result.design.kind == PAIRED else "Differences"
    fig = charts.difference_chart(effects=effects, title=f"{word} — {test_title(result.test)}")
    figures.append(fig)
    chart(fig, word, key="pairs")
if question == "cv_folds" or folds_frame is not None:
    scores = folds_frame
    if scores is None and assessment.predictions(models[0]).fold is not None:
        scores, _ = fold_table_from_predictions(predictions, metric=metric, decision=decision)
    if scores is not None and metric in scores.columns:
        fig = charts.fold_box_chart(scores=scores[scores["model"].isin(models)], metric=metric,
                                    metric_name=metric_title, colors=charts.model_colors(models_available))
        figures.append(fig)
        chart(fig, "Fold scores", key="folds")

# Buttons as wide as their text, wrapping on a narrow screen: in three columns at 1024 px the PDF button was cut.
with st.container(horizontal=True, gap="small"):
    st.download_button("Results CSV", to_csv_bytes(table), "comparison.csv", "text/csv", icon=":material/download:",
                       width="content")
    st.download_button("Results JSON", to_json_bytes(result.to_dict()), "comparison.json", "application/json",
                       icon=":material/download:", width="content")
    all_charts_button(figures, "comparison.pdf", key="compare")
