"""Report page: the ISO 4213 clause 8 assessment report as PDF, HTML or a ZIP of tables, and the settings file.

The report is the one `python -m assess report` writes (`assess.present.report`): built here from the page's choices, the
shared decision and the Data page's roles and display names. The 5.3 checklist answers typed here go into the report
and the settings file.
"""

from dataclasses import replace

import numpy as np
import pandas as pd
import streamlit as st

from assess.core.errors import AssessError
from assess.core.formatting import counted
from assess.metrics import CI_METHODS
from assess.present.report import build_report
from assess.present.report.checklist import ITEMS
from assess.present.report_view import FILES, FORMATS, cost_classes, costs_from_grid, report_bytes, report_settings
from assess.present.settings import MAX_TITLE, RESAMPLES, Settings, report_options
from ui.names import loaded_settings
from ui.state import Key, current_decision, keep_result, kept_result, md, require_assessment
from ui.widgets import throttled

st.title("Report")
assessment = require_assessment()
st.caption("The assessment report of ISO/IEC TS 4213 clause 8: a one-page summary (numbers with intervals, the test "
           "verdict, a recommendation and the key charts), every metric with its definition, every chart with a "
           "caption, the tests, each model's worst subgroup when the file has subgroup columns, the 5.3 control "
           "checklist and a reproducibility appendix. The same report comes "
           "from `python -m assess report FILE --config settings.json --out report.pdf`.")

saved = loaded_settings() or Settings()

st.subheader("Report options")
title = st.text_input("Title", value=saved.title, max_chars=MAX_TITLE)
c2, c3, c4 = st.columns([2, 1, 1])
chosen = c2.radio("Format", list(FORMATS), index=0 if saved.paper == "a4" else 1, horizontal=True,
                  help="PDF: for reading and printing (vector charts, page numbers, contents with links). HTML: one "
                       "self-contained file with interactive charts, opens offline. ZIP: every table as JSON and "
                       "CSV, for further analysis.")
kind, paper = FORMATS[chosen]
paper = paper or saved.paper
methods = [m for m in CI_METHODS if m]
ci = c3.selectbox("Intervals", methods, index=methods.index(saved.ci) if saved.ci in methods else 0,
                  help="auto: the best fitting method per metric (Wilson, DeLong, bootstrap)")
# the range a settings file is held to (assess.present.settings): a saved value always fits the widget
n_resamples = c4.number_input("Bootstrap resamples", RESAMPLES.low, RESAMPLES.high, saved.n_resamples, step=100)

costs = saved.costs
encoded = cost_classes(assessment)
if encoded:
    with st.expander("Misclassification costs", icon=":material/payments:", expanded=costs is not None):
        stated = st.checkbox("State what each kind of error costs", value=costs is not None,
                             help="The report then gives each model's expected cost per sample at the decision "
                                  "and, for scores, the threshold that costs least.")
        if stated:
            st.caption("Rows: true class; columns: predicted class. A correct decision usually costs 0; a benefit is a "
                       "negative cost.")
            start = (np.asarray(costs, dtype=float) if costs is not None and len(costs) == len(encoded)
                     else 1.0 - np.eye(len(encoded)))
            edited = st.data_editor(pd.DataFrame(start, index=encoded, columns=encoded),
                                    key=f"report_costs_{assessment.table.sha256}_{len(encoded)}", width="stretch")
            try:
                costs = costs_from_grid(edited.to_numpy(dtype=float), encoded)
            except AssessError as exc:
                costs = None
                st.warning(md(f"{str(exc)[:1].upper()}{str(exc)[1:]}. Until then the report states no costs."))
        else:
            costs = None

st.subheader("ISO 4213 5.3 control checklist")
st.caption("The app fills in what it can check in the file (folds, ids, baselines); answer the rest for the "
           "reader. Empty answers show as \"not answered\".")
answers = {}
#: Three lines of a question in a half-width box at 1024 px (80 px cut the third: "…label biases?").
CHECKLIST_HEIGHT = 104
left, right = st.columns(2)
for i, item in enumerate(ITEMS):
    with (left if i % 2 == 0 else right):
        answers[item.key] = st.text_area(f"{item.clause} {item.title}", value=saved.checklist.get(item.key, ""),
                                         help=item.question, key=f"checklist_{item.key}", height=CHECKLIST_HEIGHT,
                                         placeholder=item.question)

decision = current_decision()
settings = report_settings(assessment, saved, st.session_state[Key.OVERRIDES], decision, title=title, paper=paper,
                           ci=ci, n_resamples=int(n_resamples), costs=costs, checklist=answers)

st.subheader("Build and download")
# The report is kept for its settings (the paper is a setting of the PDF only); each format's bytes once made.
params = (replace(settings, paper="a4").to_json(), assessment.table.sha256)
kept = kept_result("report", params)


def render(built, bar) -> bytes:
    return report_bytes(built, kind, paper, lambda fraction, what: bar.progress(fraction, text=what))


if st.button("Build the report", type="primary", icon=":material/description:"):
    bar = st.progress(0.0, text="Starting…")
    try:
        options = report_options(settings, assessment, decision=decision,
                                 command=f"python -m assess report {assessment.table.name} --config settings.json "
                                         f"--out {FILES[kind][0]}")
        built = build_report(assessment, options,
                             progress=throttled(lambda f, what: bar.progress(min(0.85, 0.85 * f),
                                                                           text=f"Computing {what}…")))
        bar.progress(0.9, text="Laying out the report…")
        kept = {"report": built, "files": {chosen: render(built, bar)}}
        bar.progress(1.0, text="Done.")
        keep_result("report", params, kept)
    except AssessError as exc:
        bar.empty()
        st.error(md(str(exc)), icon=":material/error:")
        kept = None

if kept is not None:
    built = kept["report"]
    st.success(md(f"Report of `{assessment.table.name}`: {counted(len(built.figures), 'chart')}, "
                  f"{counted(len(built.comparisons), 'test')}. {built.recommendation.text}"), icon=":material/check_circle:")
    if chosen not in kept["files"]:      # another format of the same report: no new computation, only its layout
        bar = st.progress(0.9, text="Laying out the report…")
        try:
            kept["files"][chosen] = render(built, bar)
            bar.empty()
        except AssessError as exc:
            bar.empty()
            st.error(md(str(exc)), icon=":material/error:")
    if chosen in kept["files"]:
        name, mime, icon = FILES[kind]
        data = kept["files"][chosen]
        st.download_button(f"Download the {chosen}", data, name, mime, icon=icon, key="report_download",
                           on_click="ignore", type="primary",
                           help=f"{name}, {len(data) / 1e6:,.1f} MB")
else:
    st.caption("Choose a format, then build the report to download it.")

st.download_button("Settings file (JSON)", settings.to_json().encode("utf-8"), "settings.json", "application/json",
                   icon=":material/settings:", key="report_settings", on_click="ignore",
                   help="Re-apply this assessment to another file: upload it on the Data page, or pass it to "
                        "python -m assess … --config settings.json")
