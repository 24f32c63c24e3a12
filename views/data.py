"""Data page: pick a sample or upload a file; see and change the roles, task, positive class and class order."""

from dataclasses import replace

import pandas as pd
import streamlit as st

from assess.core.data import Task
from assess.core.formatting import code_as_quotes
from assess.inputs.read import ACCEPTED_EXTENSIONS
from assess.inputs.roles import detect_roles
from ui import data_directory
from ui.names import display_names_form, settings_upload
from ui.score_tools import class_score_mapper, flip_score_button
from ui.state import (SAMPLES, STAY_WHILE_UPLOADING, UPLOAD, Key, PendingRead, Upload, current_upload, md,
                         read_kept_upload, sample_table, set_overrides, set_table, set_upload)
from ui.widgets import data_table

NONE = "(none)"
COMMON_ROLES = (("model", "Model"), ("id", "Sample id"), ("fold", "CV fold"), ("weight", "Sample weight"))
NUMERIC_ROLES = (("y_true", "Actual value"), ("y_pred", "Predicted value"), *COMMON_ROLES,
                 ("lower", "Interval lower bound"), ("upper", "Interval upper bound"))
#: The role pickers each task shows (the others' columns are still listed in "Why each column got its role").
ROLE_FIELDS = {
    Task.REGRESSION: NUMERIC_ROLES,
    Task.FORECAST: (*NUMERIC_ROLES, ("timestamp", "Time stamp"), ("series", "Series"), ("horizon", "Horizon"),
                    ("origin", "Forecast origin")),
    Task.CLUSTERING: (("cluster", "Cluster"), ("y_true", "Reference class"), *COMMON_ROLES),
}
CLASSIFICATION_ROLES = (("y_true", "Ground truth"), ("y_pred", "Predicted label"), ("score", "Score (positive class)"),
                        *COMMON_ROLES)

st.title("Data")
st.caption("Drop a predictions file — one row per sample (and model). The app recognises each column's role and "
           "the task, and says why; change anything it got wrong.")

# --- source --------------------------------------------------------------------------------------------------------
# State changes in callbacks, which run before the script: the sidebar, drawn before this page, is then up to date,
# and a loaded file stays loaded when the user visits other pages (the uploader itself forgets its file then).
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

if st.session_state[Key.SOURCE] == data_directory.DATA_DIR_SOURCE:
    data_directory.render()   # out of core; stops the page
if st.session_state[Key.LOAD_ERROR]:
    st.error(md(st.session_state[Key.LOAD_ERROR]), icon=":material/error:")
table = st.session_state[Key.TABLE]
if table is None:
    st.stop()

# --- what was read -------------------------------------------------------------------------------------------------
frame = table.frame
meta = [f"`{table.name}`", f"{len(frame):,} rows", f"{frame.shape[1]} columns", table.format.upper()]
if table.compression:
    meta.append(table.compression)
if table.delimiter:
    meta.append({",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe", " ": "whitespace"}[table.delimiter]
                + "-delimited")
if table.sheet:
    meta.append(f"sheet `{table.sheet}`")
meta.append(f"SHA-256 {table.sha256[:12]}…")
st.markdown(md(" · ".join(meta)))
for note in table.notes:
    st.info(md(note), icon=":material/info:")

overrides = st.session_state[Key.OVERRIDES]
assessment = st.session_state[Key.ASSESSMENT]
revision = st.session_state[Key.REVISION]
roles = assessment.roles if assessment is not None else None
if roles is None:  # no ground truth found: still offer the role pickers over the detected roles
    roles = detect_roles(frame)
    for role, value in overrides.roles:
        if hasattr(roles, role) and isinstance(value, (str, type(None))):
            roles = roles.with_role(role, value, "set by you")


def _set_role(role: str, widget_key: str) -> None:
    choice = st.session_state[widget_key]
    value = "" if choice == NONE else choice
    set_overrides(st.session_state[Key.OVERRIDES].with_role(role, value))


def _set_groups(widget_key: str) -> None:
    set_overrides(st.session_state[Key.OVERRIDES].with_role("groups", tuple(st.session_state[widget_key])))


def _set_task(widget_key: str) -> None:
    set_overrides(replace(st.session_state[Key.OVERRIDES], task=Task(st.session_state[widget_key])))


def _set_positive(widget_key: str) -> None:
    file_label = st.session_state[Key.ASSESSMENT].names.file_class  # the widgets show display names
    set_overrides(replace(st.session_state[Key.OVERRIDES], positive=file_label(st.session_state[widget_key])))


def _set_class_order(widget_key: str) -> None:
    file_label = st.session_state[Key.ASSESSMENT].names.file_class
    chosen = tuple(file_label(c) for c in st.session_state[widget_key])
    set_overrides(replace(st.session_state[Key.OVERRIDES], class_order=chosen or None))


# --- task and roles ------------------------------------------------------------------------------------------------
st.subheader("Task and roles")
if st.session_state[Key.DESCRIBE_ERROR]:
    st.error(md(st.session_state[Key.DESCRIBE_ERROR]), icon=":material/error:")

columns = [str(c) for c in frame.columns]
# The task and classes beside the roles; with nothing described yet (no ground truth found) the roles take the
# whole width rather than leave a blank third
left, right = st.columns([1, 2]) if assessment is not None else (st.container(), st.container())
with left:
    if assessment is not None:
        tasks = [t.value for t in Task]
        key = f"task_{revision}"
        st.selectbox("Task", tasks, index=tasks.index(assessment.task.value), key=key, on_change=_set_task,
                     args=(key,), format_func=lambda value: Task(value).label.capitalize(), help="Recognised from the ground truth; change it if it is wrong.")
        st.caption(md(f"Why: {assessment.task_reason}"))
        if assessment.task is Task.BINARY and assessment.classes:
            key = f"positive_{revision}"
            classes = list(assessment.classes)
            st.selectbox("Positive class", classes, index=classes.index(assessment.positive), key=key,
                         on_change=_set_positive, args=(key,),
                         help="The class the model is meant to detect: recall, precision and every curve refer to it.")
            st.caption(md(f"Why: {assessment.positive_reason}"))
        if assessment.task in (Task.BINARY, Task.MULTICLASS, Task.MULTILABEL) and len(assessment.classes) > 1:
            key = f"order_{revision}"
            st.multiselect("Class order", list(assessment.classes), default=list(assessment.classes), key=key,
                           on_change=_set_class_order, args=(key,),
                           help="Tables and charts list the classes in this order; pick them in the order you want.")
    if overrides != type(overrides)():
        if st.button("Reset to detected", icon=":material/restart_alt:",
                     help="Undo your changes to the task, classes and roles: back to what was detected."):
            set_overrides(type(overrides)())
            st.rerun()
with right:
    grid = st.columns(2)
    fields = ROLE_FIELDS.get(assessment.task if assessment is not None else None, CLASSIFICATION_ROLES)
    for i, (role, label) in enumerate(fields):
        current = getattr(roles, role)
        key = f"role_{role}_{revision}"
        with grid[i % 2]:
            st.selectbox(label, [NONE, *columns], index=(columns.index(current) + 1) if current in columns else 0,
                         key=key, on_change=_set_role, args=(role, key), help=md(roles.reason(role)) or None)
    key = f"role_groups_{revision}"
    st.multiselect("Subgroup slices", columns, default=[g for g in roles.groups if g in columns], key=key,
                   on_change=_set_groups, args=(key,),
                   help="Columns whose values define slices: the Slices page shows every metric per slice.")
    if assessment is not None:
        class_score_mapper(assessment, revision)

if assessment is not None:
    display_names_form(assessment)
settings_upload()

with st.expander("Why each column got its role", expanded=False):
    data_table(pd.DataFrame([{"role": r["role"], "columns": ", ".join(r["columns"]), "reason": code_as_quotes(r["reason"])}
                             for r in roles.table()]), config={"reason": st.column_config.TextColumn("Reason")})

# --- problems ------------------------------------------------------------------------------------------------------
if assessment is not None:
    st.subheader("Checks")
    if not assessment.problems:
        st.success(f"No problems found in {len(frame):,} rows · models: {len(assessment.models)}",
                   icon=":material/check_circle:")
    for problem in assessment.problems:
        show = st.error if problem.level == "error" else st.warning
        show(md(problem.message), icon=":material/error:" if problem.level == "error" else ":material/warning:")
    flip_score_button(assessment)
    if len(assessment.models) > 1 or assessment.models[0] != table.stem:
        st.caption(md("Models: " + ", ".join(f"`{m}`" for m in assessment.models)))

st.subheader("Preview")
preview = frame.head(200).copy()
data_table(preview, headers=dict(zip(preview.columns, map(str, preview.columns))), hide_index=False,
           height=300)   # the file's own column names, an empty cell "—"
st.caption(f"First {min(200, len(frame))} of {len(frame):,} rows.")
