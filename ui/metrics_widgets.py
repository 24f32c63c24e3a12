"""The Metrics page's widget groups and sections (views/metrics.py): the classification decision and forecast settings,
the per-class table and the definitions; what they show comes from assess/present/metrics_view.py."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from assess.core.data import Task
from assess.core.decision import LABELS, SCORES
from assess.core.formatting import count, listing, percent_level, proportion
from assess.core.progress import Progress
from assess.inputs.assessment import Assessment
from assess.metrics import get, table_for
from assess.metrics.document import MetricsSettings, compute_metrics
from assess.present import metrics_view as mv
from assess.present.settings import BETA
from assess.present.summary import comparison_frame
from ui.state import Key, cached, current_decision, set_decision
from ui.widgets import comparison_config, data_table


def decision_settings(assessment: Assessment, asks: mv.Questions) -> tuple[float, int]:
    """Labels from, threshold (both shared with the other pages through the decision), β and k; returns (β, k)."""
    task, decision = assessment.task, current_decision()
    source = decision.source_for(task, has_labels=asks.has_labels, has_scores=asks.has_scores)
    if asks.has_labels and asks.has_scores:
        # The widgets show the shared decision, which the Curves page may have moved since they were drawn.
        st.session_state[Key.LABELS_FROM] = source
        st.radio("Labels from", [LABELS, SCORES], format_func=mv.SOURCE_WORDS.get, horizontal=True,
                 key=Key.LABELS_FROM, help="Shared with the Confusion, Curves and Compare pages.",
                 on_change=lambda: set_decision(replace(current_decision(), source=st.session_state[Key.LABELS_FROM])))
    if asks.has_scores and source == SCORES and task in (Task.BINARY, Task.MULTILABEL):
        st.session_state[Key.METRICS_THRESHOLD] = decision.threshold
        st.number_input("Threshold (score ≥ threshold is positive)", step=0.01, format="%.3f",
                        key=Key.METRICS_THRESHOLD, help="Shared with the Curves page's threshold explorer.",
                        on_change=lambda: set_decision(current_decision().with_threshold(
                            st.session_state[Key.METRICS_THRESHOLD])))
    beta = st.number_input("β of F-beta", BETA.low, BETA.high, 1.0, step=0.25,
                           help="β > 1 weighs recall more, β < 1 precision more.")
    k = st.number_input("k of top-k accuracy", 1, max(1, len(assessment.classes)), min(2, len(assessment.classes)),
                        disabled=task is not Task.MULTICLASS)
    return float(beta), int(k)


def forecast_settings(assessment: Assessment, asks: mv.Questions) -> tuple[int | None, float | None]:
    """The season of the seasonal MASE and the interval's level when its column names do not say it."""
    season = st.number_input("Season length (0 = from the time stamps)", 0, 10_000, 0,
                             help="The m of the seasonal naive forecast: 12 for monthly data, 4 for quarterly…") or None
    level = None
    if asks.has_intervals and assessment.predictions().interval_level is None:
        level = st.select_slider("Prediction interval level", [0.5, 0.8, 0.9, 0.95, 0.99], value=0.9,
                                 format_func=percent_level,
                                 help="The column names do not say it; the Winkler score needs it.")
    return season, level


def per_class_section(view: mv.MetricsView, task: Task) -> None:
    st.subheader("Per class" if task is Task.MULTICLASS else "Per label")
    if view.per_class_caption:
        st.caption(view.per_class_caption)
    # Support whole, every rate with the same 3 decimals (not "0" beside "0.1714"), headers from the registry.
    shown = view.per_class_shown
    rates = [c for c in shown.columns if c not in ("model", "class", "label", "support")]
    if any(shown[c].isna().any() for c in rates):   # e.g. the precision of a class never predicted
        st.caption("— : undefined for that class (e.g. precision of a class no row was predicted as: 0 / 0).")
    data_table(shown, formats=dict.fromkeys(rates, proportion) | {"support": count},
               headers={c.key: c.name for c in table_for(task)} | {"support": "Support"},
               repeat=("model", "class", "label"))


def definitions(specs, chosen, task: Task) -> None:
    with st.expander("Definitions of the chosen metrics", icon=":material/function:"):
        for spec in (s for s in specs if s.key in chosen):
            st.markdown(f"**{spec.name}** (`{spec.key}`) — {spec.meaning}  \n*Source: {spec.source}*")
            st.latex(spec.latex)
        if table_for(task):
            st.markdown("**Per-class / per-label table:** " + " · ".join(f"*{c.name}* — {c.meaning}"
                                                                         for c in table_for(task)))


def values_first(assessment: Assessment, settings: MetricsSettings):
    """A large file's table while its bootstrap runs (issue 32: first metrics within 3 s): the values (well under a
    second at 1e6 rows), then the intervals that come from a formula (Wilson, DeLong, t — as fast as the values);
    also shown to every other session waiting for the same shared bootstrap (ui/store.py). Returns the placeholder,
    for the page to empty once the full table is drawn."""
    preview = st.empty()
    try:
        quick = cached(compute_metrics, assessment, replace(settings, ci=None), progress=Progress())
    except ValueError:   # the same error follows from the full computation, which shows it
        return preview
    _preview(preview, quick, "Values first; the intervals follow in a few seconds.")
    closed = mv.closed_form_keys(assessment, settings)
    if closed:
        try:
            first = cached(compute_metrics, assessment, replace(settings, keys=closed), progress=Progress())
        except ValueError:
            return preview
        later = [get(assessment.task, k).name for k in settings.keys or () if k not in closed]
        _preview(preview, mv.with_intervals(quick, first), "Values with the intervals that come from a formula; the "
                 f"bootstrap intervals of {listing(later)} follow." if later else "Values with their intervals.")
    return preview


def _preview(place, reports: dict, caption: str) -> None:
    table = comparison_frame(mv.pooled(reports))
    with place.container():
        st.caption(caption)
        data_table(table, config=comparison_config(table))
