"""The Data page's data-directory source and the Metrics page's out-of-core view (``ASSESS_DATA_DIR``; off by default).

A deployment that sets ``ASSESS_DATA_DIR`` gets one more source on the Data page: the Parquet and CSV files (and
directories of Parquet parts) of that one directory, listed by `assess.engine.data_dir.list_sources` and opened only
through `assess.engine.data_dir.open_source` (no ``../``, no absolute path, no symbolic link out of it, for the file
and for each part of a directory; messages name paths relative to the directory). The chosen
file is assessed out of core by DuckDB (`assess.engine.reports.engine_reports`) with a progress bar over its scans,
and the Metrics page shows the engine's reports. The other pages need the rows: their guard says so
(`ui.state.require_assessment`).
"""

from __future__ import annotations

import streamlit as st

from assess.core.errors import AssessError
from assess.engine.data_dir import ENV, data_directory, list_sources, open_source
from assess.inputs.roles import Overrides
from assess.present.summary import comparison_frame, headline_sentences
from ui.state import DATA_PAGE, Key, md
from ui.widgets import comparison_config, data_table, throttled

DATA_DIR_SOURCE = "Open from the data directory"


def source_options() -> list[str]:
    """The data-directory source when the deployment configured one (else nothing: the setting is off)."""
    return [DATA_DIR_SOURCE] if _configured() else []


def _configured() -> bool:
    try:
        return data_directory() is not None
    except AssessError:
        return True   # misconfigured: offer the source, whose page says what is wrong


def active_run():
    """(relative path, EngineRun) of the file opened out of core, while the data directory is the source."""
    if st.session_state.get(Key.SOURCE) != DATA_DIR_SOURCE:
        return None
    return st.session_state.get(Key.ENGINE_RUN)


def sidebar_lines() -> list[str] | None:
    """The sidebar's lines for the file opened out of core (None when none is): name, rows, task and models."""
    run = active_run()
    if run is None:
        return None
    name, result = run
    models = list(result.reports)
    shown = ", ".join(f"`{m}`" for m in models[:4]) + (f" and {len(models) - 4:,} more" if len(models) > 4 else "")
    return [f"Active: `{name}` (out of core)",
            f"{result.n_rows:,} rows · {result.assessment.task.label} · {len(models):,} "
            f"model{'s' if len(models) != 1 else ''}: {shown}"]


def render() -> None:
    """The Data page for the data-directory source: pick a file, assess it out of core, see what was found.
    Stops the page (the rest of the Data page needs the rows)."""
    try:
        root = data_directory()
    except AssessError as exc:
        st.error(md(str(exc)), icon=":material/error:")
        st.stop()
    if root is None:
        st.info(f"No data directory is configured (set {ENV} where the app is deployed).")
        st.stop()
    files = list_sources(root)
    st.caption(md(f"Files of the data directory `{root.name}` are assessed where they are, out of core (DuckDB): no "
                  "upload, no row cap; a directory of Parquet parts is one file."))
    if not files:
        st.info("The data directory holds no Parquet or CSV file.")
        st.stop()
    st.selectbox("File", files, key=Key.DATA_DIR_CHOICE, format_func=str)
    if st.button("Assess out of core", icon=":material/play_arrow:", type="primary"):
        _assess(root, st.session_state[Key.DATA_DIR_CHOICE])
    run = active_run()
    if run is None:
        st.stop()
    name, result = run
    _summary(name, result)
    st.page_link("views/metrics.py", label="See the metrics", icon=":material/table_chart:")
    st.stop()


def _assess(root, relative: str) -> None:
    from assess.engine.reports import engine_reports

    st.session_state[Key.ENGINE_RUN] = None
    bar = st.progress(0.0, text="opening the file")
    try:
        source = open_source(root, relative)     # checked again now, each part: the directory may have changed
        run = engine_reports(source, "duckdb", Overrides(), ci="auto",
                             progress=throttled(lambda fraction, what: bar.progress(min(1.0, fraction), text=what)))
    except AssessError as exc:
        bar.empty()
        st.error(md(str(exc)), icon=":material/error:")
        return
    bar.progress(1.0, text="done")
    st.session_state[Key.ENGINE_RUN] = (relative, run)
    st.rerun()     # the sidebar (drawn before this page) then names the file now open


def _summary(name: str, run) -> None:
    a = run.assessment
    exact = "exact" if run.exact else f"scores on a grid of {run.bins:,} bins, ranking metrics with error bounds"
    st.markdown(md(f"`{name}` · {run.n_rows:,} rows · {a.task.label} · "
                   f"{len(run.reports)} model{'s' if len(run.reports) != 1 else ''} · {exact}"))
    st.info("Opened out of core: the Metrics page shows every metric over all rows, with intervals. The other pages "
            "draw charts and tests from the rows, which are not loaded; for them, upload a file that fits in "
            "memory (for example a sample of this one).", icon=":material/info:")


def metrics_view() -> None:
    """The Metrics page of a file opened out of core (nothing when none is): the engine's reports, then stop."""
    run = active_run()
    if run is None:
        return
    name, result = run
    st.title("Metrics")
    _summary(name, result)
    for sentence in headline_sentences(result.reports, positive=result.assessment.positive):
        st.markdown(md(sentence))
    st.caption("Value (confidence interval); ★ marks the best model for metrics with a direction.")
    table = comparison_frame(result.reports).drop(columns="key")
    data_table(table, config=comparison_config(table))
    if not result.exact:
        st.caption("Score grid: ROC AUC, average precision, PR AUC and the KS statistic are within their error "
                   "bounds of the exact values; label metrics, log loss and the Brier score are exact.")
    st.page_link(DATA_PAGE, label="Back to Data", icon=":material/upload_file:")
    st.stop()
