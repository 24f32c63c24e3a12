"""The Metrics page's section on unlabelled rows (issue 35 §3): "Estimated on N unlabelled rows" per model, with its
intervals, the assumption and the calibration, then the backtest chart on labelled history. What it shows comes from
assess/present/estimation_view.py."""

from __future__ import annotations

import streamlit as st

from assess.inputs.assessment import Assessment
from assess.metrics.document import MetricsSettings
from assess.metrics.registry import get
from assess.present import estimation_view as ev
from assess.present.charts.estimation import backtest_chart
from ui.state import cached, md
from ui.widgets import chart, data_table


def section(assessment: Assessment, settings: MetricsSettings, models) -> None:
    """Nothing for a file whose rows are all labelled."""
    if not assessment.n_unlabelled:
        return
    st.subheader(ev.heading(assessment))
    st.caption(md(ev.assumption(settings.confidence_level)))
    options = dict(level=settings.confidence_level, n_resamples=settings.n_resamples, seed=settings.seed)
    views = [cached(ev.estimate_view, assessment, model, settings.decision, **options) for model in models]
    for view, tab in zip(views, st.tabs([md(model) for model in models])):
        model = view.model
        with tab:
            if view.undefined:
                st.info(md(f"No estimate for {model}: {view.undefined}."))
                continue
            data_table(view.table, height="content")
            st.caption(md(view.calibration))
            history = cached(ev.backtest_table, assessment, model, settings.decision,
                             level=settings.confidence_level, n_resamples=200, seed=settings.seed)
            if history is None:
                st.caption("Too few labelled rows for a backtest (two chunks of 50 rows at least).")
                continue
            metrics = list(dict.fromkeys(history["metric"]))
            shown = st.selectbox("Backtest metric", metrics, key=f"backtest_metric_{model}",
                                 help="Each chunk of labelled rows estimated as if its labels were missing, "
                                      "calibrated on the other chunks, beside the value its labels give.")
            chart(backtest_chart(history, metric=shown, model=model, confidence_level=settings.confidence_level),
                  f"Estimated vs realised {shown}", key=f"backtest_{model}")
    st.download_button("Estimates JSON", ev.estimates_json(assessment, views), "estimates.json", "application/json",
                       icon=":material/download:")


def estimated_periods(assessment: Assessment, result, model: str, metric: str, level: float) -> dict | None:
    """The Over time page's estimates: ``metric`` on each period's unlabelled rows, {period key: {value, low,
    high}}, as ``metrics --by-time`` gives them (`assess.analyses.over_time.period_estimate`); None when every row is
    labelled or the metric is not one CBPE estimates. A caption says what the open markers assume."""
    from assess.analyses.over_time import period_estimate
    from ui.state import current_decision

    if not assessment.n_unlabelled:
        return None
    keys = result.periods.query("model == @model and n_labelled < n")["key"]
    found = {k: cached(period_estimate, assessment, result, model, k, decision=current_decision(),
                       confidence_level=level) for k in keys}
    found = {k: v[metric] for k, v in found.items() if v and metric in v}
    if found:
        st.caption(md(f"Open markers: {get(assessment.task, metric).name} estimated on the rows whose labels have not "
                      f"arrived, by confidence-based performance estimation; it assumes {ev.ASSUMPTION}."))
    return found or None



def period_backtest(assessment: Assessment, result, model: str, metric: str, level: float) -> None:
    """The Over time page's check of the estimate on labelled history (for a file with unlabelled rows): each
    labelled period estimated as if its labels were missing, calibrated on the other periods, beside the value its
    labels give (`assess.present.estimation_view.backtest_table` on the periods)."""
    from assess.analyses.over_time import labelled_periods, period_words
    from ui.state import current_decision

    if not assessment.n_unlabelled:
        return
    codes, starts = cached(labelled_periods, assessment, model, result.period)
    names = [(lambda w: w[:1].upper() + w[1:])(period_words(s, result.period)) for s in starts]
    history = cached(ev.backtest_table, assessment, model, current_decision(), level=level, n_resamples=200,
                     groups=codes, names=tuple(names))
    if history is None or metric not in set(history["key"]):
        return
    st.subheader("How close the estimate came on labelled periods")
    name = get(assessment.task, metric).name
    chart(backtest_chart(history, metric=name, model=model, confidence_level=level, unit="period",
                         axis="labelled periods"), f"Estimated vs realised {name} per period", key="period_backtest")
    st.caption("Each period with labels was estimated as if they were missing, calibrated on the other periods' "
               "labels. Where the realised value falls outside the estimate's interval, the estimate's assumption (no "
               "concept drift) did not hold in that period, and the estimates of the unlabelled periods deserve the "
               "same doubt.")
