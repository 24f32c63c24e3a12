"""`assess.inputs.data_view` and `assess.inputs.roles.role_pickers`: what the Data page says of a file, by hand."""

import gzip

import pandas as pd
import pytest

from assess.core.data import Task
from assess.inputs.assessment import describe
from assess.inputs.data_view import models_line, role_reasons, shown_roles, table_summary
from assess.inputs.read import read_table
from assess.inputs.roles import Overrides, Roles, role_pickers


def test_table_summary_of_a_gzipped_semicolon_file(tmp_path):
    path = tmp_path / "preds.csv.gz"
    path.write_bytes(gzip.compress(b"y_true;y_pred;model\n1;0;a\n0;0;a\n1;1;a\n"))
    table = read_table(path)
    summary = table_summary(table)
    assert summary.startswith("`preds.csv.gz` · 3 rows · 3 columns · CSV · gzip · semicolon-delimited · SHA-256 ")
    assert summary.endswith(f"{table.sha256[:12]}…")


def test_without_an_assessment_the_detected_roles_carry_the_persons_choices(tmp_path):
    path = tmp_path / "no_truth.csv"
    pd.DataFrame({"pred": [1, 0, 1], "weird": [3, 4, 5]}).to_csv(path, index=False)
    table = read_table(path)
    roles = shown_roles(table, None, Overrides().with_role("y_true", "weird"))
    assert (roles.y_true, roles.y_pred, roles.reason("y_true")) == ("weird", "pred", "set by you")
    assert "weird" in role_reasons(roles).set_index("role").loc["y_true", "columns"]


def test_models_line_only_when_the_models_are_not_the_file(tmp_path):
    path = tmp_path / "single.csv"
    pd.DataFrame({"y_true": [1, 0, 1, 0], "y_pred": [1, 0, 0, 0]}).to_csv(path, index=False)
    assert models_line(describe(read_table(path))) is None
    path = tmp_path / "two.csv"
    pd.DataFrame({"model": ["a", "a", "b", "b"], "y_true": [1, 0, 1, 0], "y_pred": [1, 0, 0, 0]}).to_csv(path,
                                                                                                         index=False)
    assert models_line(describe(read_table(path))) == "Models: `a`, `b`"


@pytest.mark.parametrize("task", [*Task, None])
def test_every_role_picker_is_a_single_column_role(task):
    pickers = role_pickers(task)
    assert pickers and len({r for r, _ in pickers}) == len(pickers)
    for role, label in pickers:
        assert getattr(Roles(), role, "missing") is None and label   # a single-column field of Roles
    assert ("timestamp" in dict(pickers)) == (task is Task.FORECAST)
    assert ("score" in dict(pickers)) == (task not in (Task.REGRESSION, Task.FORECAST, Task.CLUSTERING))
