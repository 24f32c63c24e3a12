"""Compare page: is model B really better than A? The design the data have (paired or independent samples) and why,
the tests that fit the question and the design, each test's options (from the test registry), results with
corrected p-values, assumptions, one plain sentence, and the charts that show it."""

import streamlit as st

from assess.analyses.compare_view import (DESIGN_WORDS, critical_difference, data_of_folds, data_of_predictions,
                                          effects, fold_scores, output_choices, plan, prediction_plan, questions_for,
                                          run_all, run_test, test_title)
from assess.core.decision import Decision
from assess.core.errors import AssessError
from assess.inputs.read import ACCEPTED_EXTENSIONS
from assess.metrics import get
from assess.present import charts
from assess.present.export import to_csv_bytes, to_json_bytes
from assess.stats import PAIRED, TESTS
from assess.stats.inputs import read_fold_table
from ui.compare_widgets import option_widgets, settings_widgets, show_every, show_result, suitable_tests
from ui.planning_panel import planning_panel
from ui.state import (cached, current_decision, fingerprint, keep_result, kept_result, md, read_upload,
                      require_assessment)
from ui.widgets import all_charts_button, chart, decision_note

FROM_PREDICTIONS, FROM_FOLDS = "the loaded predictions", "per-fold scores I upload"
ONE_TEST, ALL_TESTS = "compare", "compare_all"

st.title("Compare")
st.caption("Is the difference between models real or luck? Pick the question; the page says whether the models were "
           "scored on the same samples, suggests the tests that fit, and says the answer in one sentence.")
source = st.radio("Compare models from", [FROM_PREDICTIONS, FROM_FOLDS], horizontal=True)

assessment = None
if source == FROM_FOLDS:
    upload = st.file_uploader("Per-fold scores: columns `model`, `fold` (optionally `repeat`) and one numeric column "
                              "per metric", type=list(ACCEPTED_EXTENSIONS), key="fold_upload")
    if upload is None:
        st.stop()
    try:
        data = data_of_folds(*read_fold_table(read_upload(upload.getvalue(), upload.name)))
    except AssessError as exc:
        st.error(md(str(exc)))
        st.stop()
else:
    assessment = require_assessment()
    if assessment.task.is_classification:
        decision_note(assessment)
    data = cached(data_of_predictions, assessment, light=True)   # small: kept apart from costly results

questions = questions_for(data)
if not questions.offered:
    st.info("There is only one model and no subgroup column: nothing to compare. Load a file with several models "
            "(a `model` column, or `y_pred_<model>` columns) or mark a subgroup column on the Data page.")
    st.stop()
offered = list(questions.offered)
question = st.radio("Question", offered, format_func=questions.offered.get, index=offered.index(questions.default),
                    horizontal=True)
for words, why in questions.unavailable:
    st.caption(md(f"Not offered: “{words}” — {why}."))

models, metric, correction, confidence_level, alternative = settings_widgets(data, question, assessment)
needed = 1 if question == "subgroups" else 2
if len(models) < needed:
    st.info(f"Pick at least {needed} model{'s' if needed > 1 else ''}.")
    st.stop()

# --- the design and the tests ----------------------------------------------------------------------------------------
outputs = {} if assessment is None else output_choices(assessment)
output = st.selectbox("Output", list(outputs), format_func=outputs.get, key="compare_output",
                      help="This file predicts several targets: the tests compare the models on their average (as "
                           "the Metrics page and the report do) or on one output.") if outputs else None
try:
    chosen = tuple(models)
    found = (plan(None, data, question, chosen, None, metric) if assessment is None
             else cached(prediction_plan, assessment, question, chosen, output, metric))
except AssessError as exc:
    st.error(md(str(exc)))
    st.stop()
design = found.design
st.info(f"**{DESIGN_WORDS[design.kind]}**: " + md(f"{design.reason}. ")
        + ("The tests below use the pairing." if design.kind == PAIRED else
           "The tests below compare the models as independent samples."), icon=":material/join_inner:")
if found.no_tests:
    st.warning(md(found.no_tests))
    st.stop()
suitable_tests(found.suggestions)
tests = [s.test for s in found.suggestions]
test = st.selectbox("Test", tests, index=tests.index(found.recommended), format_func=test_title)
spec, task = TESTS[test], None if assessment is None else assessment.task
st.caption(md(f"{spec.title} — {spec.doc} ({spec.reference}). Why this test: "
              f"{next(s.why for s in found.suggestions if s.test == test)}."))
options = option_widgets(spec, found.data_kind, task, {"higher_is_better": found.higher_is_better})
planning_panel(assessment, models, metric)
b1, b2 = st.columns([1, 3])
run_clicked = b1.button("Run test", type="primary", icon=":material/play_arrow:")
run_every = question != "subgroups" and b2.button("Run all suitable tests", icon=":material/playlist_play:",
                                                   help="Every test listed above, with the same correction; each "
                                                        "test's own options keep their defaults.")
# Results depend on the data and its roles (positive class included) and on the decision, not only on the widgets.
decision = current_decision() if assessment is not None else Decision()
settings = dict(correction=correction, confidence_level=confidence_level, decision=decision)
all_params = (source, question, chosen, output, metric, correction, confidence_level, decision,
              None if assessment is None else fingerprint(assessment))
params = (*all_params, alternative, test, tuple(sorted(options.items())))
for clicked, page, key, why in ((run_every, ALL_TESTS, all_params, "Running every suitable test…"),
                                (run_clicked, ONE_TEST, params, f"Running the {test_title(test)}…")):
    if clicked:
        try:
            with st.spinner(why):
                keep_result(page, key, run_all(found, question, chosen, metric, **settings) if page == ALL_TESTS
                            else run_test(found, task, question, test, chosen, metric, alternative=alternative,
                                          options=options, **settings))
        except (AssessError, ValueError) as exc:
            keep_result(page, key, None)
            st.error(md(str(exc)))
metric_title = metric if data.folds is not None or metric is None else get(assessment.task, metric).name
show_every(kept_result(ALL_TESTS, all_params), metric_title)
result = kept_result(ONE_TEST, params)
if result is None:
    st.stop()
figures = show_result(result, confidence_level)

# --- charts --------------------------------------------------------------------------------------------------------
details = critical_difference(result)
if details is not None:
    figures.append(charts.critical_difference_chart(average_ranks=details.average_ranks,
                                                    critical_difference=details.critical_difference,
                                                    title=f"Critical difference diagram — {metric_title}"))
    chart(figures[-1], "Critical difference", key="cd")
if differences := effects(result):
    word = ("Effect sizes" if not differences[0][1].is_difference
            else "Paired differences" if result.design is not None and result.design.kind == PAIRED else "Differences")
    figures.append(charts.difference_chart(effects=differences, title=f"{word} — {test_title(result.test)}"))
    chart(figures[-1], word, key="pairs")
scores = fold_scores(found, chosen, metric, decision) if question == "cv_folds" or data.folds is not None else None
if scores is not None:
    figures.append(charts.fold_box_chart(scores=scores, metric=metric, metric_name=metric_title,
                                         colors=charts.model_colors(list(data.models))))
    chart(figures[-1], "Fold scores", key="folds")

# Buttons as wide as their text, wrapping on a narrow screen: in three columns at 1024 px the PDF button was cut.
with st.container(horizontal=True, gap="small"):
    st.download_button("Results CSV", to_csv_bytes(result.to_frame()), "comparison.csv", "text/csv",
                       icon=":material/download:", width="content")
    st.download_button("Results JSON", to_json_bytes(result.to_dict()), "comparison.json", "application/json",
                       icon=":material/download:", width="content")
    all_charts_button(figures, "comparison.pdf", key="compare")
