"""The Compare page's widgets: its settings, the suitable tests, a test's options, and the rendering of results
(table, assumptions, Diebold–Mariano by horizon, adjusted p-values between pairs, every suitable test); the values
come from `assess.analyses.compare_view`."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from assess.analyses.compare_view import (DESIGN_WORDS, CompareData, critical_difference, default_metric,
                                          horizon_tables, metric_choices, result_table, test_title)
from assess.core.formatting import count, percent_level
from assess.present import charts
from assess.present.export import to_csv_bytes
from assess.stats import CORRECTIONS, suggestions_frame
from ui.multilabel_views import per_label_test_tables
from ui.state import cached, md
from ui.widgets import chart, data_table, text_column_width


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


def show_result(result, confidence_level: float) -> list:
    """The result's sentence, table, assumptions and detail tables; returns the per-label figures (multi-label)."""
    st.subheader("Result")
    st.success(md(result.sentence), icon=":material/campaign:")
    if result.design is not None:
        st.caption(md(f"Design assumed: {DESIGN_WORDS[result.design.kind].lower()} — {result.design.reason}."))
    table = result_table(result, confidence_level)
    if table.method is not None:
        st.caption(md(f"Method: {table.method}."))
    # Missing cells (no df for a bootstrap, no adjusted p on an omnibus row, no pair on it) read "—", never "None";
    # numbers 4 significant digits; n whole. A column with a missing cell becomes text here: the grid shows a missing
    # cell as "None" whatever the Styler's na_rep says. Complete number columns stay numbers (sorting, exports, tests).
    number_format = {c: "{:.4g}".format for c in ("statistic", "pvalue", "pvalue_adjusted", "effect_value")} | {
        "n": count, "df": lambda d: d if isinstance(d, str) else f"{d:g}", "model_a": str, "model_b": str}
    data_table(table.frame, formats=number_format, headers=table.headers)

    checked = result.checked
    if checked is not None and checked.assumptions:
        st.markdown("**Assumptions**")
        assumptions(checked)

    by_horizon = horizon_tables(result)
    if by_horizon:
        st.markdown("**Diebold–Mariano by horizon** (each horizon tested with its own lag length h − 1; p-values "
                    "adjusted by Holm across the horizons, and across series × horizons for the per-series rows)")
        for (model_a, model_b), dm_table in by_horizon:
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

    figures = per_label_test_tables(result)  # multi-label: McNemar per label

    if len(result.models) > 2 and result.pairs:
        st.markdown("**Adjusted p-values between pairs**")
        matrix = result.pvalue_matrix(adjusted=True).astype(float)   # the diagonal is no pair: NaN, shown as —
        data_table(matrix, formats=dict.fromkeys(matrix.columns, "{:.4g}"), hide_index=False,
                   headers={m: str(m) for m in matrix.columns})   # the models' own names, not put in words
    return figures


def settings_widgets(data: CompareData, question: str, assessment) -> tuple:
    """The models, metric, correction, confidence level and alternative, in three groups of settings."""
    models_available = list(data.models)
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
        names = {} if assessment is None else cached(metric_choices, assessment, light=True)
        if data.folds is not None:
            metric = st.selectbox("Metric (column)", data.metric_columns)
        elif names:
            metric = st.selectbox("Metric", list(names), index=list(names).index(default_metric(assessment, names)),
                                  format_func=names.get,
                                  help="Used by the bootstrap and fold tests; McNemar, Cochran's Q, chi-squared "
                                       "and Fisher compare right/wrong per sample (accuracy), DeLong the ROC AUC, "
                                       "Welch's t and Mann-Whitney a per-sample loss, Diebold–Mariano the forecast "
                                       "losses.")
        else:
            metric = None
            st.caption(f"The {assessment.task.label} task has no metrics in the registry yet: the tests that "
                       "compare a metric are listed as not run.")
        correction = st.selectbox("Multiple-comparison correction", ["auto", *CORRECTIONS],
                                  help="auto: Holm for pairs (Nemenyi after Friedman).")
    with right:
        confidence_level = st.select_slider("Confidence level", [0.90, 0.95, 0.99], value=0.95,
                                            format_func=percent_level)
        alternative = st.selectbox("Alternative", ["two-sided", "greater", "less"],
                                   help="greater: the first model's effect is larger (e.g. higher accuracy, larger "
                                        "loss); less: smaller.")
    return models, metric, correction, confidence_level, alternative


def suitable_tests(suggestions) -> None:
    """The suitable tests as a table. The test, its kind and the tick as narrow as their text (a "small" tick column
    cut its header to "Recommen" at 1024 px), the rest for the reason, wrapped: each reason is read whole (cut to the
    table's edge, it pushed the table into scrolling sideways at 1024 px)."""
    st.subheader("Suitable tests")
    data_table(suggestions_frame(suggestions).assign(test=lambda f: f["test"].map(test_title)), wrap=("why",),
               config={"recommended": st.column_config.CheckboxColumn(
                           "Recommended", width=text_column_width([], header="Recommended")),
                       "why": st.column_config.Column("Why", help="Why the test fits")})


def assumptions(checked) -> None:
    """Each assumption of a test result, marked met, not met or cannot tell, with what was checked."""
    for a in checked.assumptions:
        mark = (":green[:material/check_circle:]" if a.met else ":orange[:material/warning:]" if a.met is False
                else ":material/info:")
        st.markdown(f"{mark} " + md(f"{a.name}: {a.detail}"))


def show_every(every, metric_title: str | None) -> None:
    """What "Run all suitable tests" found: one verdict — the test it follows and why, and where the other tests
    disagree (`assess.stats.verdict`) — then each test's sentence and assumptions, the critical difference diagram
    when Friedman's test ran, and the CSV."""
    if every is None:
        return
    st.subheader("Every suitable test")
    if every.verdict is not None:
        st.success(md(f"Verdict ({test_title(every.verdict.test)}): {every.verdict.sentence}"),
                   icon=":material/gavel:")
        st.caption(md(f"Why this test: {every.verdict.reason}."))
        if every.verdict.disagreement:
            st.warning(md(every.verdict.disagreement), icon=":material/call_split:")
    for comparison in every.comparisons:
        st.markdown(f"**{md(test_title(comparison.test))}** — " + md(comparison.sentence))
        checked = comparison.checked
        if checked is not None and checked.assumptions:
            with st.expander(f"Assumptions of the {test_title(comparison.test)}"):
                assumptions(checked)
        details = critical_difference(comparison)
        if details is not None:
            chart(charts.critical_difference_chart(
                average_ranks=details.average_ranks, critical_difference=details.critical_difference,
                title="Critical difference diagram" + (f" — {metric_title}" if metric_title else "")),
                "Critical difference", key="cd_every")
    for test_name, reason in every.skipped.items():
        st.caption(md(f"{test_title(test_name)} was not run: {reason}"))
    if every.comparisons:
        st.download_button("All results CSV", to_csv_bytes(pd.concat([c.to_frame().assign(test=c.test) for c in
                                                                      every.comparisons], ignore_index=True)),
                           "all_tests.csv", "text/csv", icon=":material/download:")
