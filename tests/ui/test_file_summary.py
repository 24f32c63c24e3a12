"""The sidebar's line on the active file (`ui.data_source.file_summary`, drawn by app.py, which AppTest does not rerun
after an upload). Oracle: pandas' count of the uploaded file's rows and of its empty y_true cells."""

from __future__ import annotations

import pandas as pd

from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from tests.conftest import ROOT
from ui.data_source import file_summary

SAMPLES = ROOT / "assets" / "samples"


def test_a_file_with_unlabelled_rows_counts_every_row_and_says_how_many_wait_for_labels(tmp_path):
    data = pd.read_csv(SAMPLES / "breast_cancer_binary.csv")
    data.loc[data["id"] % 7 == 0, "y_true"] = None
    path = tmp_path / "waiting.csv"
    data.to_csv(path, index=False)
    rows, waiting = len(data), int(data["y_true"].isna().sum())
    assert (rows, waiting) == (1707, 243)
    # was "1,464 rows · …": the labelled rows only, as if 243 rows of the file were not there
    assert file_summary(describe(read_table(path))) == "1,707 rows (243 unlabelled) · binary classification · 3 models"


def test_a_fully_labelled_file_says_only_its_rows():
    assert file_summary(describe(read_table(SAMPLES / "diabetes_regression.csv"))) == \
        f"{len(pd.read_csv(SAMPLES / 'diabetes_regression.csv')):,} rows · regression · 3 models"
