"""Data-page widgets for the scores: map per-class score columns by hand, and flip an inverted binary score.

Both change the roles through `ui.state.set_overrides`, as every role picker does, so the reasons then say "set
by you" and "Reset to detected" undoes them. The command line does the same with ``--score CLASS=COLUMN``
and ``--flip-score``.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from assess.core.data import Task
from assess.inputs.assessment import Assessment
from assess.inputs.columns import is_numeric, quote
from assess.inputs.score_direction import flipped_score
from ui.state import Key, md, set_overrides

NONE = "(none)"
#: More classes than this get no picker each (a table of 2,000 selectboxes helps nobody): the CLI option remains.
MAX_MAPPED_CLASSES = 30


def _apply(changes) -> None:
    overrides = st.session_state[Key.OVERRIDES]
    for role, value in changes:
        overrides = overrides.with_role(role, value)
    set_overrides(overrides)


def flip_score_button(assessment: Assessment) -> None:
    """One click that reads the score as 1 − score, offered when validation found it inverted."""
    if not any(p.code == "inverted_score" for p in assessment.problems):
        return
    changes = flipped_score(assessment.roles, assessment.classes, assessment.positive)
    if changes:
        st.button("Flip the score (read it as 1 − score)", icon=":material/swap_vert:", key="flip_score",
                  on_click=_apply, args=(changes,),
                  help="Treat the score column as the probability of the other class. Undo with 'Reset to what "
                       "was detected'.")


def _set_class_column(label: str, widget_key: str, current: dict) -> None:
    choice = st.session_state[widget_key]
    mapping = {k: v for k, v in current.items() if k != label}
    if choice != NONE:
        mapping[label] = choice
    _apply((("class_scores", mapping),) if mapping else (("class_scores", None),))


def class_score_mapper(assessment: Assessment, revision: int) -> None:
    """One column picker per class: which numeric column holds that class's probability (or score)."""
    if assessment.task not in (Task.BINARY, Task.MULTICLASS) or assessment.roles.wide_models:
        return
    classes = list(assessment.classes)
    if not 2 <= len(classes) <= MAX_MAPPED_CLASSES:
        return
    frame: pd.DataFrame = assessment.frame
    roles = assessment.roles
    fixed = {roles.y_true, roles.y_pred, roles.model, roles.id, roles.fold, roles.weight}
    numeric = [str(c) for c in frame.columns if c not in fixed and is_numeric(frame[c])]
    if not numeric:
        return
    current = dict(roles.class_scores)
    with st.expander(f"Per-class score columns ({len(current)} of {len(classes)} classes mapped)",
                     expanded=not current and not roles.score):
        if current:
            st.caption(md(f"Recognised: {roles.reason('class_scores')}"))
        st.caption("Which column holds each class's probability? Files written by scikit-learn's predict_proba, "
                   "H2O or Spark MLlib are recognised; choose the columns here when they are not.")
        grid = st.columns(3)
        for i, label in enumerate(classes):
            key = f"class_score_{i}_{revision}"
            chosen = current.get(label)
            with grid[i % 3]:
                st.selectbox(md(f"Class {quote(label)}"), [NONE, *numeric],
                             index=numeric.index(chosen) + 1 if chosen in numeric else 0, key=key,
                             on_change=_set_class_column, args=(label, key, current))
