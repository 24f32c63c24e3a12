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


#: The grid's own automatic widths (px) of one-cell columns, read from the data grid's column props in Chromium
#: (``st.dataframe(..., width="content")`` without widths, Streamlit 1.67, Source Sans): the text's ``measureText``
#: width plus 8 px padding on each side, rounded up. Oracle for the widget's estimate, which must show the same text
#: whole (never narrower) without taking room the grid would not (at most 3 px wider). The 40 px a header was given
#: and the 6.2 px per character made Compare's result table 4 px wider than its frame at 1024 px.
GRID_AUTO_WIDTHS = [((["33"], "Statistic"), 63), ((["1.084e-06"], "p-value"), 73),
                    (([], "Accuracy difference (A - B)"), 167), ((["[0.02976, 0.07182]"], "95% interval"), 122),
                    ((["abcdefghijklmnopqrstuvwxyz"], "a"), 188), ((["0123456789"], "b"), 86)]


@pytest.mark.parametrize("cells_and_header, grid_px", GRID_AUTO_WIDTHS)
def test_column_width_estimate_matches_the_grids_own_width(cells_and_header, grid_px):
    cells, title = cells_and_header
    assert grid_px <= widgets.text_column_width(cells, header=title) <= grid_px + 3


def test_the_compare_result_table_is_sized_within_the_frame_at_1024(shown):
    """The Compare page's result table (binary sample, McNemar): every column sized to its text, no flag to leave the
    widths to the grid, and together no wider than the frame at 1024 px (562 px, measured)."""
    frame = pd.DataFrame({"statistic": [33.0], "pvalue": [1.084e-06], "effect_value": [0.05097],
                          "effect_interval": ["[0.02976, 0.07182]"], "n": [569]})
    widgets.data_table(frame, formats={c: "{:.4g}".format for c in ("statistic", "pvalue", "effect_value")},
                       headers={"statistic": "Statistic", "pvalue": "p-value",
                                "effect_value": "Accuracy difference (A - B)", "effect_interval": "95% interval"})
    (_, kwargs), = shown
    widths = [kwargs["column_config"][c]["width"] for c in frame.columns]
    assert sum(widths) <= 562 and sum(widths) <= widgets.TABLE_FIT_PX


def test_named_widths_set_by_config_count_as_the_grids_pixels(shown):
    """A column set to "large" by ``config`` takes 400 px (Streamlit's named widths): the others fit the rest."""
    frame = pd.DataFrame({"remark": ["x" * 200], "name": ["a"]})
    widgets.data_table(frame, shrink=("remark",), config={"name": st.column_config.TextColumn("Name", width="large")})
    (_, kwargs), = shown
    assert kwargs["column_config"]["remark"]["width"] <= widgets.TABLE_FIT_PX - 400
