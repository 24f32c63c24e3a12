"""Report page: the ISO 4213 clause 8 assessment report as PDF, HTML or a ZIP of tables, and the settings file.

The report is the one `python -m assess report` writes (`assess.report`): built here from the page's choices, the
shared decision and the Data page's roles and display names. The 5.3 checklist answers typed here go into the report
and the settings file.
"""

from dataclasses import replace

import streamlit as st

from assess.errors import AssessError
from assess.export import ExportError
from assess.metrics import CI_METHODS
from assess.report import build_report, render_html, render_pdf, render_zip
from assess.report.checklist import ITEMS
from assess.settings import Settings, report_options
from pages.names import loaded_settings
from pages.state import Key, current_decision, keep_result, kept_result, md, require_assessment

assessment = require_assessment()
st.title("Report")
st.caption("The assessment report of ISO/IEC TS 4213 clause 8: a one-page summary (numbers with intervals, the test "
           "verdict, a recommendation and the key charts), every metric with its definition, every chart with a "
           "caption, the tests, the 5.3 control checklist and a reproducibility appendix. The same report comes "
           "from `python -m assess report FILE --config settings.json --out report.pdf`.")

saved = loaded_settings() or Settings()
overrides = st.session_state[Key.OVERRIDES]

st.subheader("Report options")
c1, c2, c3, c4 = st.columns(4)
title = c1.text_input("Title", value=saved.title, max_chars=200)
paper = c2.radio("Paper", ["a4", "letter"], index=["a4", "letter"].index(saved.paper), horizontal=True,
                 format_func={"a4": "A4", "letter": "Letter"}.get)
methods = [m for m in CI_METHODS if m]
ci = c3.selectbox("Intervals", methods, index=methods.index(saved.ci) if saved.ci in methods else 0,
                  help="auto: the best fitting method per metric (Wilson, DeLong, bootstrap)")
resamples = c4.number_input("Bootstrap resamples", 100, 100_000, saved.resamples, step=100)

st.subheader("ISO 4213 5.3 control checklist")
st.caption("The app fills in what it can check in the file (folds, ids, baselines); answer the rest for the "
           "reader. Empty answers show as \"not answered\".")
answers = {}
left, right = st.columns(2)
for i, item in enumerate(ITEMS):
    with (left if i % 2 == 0 else right):
        answers[item.key] = st.text_area(f"{item.clause} {item.title}", value=saved.checklist.get(item.key, ""),
                                         help=item.question, key=f"checklist_{item.key}", height=80,
                                         placeholder=item.question)

decision = current_decision()
settings = replace(saved, task=assessment.task.value, roles={r: (dict(v) if isinstance(v, tuple) and v and
                                                                 isinstance(v[0], tuple) else
                                                                 list(v) if isinstance(v, tuple) else v)
                                                             for r, v in overrides.roles},
                   positive=assessment.names.file_class(assessment.positive) if assessment.positive else None,
                   class_order=overrides.class_order, display_names=assessment.names,
                   labels_from=decision.source, threshold=decision.threshold if decision.source != "labels" else None,
                   label_thresholds=dict(decision.per_label), ci=ci, resamples=int(resamples),
                   checklist={k: v for k, v in answers.items() if v.strip()}, paper=paper, title=title,
                   models=None)

st.subheader("Build and download")
params = (settings.to_json(), assessment.table.sha256)
report = kept_result("report", params)
if st.button("Build the report", type="primary", icon=":material/description:"):
    bar = st.progress(0.0, text="Starting…")
    try:
        options = report_options(settings, assessment, decision=decision,
                                 command=f"python -m assess report {assessment.table.name} --config settings.json "
                                         "--out report.pdf")
        report = build_report(assessment, options,
                              progress=lambda f, what: bar.progress(min(1.0, 0.9 * f), text=f"Computing {what}…"))
        bar.progress(0.95, text="Laying out the HTML…")
        html = render_html(report, paper=paper)
        bar.progress(1.0, text="Done.")
        keep_result("report", params, (report, html))
        report = (report, html)
    except AssessError as exc:
        bar.empty()
        st.error(md(str(exc)), icon=":material/error:")
        report = None

if report is not None:
    built, html = report
    st.success(md(f"Report of `{assessment.table.name}`: {len(built.figures)} charts, "
                  f"{len(built.comparisons)} test(s). {built.recommendation.text}"), icon=":material/check_circle:")

    def pdf_bytes() -> bytes:
        try:
            return render_pdf(built, paper=paper)
        except ExportError as exc:  # the download then holds the reason instead of a broken PDF
            raise AssessError(str(exc)) from exc

    cols = st.columns(3)
    cols[0].download_button("PDF", pdf_bytes, "report.pdf", "application/pdf", icon=":material/picture_as_pdf:",
                            key="report_pdf", on_click="ignore", type="primary", width="stretch")
    cols[1].download_button("HTML", html.encode("utf-8"), "report.html", "text/html", icon=":material/html:",
                            key="report_html", on_click="ignore", width="stretch")
    cols[2].download_button("ZIP of tables (JSON + CSV)", lambda: render_zip(built), "report.zip", "application/zip",
                            icon=":material/folder_zip:", key="report_zip", on_click="ignore", width="stretch")
else:
    st.caption("Build the report to download it as PDF, HTML or a ZIP of its tables.")

st.download_button("Settings file (JSON)", settings.to_json().encode("utf-8"), "settings.json", "application/json",
                   icon=":material/settings:", key="report_settings", on_click="ignore",
                   help="Re-apply this assessment to another file: upload it on the Data page, or pass it to "
                        "python -m assess … --config settings.json")
