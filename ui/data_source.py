"""The Data page's source: a sample, an uploaded file (with its reading options) or the data directory.

State changes in callbacks, which run before the script: the sidebar, drawn before the page, is then up to date, and
a loaded file stays loaded when the user visits other pages (the uploader itself forgets its file then).
"""

from __future__ import annotations

import streamlit as st

from assess.core.formatting import count, counted
from assess.inputs.read import ACCEPTED_EXTENSIONS
from ui import data_directory
from ui.state import (SAMPLES, STAY_WHILE_UPLOADING, UPLOAD, Key, PendingRead, Upload, current_upload,
                      read_kept_upload, sample_table, set_table, set_upload)


def _choose_source() -> None:
    source = st.session_state[Key.SOURCE_CHOICE]
    st.session_state[Key.SOURCE] = source
    set_upload(None)
    set_table(sample_table(SAMPLES[source]) if source in SAMPLES else None)


def _read(sheet=None, upload=None) -> None:
    """Read the kept upload (or ``upload``) with the chosen reading options; a failure becomes the page's message."""
    upload = upload or current_upload()
    if upload is None:
        return
    decimal = st.session_state.get(Key.DECIMAL_CHOICE, "detect")
    read_kept_upload(PendingRead(upload, sheet, None if decimal == "detect" else decimal))


def _uploaded() -> None:
    file = st.session_state[Key.UPLOADER]
    if file is None:   # the user removed the file
        set_upload(None)
        set_table(None)
    else:
        _read(upload=Upload(file.name, file.getvalue()))


def _choose_sheet(widget_key: str) -> None:
    _read(sheet=st.session_state[widget_key])


def source_picker() -> None:
    """The source radio and, for an upload, the uploader and its reading options."""
    options = [*SAMPLES, UPLOAD, *data_directory.source_options()]
    st.session_state[Key.SOURCE_CHOICE] = st.session_state[Key.SOURCE]
    st.radio("Source", options, horizontal=True, key=Key.SOURCE_CHOICE, on_change=_choose_source)

    if st.session_state[Key.SOURCE] == UPLOAD:
        st.file_uploader("Predictions file", type=list(ACCEPTED_EXTENSIONS), key=Key.UPLOADER, on_change=_uploaded,
                         help="CSV/TSV/TXT, Parquet, Excel .xlsx or JSON Lines, optionally .gz or .zip. "
                              "Pickle/joblib files are never opened.")
        loaded = st.session_state[Key.TABLE]
        if loaded is None and current_upload() is None:
            st.caption(STAY_WHILE_UPLOADING)
        with st.expander("Reading options", expanded=bool(loaded is not None and len(loaded.sheets) > 1)):
            st.selectbox("Decimal mark", ["detect", ".", ","], key=Key.DECIMAL_CHOICE,
                         on_change=lambda: _read(sheet=None if loaded is None else loaded.sheet))
            if loaded is not None and len(loaded.sheets) > 1:
                key = f"sheet_{loaded.sha256}"
                st.selectbox("Excel sheet", list(loaded.sheets), index=loaded.sheets.index(loaded.sheet), key=key,
                             on_change=_choose_sheet, args=(key,))


def file_summary(assessment) -> str:
    """The sidebar's line on the active file: "1,707 rows (243 unlabelled) · binary classification · 3 models". Its
    rows are the file's: the unlabelled ones (empty truth, kept apart from ``assessment.frame``) are counted and said —
    without them a file with a month of labels still to come read as that many rows fewer."""
    waiting = assessment.n_unlabelled
    rows = f"{count(len(assessment.frame) + waiting)} rows" + (f" ({count(waiting)} unlabelled)" if waiting else "")
    return f"{rows} · {assessment.task.label} · {counted(len(assessment.models), 'model')}"
