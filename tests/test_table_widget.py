"""The one table widget (`views.widgets.data_table`): what reaches ``st.dataframe``.

Oracles: Python's own format strings ("{:.3f}".format) for the cells, the registry's display names
(`assess.metrics.metrics_for`) for the headers, and the grid's rule that a missing cell shows "None" (so none may reach
it as None/NaN)."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
import streamlit as st

from assess.data import Task
from assess.metrics import metrics_for
from views import widgets


@pytest.fixture
def shown(monkeypatch):
    calls = []
    monkeypatch.setattr(st, "dataframe", lambda data, **kwargs: calls.append((data, kwargs)))
    return calls


def _cells(data):
    return data.data if hasattr(data, "data") else data   # a Styler's frame, else the frame


def test_missing_cells_read_dash_in_the_columns_format_and_complete_columns_stay_numbers(shown):
    frame = pd.DataFrame({"model": ["a", "b"], "precision": [0.12345, math.nan], "recall": [0.5, 0.25]})
    widgets.data_table(frame, formats={"precision": "{:.3f}", "recall": "{:.3f}"})
    (data, kwargs), = shown
    cells = _cells(data)
    assert list(cells["precision"]) == ["{:.3f}".format(0.12345), "—"]
    assert pd.api.types.is_numeric_dtype(cells["recall"])                     # sorting and exports keep numbers
    assert data.to_html().count("0.500") == 1 and data.to_html().count("0.250") == 1   # the Styler's format
    assert kwargs["hide_index"] is True and kwargs["width"] == "stretch"


def test_headers_are_display_names_and_text_columns_fit_their_text(shown):
    names = {m.key: m.name for m in metrics_for(Task.BINARY)}
    frame = pd.DataFrame({"model": ["logistic", "a much longer model name"], "f1": [0.5, 0.6]})
    widgets.data_table(frame, headers=names)
    (_, kwargs), = shown
    config = kwargs["column_config"]
    assert config["f1"]["label"] == names["f1"] == "F1 score"
    assert config["model"]["label"] == "Model"
    assert config["model"]["width"] == widgets.text_column_width(frame["model"], header="Model")


def test_config_replaces_a_column_and_can_hide_one(shown):
    frame = pd.DataFrame({"key": ["f1"], "metric": ["F1 score"]})
    widgets.data_table(frame, config={"key": None})
    (_, kwargs), = shown
    assert kwargs["column_config"]["key"] is None


def test_no_page_calls_st_dataframe_itself():
    """Every table of every page goes through the widget (one place for dashes, headers and widths)."""
    views = Path(__file__).resolve().parents[1] / "views"
    callers = [p.name for p in views.glob("*.py") if p.name != "widgets.py" and "st.dataframe(" in p.read_text()]
    assert callers == []


def test_model_columns_of_a_comparison_keep_the_files_names(shown):
    """Found on a user walk: the "All models" table headed models `gbm` and `logreg` as "Gbm" and "Logreg"."""
    frame = pd.DataFrame({"metric": ["Accuracy"], "better": ["higher ↑"], "key": ["accuracy"], "gbm": ["0.77"],
                          "logreg_v2": ["0.62"], "1": ["0.5"]})
    widgets.data_table(frame, config=widgets.comparison_config(frame))
    (_, kwargs), = shown
    config = kwargs["column_config"]
    assert [config[m]["label"] for m in ("gbm", "logreg_v2", "1")] == ["gbm", "logreg_v2", "1"]
    assert config["metric"]["label"] == "Metric" and config["key"] is None
