"""What the Data page says of a read file apart from its widgets: how it was read, the roles to show (detected ones
with the person's choices when the file cannot be described yet), why each column got its role, and the models.
"""

from __future__ import annotations

import pandas as pd

from assess.core.formatting import code_as_quotes
from assess.inputs.assessment import Assessment
from assess.inputs.read import LoadedTable
from assess.inputs.roles import Overrides, Roles, detect_roles

#: The delimiters `read_table` recognises, in words.
DELIMITER_WORDS = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe", " ": "whitespace"}


def table_summary(table: LoadedTable) -> str:
    """One line on what was read: name, rows, columns, format, compression, delimiter, sheet, SHA-256."""
    frame = table.frame
    meta = [f"`{table.name}`", f"{len(frame):,} rows", f"{frame.shape[1]} columns", table.format.upper()]
    if table.compression:
        meta.append(table.compression)
    if table.delimiter:
        meta.append(DELIMITER_WORDS[table.delimiter] + "-delimited")
    if table.sheet:
        meta.append(f"sheet `{table.sheet}`")
    meta.append(f"SHA-256 {table.sha256[:12]}…")
    return " · ".join(meta)


def shown_roles(table: LoadedTable, assessment: Assessment | None, overrides: Overrides) -> Roles:
    """The assessment's roles; without one (no ground truth found) the detected roles with the person's single-column
    choices, so the role pickers are still offered."""
    if assessment is not None:
        return assessment.roles
    roles = detect_roles(table.frame)
    for role, value in overrides.roles:
        if hasattr(roles, role) and isinstance(value, (str, type(None))):
            roles = roles.with_role(role, value, "set by you")
    return roles


def role_reasons(roles: Roles) -> pd.DataFrame:
    """One row per role: its columns and why they got it."""
    return pd.DataFrame([{"role": r["role"], "columns": ", ".join(r["columns"]), "reason": code_as_quotes(r["reason"])}
                         for r in roles.table()])


def models_line(assessment: Assessment) -> str | None:
    """The models, when they are more than the one named after the file."""
    if len(assessment.models) > 1 or assessment.models[0] != assessment.table.stem:
        return "Models: " + ", ".join(f"`{m}`" for m in assessment.models)
    return None
