"""Controls page (ISO 4213 5.3): what the app can check itself about the assessment — test data disjoint from the
training data and no leaked duplicates (with a training-id file or a `split` column), the same test data for every
model, the agreement of several annotators' ground truth, and distribution shift between splits, folds or periods."""

import streamlit as st

from assess.analyses import controls
from assess.core.errors import AssessError
from assess.core.formatting import number
from assess.inputs.read import ACCEPTED_EXTENSIONS
from assess.present.charts.controls import distribution_by_group_chart
from ui.state import cached, current_decision, md, require_assessment
from ui.widgets import all_charts_button, chart, data_table

st.title("Controls")
assessment = require_assessment()
st.caption("The control criteria of ISO/IEC TS 4213 5.3 that the files themselves can answer. Each line says what "
           "the app checked; the rest of 5.3 (preprocessing, hyperparameters, environment …) is for you to report.")

uploaded = st.file_uploader("Training ids (optional): a file with the training data's `id` column, optionally with "
                            "the feature columns, or one id per line", key="controls_train_ids",
                            type=list(ACCEPTED_EXTENSIONS))
candidates = controls.shift_columns(assessment)
shift_by = st.selectbox("Compare distributions across", candidates, index=0,
                        format_func=lambda c: md(str(c)),
                        help="The groups of this column (splits, folds, slices, periods) are each compared with "
                             "the first.") if candidates else None

try:
    data = None if uploaded is None else uploaded.getvalue()   # the key holds the bytes: shared by content
    result = cached(controls.controls_with_training, assessment, data, None if uploaded is None else uploaded.name,
                    shift_by=shift_by, decision=current_decision())
except AssessError as exc:
    st.error(md(str(exc)), icon=":material/error:")
    st.stop()

st.subheader("Checklist")
data_table(controls.checklist_frame(result.outcomes), wrap=("Control", "What the app checked"))

o = result.overlap
if o is not None:
    st.subheader("Training and test data")
    if o.source.startswith("the training rows"):   # a split column: the other pages count every row of the file
        st.warning(md(f"This file holds training rows ({o.source}). The Metrics, Confusion, Curves and Compare pages "
                      "count every row, training rows included: load the test rows alone to assess the models."))
    if o.n_shared_ids is not None:
        st.markdown(md(f"{o.n_shared_ids:,} of {o.n_test_ids:,} test ids are also among the {o.n_train_ids:,} ids of "
                       f"{o.source}" + (f": {', '.join(o.shared_examples)} …" if o.shared_examples else ".")))
    if o.n_duplicate_rows is not None:
        st.markdown(md(f"{o.n_duplicate_rows:,} of {o.n_test_rows:,} test samples repeat a training row exactly on "
                       f"the {len(o.feature_columns):,} feature columns "
                       f"({', '.join(o.feature_columns[:6])}{' …' if len(o.feature_columns) > 6 else ''})."))
        for test_row, train_row in o.duplicate_examples:
            st.markdown(md(f"- test row {test_row:,} = training row {train_row:,}"))

a = result.agreement
if a is not None:
    st.subheader("Ground truth: agreement of the annotators")
    left, mid, right = st.columns(3)
    left.metric("Krippendorff's α (nominal)", number(a.krippendorff_alpha))
    mid.metric("Fleiss' κ", number(a.fleiss_kappa), help=f"On the {a.n_complete:,} items every annotator "
                                                                   "labelled.")
    right.metric("Items without a majority label", f"{a.n_no_majority:,}")
    for key, reason in a.reasons.items():
        st.caption(md(f"{'Fleiss' if key == 'fleiss_kappa' else 'Krippendorff'}: undefined — {reason}."))
    pairs, models = controls.agreement_frames(a)
    data_table(pairs)
    if len(models):
        st.markdown("**Each model scored against each annotator and against the majority label**")
        data_table(models)
    st.caption(f"α ≥ {controls.ALPHA_RELIABLE:.3f}: reliable; {controls.ALPHA_TENTATIVE:.3f}–"
               f"{controls.ALPHA_RELIABLE:.3f}: tentative conclusions only (Krippendorff 2004). Annotators are the "
               "`y_true_<name>` columns holding class labels.")

s = result.shift
figures = []
if s is not None:
    st.subheader(md(f"Distribution shift across `{s.by}`"))
    data_table(controls.shift_frame(s), repeat=("Group",))
    for key, reason in s.reasons.items():
        st.caption(md(f"{controls.SHIFT_NAMES[key]} is undefined {reason}."))
    measured = []
    if "chi2_pvalue" in s.table:
        measured.append("label distributions by KL divergence, Jensen–Shannon distance, total variation, PSI (above "
                        "0.25: a major shift) and a χ² test")
    elif any(str(c).startswith("share_") for c in s.table):   # multi-label: labels are not exclusive
        measured.append("the share of samples carrying each label")
    if "ks_true_pvalue" in s.table:
        measured.append("the true values by a two-sample Kolmogorov–Smirnov test")
    if s.samples:
        measured.append(f"the {s.sample_name}s by a two-sample Kolmogorov–Smirnov test")
    tested = any("pvalue" in str(c) for c in s.table)
    st.caption(md((f"Each group against `{s.reference}`" if tested else "Per group") + f" (model `{s.model}`): "
                  + ("; ".join(measured) or "group sizes") + ("; Holm across groups." if tested else ".")))
    if s.samples:
        fig = distribution_by_group_chart(samples=s.samples, value_name=s.sample_name.capitalize(),
                                          reference=s.reference,
                                          title=f"{s.sample_name.capitalize()} distribution per group of {s.by}")
        figures.append(fig)
        chart(fig, "Distribution per group", key="controls_shift")
all_charts_button(figures, "controls.pdf", key="controls")
