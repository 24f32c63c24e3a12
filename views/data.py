"""Data page: pick a sample or upload a file; see and change the roles, task, positive class and class order."""

from dataclasses import replace

import streamlit as st

from assess.core.data import Task
from assess.inputs.data_view import models_line, role_reasons, shown_roles, table_summary
from assess.inputs.roles import role_pickers
from ui import data_directory
from ui.names import display_names_form, settings_upload
from ui.data_source import source_picker
from ui.score_tools import class_score_mapper, flip_score_button
from ui.state import Key, md, set_overrides
from ui.widgets import data_table

NONE = "(none)"

st.title("Data")
st.caption("Drop a predictions file — one row per sample (and model). The app recognises each column's role and "
           "the task, and says why; change anything it got wrong.")

source_picker()

if st.session_state[Key.SOURCE] == data_directory.DATA_DIR_SOURCE:
    data_directory.render()   # out of core; stops the page
if st.session_state[Key.LOAD_ERROR]:
    st.error(md(st.session_state[Key.LOAD_ERROR]), icon=":material/error:")
table = st.session_state[Key.TABLE]
if table is None:
    st.stop()

# --- what was read -------------------------------------------------------------------------------------------------
frame = table.frame
st.markdown(md(table_summary(table)))
for note in table.notes:
    st.info(md(note), icon=":material/info:")

overrides = st.session_state[Key.OVERRIDES]
assessment = st.session_state[Key.ASSESSMENT]
revision = st.session_state[Key.REVISION]
roles = shown_roles(table, assessment, overrides)


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
    for i, (role, label) in enumerate(role_pickers(assessment.task if assessment is not None else None)):
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
    data_table(role_reasons(roles), config={"reason": st.column_config.TextColumn("Reason")})

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
    if models_line(assessment):
        st.caption(md(models_line(assessment)))

st.subheader("Preview")
preview = frame.head(200).copy()
data_table(preview, headers=dict(zip(preview.columns, map(str, preview.columns))), hide_index=False,
           height=300)   # the file's own column names, an empty cell "—"
st.caption(f"First {min(200, len(frame))} of {len(frame):,} rows.")
