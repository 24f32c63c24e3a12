"""The rows table's cells as they reach ``st.dataframe`` (`ui.rows_widgets.rows_table`, outside a Streamlit run: every
widget at its default). Oracle: hand-worked cells of the diabetes sample's largest error — ridge on id 103, truth 302,
prediction 139.555, error 139.555 − 302 = −162.445 — read at 4 significant digits without padding zeros, the churn
sample's scores as written in the file, and class labels 0/1 left as the file has them."""

from __future__ import annotations

import pandas as pd
import pytest
import streamlit as st

from assess.analyses.rows import confidently_wrong, largest_errors
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from tests.conftest import ROOT
from ui import rows_widgets

SAMPLES = ROOT / "assets" / "samples"


@pytest.fixture
def shown(monkeypatch):
    calls = []
    monkeypatch.setattr(st, "dataframe", lambda data, **kwargs: calls.append(data))
    return calls


def test_regression_truth_and_prediction_read_like_their_error(shown):
    rows = largest_errors(describe(read_table(SAMPLES / "diabetes_regression.csv")), "ridge")
    rows_widgets.rows_table(rows, key="t")
    (styled,) = shown
    first = styled.data.iloc[0]
    assert (first["id"], first["truth"], first["prediction"]) == (103, 302.0, 139.555)   # numbers stay numbers
    html = styled.to_html()
    # the grid wrote float columns with six decimals: "302.000000" beside an error of -162.4
    assert "302.0" not in html and "139.555000" not in html
    assert all(f">{cell}<" in html for cell in ("302", "139.6", "-162.4", "162.4"))


def test_scores_read_as_written_without_padding_zeros(shown):
    """The churn sample's most confidently wrong rows: scores of 0.0004 and 0.0029 read "0.0004000" and "0.002900"
    beside 0.4996 (4 significant figures padded with zeros); written as in the file, at most 4 figures."""
    data = pd.read_csv(SAMPLES / "churn_over_time.csv")
    rows_widgets.rows_table(confidently_wrong(describe(read_table(SAMPLES / "churn_over_time.csv")),
                                              "gradient_boosting"), key="t")
    (styled,) = shown
    html = styled.to_html()
    first = data[data["id"] == styled.data.iloc[0]["id"]].query("model == 'gradient_boosting'")["score"].item()
    assert first == 0.0004 and ">0.0004<" in html and "0.0004000" not in html
    assert ">0.4996<" in html    # 0.5 − 0.0004: the distance past the threshold, its four figures


def test_class_labels_0_and_1_are_not_formatted_as_numbers(shown, tmp_path):
    data = pd.DataFrame({"id": range(6), "y_true": [0, 1, 0, 1, 1, 0], "y_pred": [1, 0, 0, 1, 1, 0],
                         "score": [0.9, 0.2, 0.1, 0.8, 0.7, 0.3]})
    path = tmp_path / "classes.csv"
    data.to_csv(path, index=False)
    rows_widgets.rows_table(confidently_wrong(describe(read_table(path)), describe(read_table(path)).models[0]),
                            key="t")
    (styled,) = shown
    html = styled.to_html() if hasattr(styled, "to_html") else styled.to_string()
    assert "1.000" not in html and "0.000" not in html
