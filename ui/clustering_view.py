"""The Metrics page for a clustering file: external indices (against the reference classes) and internal ones (from the
features), with bootstrap intervals and the random-partition baseline, per clustering, with downloads and definitions.

Called by views/metrics.py in place of its classification / regression body: a clustering has no decision rule,
threshold, β or k, and its baseline is a random partition with the same cluster sizes.
"""

from __future__ import annotations

import streamlit as st

from assess.core.formatting import percent_level
from assess.inputs.assessment import Assessment
from assess.inputs.columns import quote
from assess.intervals.interval import METHOD_NAMES
from assess.metrics import applicable_to, shown_by_default
from assess.metrics.clustering import SILHOUETTE_EXACT_ROWS
from assess.metrics.document import MetricsSettings, compute_metrics
from assess.present.metrics_view import metrics_view
from assess.present.summary import comparison_frame
from ui.state import cached, md
from ui.widgets import (choose_metrics, comparison_config, data_table, metric_definitions, per_model_tabs,
                        resampling_inputs)

CI_CHOICES = {METHOD_NAMES["bootstrap-percentile"]: "bootstrap", "none": None}
BASELINE_CAPTION = ("Baseline: a random partition with the same cluster sizes (the permutation model). Its adjusted "
                    "Rand index and adjusted mutual information are 0 by construction; its Rand index is not — "
                    "compare the Rand index with it, not with 0.")


def render(assessment: Assessment) -> None:
    """The whole Metrics page of a clustering file."""
    first = assessment.predictions()
    has_reference, has_features = first.y_true is not None, first.features is not None
    specs = applicable_to(assessment)
    st.caption(md(
        (f"External indices compare the clusters with the reference classes in {quote(assessment.roles.y_true)}. "
         if has_reference else
         "The file has no reference classes (`y_true`): the external indices are left out. ")
        + (f"Internal indices read the {len(assessment.roles.features)} feature columns `x_*`."
           if has_features else "The file has no feature columns `x_*`: the internal indices are left out.")))

    # full width, as the other tasks' Models: in a third of the page at 1024 px a second name was cut, a third hidden
    models = st.multiselect("Clusterings", list(assessment.models), default=list(assessment.models))
    left, mid, right = st.columns(3)
    ci = CI_CHOICES[left.selectbox("Confidence interval", list(CI_CHOICES),
                                   help="External indices: rows resampled i.i.d. (a multinomial draw over the "
                                        "contingency cells). Silhouette: the mean per-row silhouette resampled, or "
                                        f"above {SILHOUETTE_EXACT_ROWS:,} rows the spread of seeded samples.")]
    level = mid.select_slider("Confidence level", [0.80, 0.90, 0.95, 0.99], value=0.95, format_func=percent_level,
                              disabled=ci is None)
    n_resamples, seed = resampling_inputs(mid, right, disabled=ci is None, seed_disabled=False,
                                          seed_help="Bootstrap, baseline and silhouette samples are seeded: the same "
                                                    "seed gives the same numbers.")
    chosen = choose_metrics(specs, set(shown_by_default(assessment.task)), key="clustering")
    if not models or not chosen:
        st.info("Pick at least one clustering and one metric.")
        st.stop()

    settings = MetricsSettings(tuple(models), tuple(chosen), ci=ci, confidence_level=float(level),
                               n_resamples=int(n_resamples), seed=int(seed))
    with st.spinner("Computing the indices…"):
        try:
            reports = cached(compute_metrics, assessment, settings)
        except ValueError as exc:   # AssessError included
            st.error(md(str(exc)))
            st.stop()

    view = metrics_view(assessment, settings, reports)   # the sentences, and the downloads as `assess metrics` writes
    for sentence in view.sentences:   # which clustering is best, and what each index says of each, in words
        st.markdown(md(sentence))
    st.subheader("All clusterings")
    st.caption(("Each index's values, then their confidence intervals on the row below" if ci is not None else
                "Each index's values") + "; ★ marks the best clustering for each index (↑ higher is better, ↓ lower).")
    # Value and interval in one cell made each clustering's column too wide for a 1024-px screen (the third scrolled
    # out of view): the intervals get a row of their own and the direction is an arrow after the index's name.
    table = comparison_frame(reports, interval_rows=True)
    table["metric"] = (table["metric"] + " " + table["better"].str[-1:]).str.rstrip()
    data_table(table, height="content",   # twice the rows: all in view
                 config=comparison_config(table) | {"better": None})

    st.subheader("Per clustering, with the random baseline")
    per_model_tabs(reports, BASELINE_CAPTION)

    c1, c2, _ = st.columns(3)
    c1.download_button("Metrics CSV", view.csv, "metrics.csv", "text/csv", icon=":material/download:")
    c2.download_button("Metrics JSON", view.json, "metrics.json", "application/json", icon=":material/download:")
    st.page_link("views/clusters.py", label="See the clusters: contingency, sizes, silhouettes, projection",
                 icon=":material/bubble_chart:")

    metric_definitions(specs, chosen)
