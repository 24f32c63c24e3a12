"""Confusion page: confusion matrices per model (counts or normalised), most confused pairs, a cost matrix's
expected cost; the labels follow the shared decision (the threshold set on Curves, the label source on Metrics)."""


import numpy as np
import pandas as pd
import streamlit as st

from assess.analyses import decision_costs
from assess.analyses.operating_points import multilabel_matrices
from assess.core.data import Task
from assess.core.errors import AssessError
from assess.core.formatting import count, percent, significant
from assess.present import charts
from assess.present.export import to_csv_bytes
from ui.multilabel_views import label_sets_section
from ui.rows_widgets import confusion_cell_rows
from ui.state import cached, current_decision, md, require_assessment
from ui.widgets import all_charts_button, chart, chart_cell, chart_row, data_table, decision_note

#: Most classes drawn in a confusion matrix (and offered in the cost editor): beyond it the classes with the most true
#: rows are drawn and the rest pooled into one "other classes" row and column (`assess.analyses.operating_points.top_classes_matrix`);
#: a 1,500 × 1,500 heatmap takes tens of seconds to draw and shows nothing legible.
MAX_DRAWN_CLASSES = 30
NORMALISE = {"counts (share of all)": None, "by true class (recall on the diagonal)": "true",
             "by predicted class (precision on the diagonal)": "pred"}

st.title("Confusion")
assessment = require_assessment()
task = assessment.task
if not task.is_classification:
    st.info(f"Confusion matrices belong to classification tasks; this file's task is {task.label}.")
    st.stop()

left, right = st.columns([3, 2])
models = left.multiselect("Models", list(assessment.models), default=list(assessment.models))
normalise = NORMALISE[right.radio("Cells coloured", list(NORMALISE), index=1)]
if not models:
    st.info("Pick at least one model.")
    st.stop()
classes = list(assessment.classes)
figures, tables = [], []
decision = current_decision()
decision_note(assessment)

if task is Task.MULTILABEL:
    for model in models:
        fig = charts.multilabel_confusion_chart(matrices=multilabel_matrices(assessment.predictions(model), decision),
                                                labels=classes, normalize=normalise or "true",
                                                title=f"Confusion per label — {model}")
        figures.append(fig)
        chart(fig, f"{model} per label", key=f"ml_{model}")
    figures += label_sets_section(assessment, models, decision)
    all_charts_button(figures, "confusion.pdf", key="confusion")
    st.stop()

with st.expander("Cost matrix: what each kind of error costs", icon=":material/payments:"):
    st.caption("Rows: true class; columns: predicted class. Default: every error costs 1, correct answers 0, so the "
               "expected cost is the error rate. A benefit is a negative cost.")
    encoded = list(assessment.predictions().classes) if task is Task.BINARY else classes
    costs = 1.0 - np.eye(len(encoded))
    if len(encoded) > MAX_DRAWN_CLASSES:
        # A k × k editor of 1,500 classes is 2.25 million cells: the 0/1 costs (the error rate) are used as they are.
        st.caption(f"With {len(encoded):,} classes the costs stay 0/1 (editing is offered up to "
                   f"{MAX_DRAWN_CLASSES} classes).")
    else:
        costs = st.data_editor(pd.DataFrame(costs, index=encoded, columns=encoded),
                               key=f"costs_{assessment.table.sha256}_{len(classes)}", width="stretch").to_numpy()
    try:
        costs = decision_costs.cost_matrix(costs, encoded)
    except AssessError as exc:
        st.warning(md(f"No expected cost: {exc}."))
        costs = None

found = cached(decision_costs.confusions, assessment, tuple(models), decision=decision, costs=costs,
              max_drawn=MAX_DRAWN_CLASSES)
for model, reason in found.skipped:
    st.warning(md(reason))
row = chart_row()
for m in found.models:
    with row, chart_cell(key=f"cell_cm_{m.model}"):
        fig = charts.confusion_matrix_chart(matrix=m.drawn, classes=list(m.drawn_classes), normalize=normalise,
                                            title=m.model, expected_cost=None if m.pooled or costs is None
                                            else m.expected)
        figures.append(fig)
        chart(fig, f"{m.model} confusion", key=f"cm_{m.model}")
        if m.pooled:
            st.caption(f"The {MAX_DRAWN_CLASSES} classes with the most true rows of {len(found.classes):,}; the "
                       f"other {m.pooled:,} are pooled into the last row and column. The counts, the expected cost "
                       "and the most confused pairs below use every class.")
    if len(found.classes) > 2:
        pairs = charts.most_confused_pairs(m.matrix, list(found.classes), top=5)
        pairs.insert(0, "model", m.model)
        tables.append(pairs)
summary = pd.DataFrame([{"model": m.model, "rows": m.samples, "expected cost per sample": m.expected,
                         "errors": m.errors} for m in found.models])

st.subheader("Expected cost")
# Counts whole with thousands separators (weighted counts keep a decimal), the cost with 4 significant digits.
data_table(summary, formats={"rows": count, "errors": count, "expected cost per sample": lambda v: significant(v, 4)})
if tables:
    st.subheader("Most confused pairs")
    pairs = pd.concat(tables, ignore_index=True)
    if pairs.empty:
        st.caption("Every row was predicted as its true class: no pair of classes is confused.")
    else:
        # class names can be long ("Invoice — duplicate payment"): they wrap, so the count and share stay in view
        data_table(pairs, formats={"count": count, "share_of_true_class": percent},
                   wrap=("true_class", "predicted_class"))
        st.download_button("Confused pairs CSV", to_csv_bytes(pairs), "confused_pairs.csv", "text/csv",
                           icon=":material/download:")
st.subheader("Rows behind a cell")
confusion_cell_rows(assessment, [m.model for m in found.models], decision)
all_charts_button(figures, "confusion.pdf", key="confusion")
