"""Data page widgets: display names of models and classes, and applying a settings file (UI only).

The names become part of the overrides (`assess.inputs.roles.Overrides.names`), so `assess.inputs.assessment.describe` applies them once
and every page, sentence, chart, export and report sees them. A settings file (`assess.present.settings`) sets roles,
positive class, class order, display names and the decision, and is kept for the Report page (checklist answers,
interval and test choices).
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from assess.core.errors import AssessError
from assess.inputs.assessment import Assessment
from assess.inputs.names import MAX_NAME, DisplayNames
from assess.present.settings import Settings
from ui.state import Key, md, set_decision, set_overrides
from ui.widgets import presenting

#: Above this many classes the class-name fields are not offered (they would fill the page).
MAX_NAMED_CLASSES = 30


def loaded_settings() -> Settings | None:
    return st.session_state.get(Key.LOADED_SETTINGS)


def display_names_form(assessment: Assessment) -> None:
    """A form with one field per model and per class; "Apply names" renames them everywhere."""
    names = assessment.names
    files_models = [names.file_model(m) for m in assessment.models]
    files_classes = [names.file_class(c) for c in assessment.classes]
    with st.expander("Display names of models and classes", icon=":material/badge:",
                     expanded=bool(names) and not presenting()):
        st.caption("Give models and classes the names your audience knows (\"lr\" → \"Logistic regression\", "
                   "\"1\" → \"Fraud\"). Every page, chart, download and the report use them; leave a field empty "
                   "to keep the file's name.")
        with st.form(f"display_names_{assessment.table.sha256[:12]}", border=False):
            class_fields = {}
            left, right = st.columns(2)
            with left:
                st.markdown("**Models**")
                model_fields = _name_fields("Model", files_models, names.model)
            with right:
                if files_classes and len(files_classes) <= MAX_NAMED_CLASSES:
                    st.markdown("**Classes**")
                    class_fields = _name_fields("Class", files_classes, names.cls)
                elif files_classes:
                    st.caption(f"{len(files_classes):,} classes: names can be given in a settings file.")
            submitted = st.form_submit_button("Apply names", icon=":material/check:")
    if submitted:
        chosen = DisplayNames.of(model_fields, class_fields | {c: names.cls(c) for c in files_classes
                                                              if c not in class_fields})
        try:
            chosen.check(files_models, files_classes, file=assessment.table.name)
        except AssessError as exc:
            st.error(md(str(exc)), icon=":material/error:")
            return
        set_overrides(replace(st.session_state[Key.OVERRIDES], names=chosen))
        st.rerun()


def _apply_settings() -> None:
    """Callback of the settings uploader: read the file, check it against the loaded data, apply it."""
    upload = st.session_state.get(Key.SETTINGS_UPLOADER)
    if upload is None:
        return
    table, before = st.session_state.get(Key.TABLE), st.session_state[Key.OVERRIDES]
    try:
        settings = Settings.loads(upload.getvalue(), source=upload.name)
        if table is None:
            raise AssessError("load a predictions file first, then apply the settings to it")
        set_overrides(settings.overrides(type(before)(), table.frame.columns))
        assessment = st.session_state.get(Key.ASSESSMENT)
        if assessment is None:
            raise AssessError(f"{upload.name} does not fit this file: {st.session_state[Key.DESCRIBE_ERROR]}")
        settings, notes = settings.fit(assessment)   # another task refused; what does not apply, said and dropped
        set_decision(settings.decision())
    except AssessError as exc:
        if st.session_state[Key.OVERRIDES] != before:
            set_overrides(before)  # nothing half-applied: the file stays as it was
        st.session_state[Key.SETTINGS_MESSAGE] = [("error", str(exc))]
        return
    st.session_state[Key.LOADED_SETTINGS] = settings
    st.session_state[Key.SETTINGS_MESSAGE] = [("success", f"Applied the settings from `{upload.name}`: roles, "
                                                          "positive class, display names and the decision; the Report "
                                                          "page has their checklist answers and report options."),
                                              *(("warning", note) for note in notes)]


def settings_upload() -> None:
    """Upload a settings file saved from the Report page (the same assessment on another file, ISO 4213 5.2)."""
    with st.expander("Apply saved settings", icon=":material/settings_backup_restore:"):
        st.caption("A settings file saved from the Report page re-applies the same assessment to this file: roles, "
                   "positive class, display names, decision, report options and checklist answers.")
        st.file_uploader("Settings file (JSON)", type=["json"], key=Key.SETTINGS_UPLOADER, on_change=_apply_settings)
        for kind, text in st.session_state.get(Key.SETTINGS_MESSAGE) or ():
            {"error": st.error, "warning": st.warning, "success": st.success}[kind](md(text))


def _name_fields(kind: str, file_names: list[str], shown) -> dict[str, str]:
    """One text field per name in the file ("Model `lr`"), holding its display name when one is set (``shown``
    returns the file's name when none is): ``{file name: what the field holds}``."""
    prefix = kind.lower()
    return {name: st.text_input(md(f"{kind} `{name}`"), value=shown(name) if shown(name) != name else "",
                                max_chars=MAX_NAME, key=f"name_{prefix}_{i}", placeholder=name)
            for i, name in enumerate(file_names)}
