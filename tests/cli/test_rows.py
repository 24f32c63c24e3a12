"""`python -m assess rows`: a confusion cell's rows (counts against scikit-learn at the same decision), the worst rows
(numpy), CSV neutralised against formula injection (read back with the csv module), bad input exits 2."""

import csv
import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import confusion_matrix

from assess.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "assets" / "samples"
BINARY, REGRESSION = str(SAMPLES / "breast_cancer_binary.csv"), str(SAMPLES / "diabetes_regression.csv")


def run_json(capsys, *argv):
    assert main(["rows", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_every_binary_cell_at_a_threshold_holds_scikit_learns_count(capsys):
    data = pd.read_csv(BINARY)
    classes = ["benign", "malignant"]
    for i, t in enumerate(classes):
        for j, p in enumerate(classes):
            doc = run_json(capsys, BINARY, "--cell", f"{t},{p}", "--threshold", "0.37")
            assert doc["task"] == "binary" and list(doc["models"]) == ["logistic", "tree", "naive_bayes_3f"]
            for model, found in doc["models"].items():
                part = data[data.model == model]
                predicted = np.where(part.score >= 0.37, "malignant", "benign")
                assert found["total"] == confusion_matrix(part.y_true, predicted, labels=classes)[i, j]
                assert [r["id"] for r in found["rows"]] == part.id[(part.y_true == t) & (predicted == p)].tolist()


def test_worst_rows_binary_and_regression(capsys):
    data = pd.read_csv(BINARY).query("model == 'tree'").reset_index(drop=True)
    # labels from y_pred (the default decision); confidence: score − 0.5 for benign, 0.5 − score otherwise
    wrong = data[data.y_pred != data.y_true]
    confidence = np.where(wrong.y_true == "malignant", 0.5 - wrong.score, wrong.score - 0.5)
    expected = wrong.id.to_numpy()[np.argsort(-confidence, kind="stable")][:5].tolist()
    doc = run_json(capsys, BINARY, "--worst", "5", "--model", "tree")
    assert [r["id"] for r in doc["models"]["tree"]["rows"]] == expected
    assert doc["models"]["tree"]["total"] == len(wrong)
    data = pd.read_csv(REGRESSION).query("model == 'ridge'").reset_index(drop=True)
    error = (data.y_pred - data.y_true).to_numpy()
    doc = run_json(capsys, REGRESSION, "--worst", "3", "--model", "ridge")
    assert [r["id"] for r in doc["models"]["ridge"]["rows"]] == \
        data.id.to_numpy()[np.argsort(-np.abs(error), kind="stable")][:3].tolist()


def test_csv_is_formula_safe_and_a_class_may_hold_a_comma(tmp_path, capsys):
    path = tmp_path / "h.csv"
    pd.DataFrame({"y_true": ["a,b", "c", "a,b", "c"], "y_pred": ["c", "c", "c", "a,b"],
                  "note": ['=HYPERLINK("http://x.example","click")', "@SUM(A1)", "-1", "plain"]}).to_csv(path,
                                                                                                      index=False)
    assert main(["rows", str(path), "--cell", "a,b,c", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["note"] for r in rows] == ["'=HYPERLINK(\"http://x.example\",\"click\")", "-1"]
    assert {r["truth"] for r in rows} == {"a,b"} and {r["prediction"] for r in rows} == {"c"}


@pytest.mark.parametrize("argv, message", [
    ([REGRESSION, "--cell", "1,2"], "--cell applies to binary and multi-class files"),
    ([BINARY, "--cell", "benign;malignant"], "--cell takes TRUE,PRED"),
    ([BINARY, "--worst", "3", "--model", "nope"], "no model"),
])
def test_bad_input_exits_2_with_one_line(argv, message, capsys):
    assert main(["rows", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_worst_slice_rows_are_the_group_with_the_lowest_accuracy(capsys):
    data = pd.read_csv(BINARY).query("model == 'tree'")
    accuracy = (data.y_true == data.y_pred).groupby(data.group).mean()     # pandas, by hand
    worst = accuracy.idxmin()
    doc = run_json(capsys, BINARY, "--worst-slice", "group", "--model", "tree")
    found = doc["models"]["tree"]
    assert doc["selection"] == {"worst_slice": ["group"], "metric": "accuracy"}
    assert [r["id"] for r in found["rows"]] == data.id[data.group == worst].tolist() and found["total"] > 0
    # by MAE on a regression file: the fold whose mean absolute error is largest
    data = pd.read_csv(REGRESSION).query("model == 'ridge'")
    mae = (data.y_pred - data.y_true).abs().groupby(data.fold).mean()
    doc = run_json(capsys, REGRESSION, "--worst-slice", "fold", "--model", "ridge", "--metric", "mae")
    assert {r["fold"] for r in doc["models"]["ridge"]["rows"]} == {mae.idxmax()}
