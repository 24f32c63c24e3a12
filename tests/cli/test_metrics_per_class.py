"""``python -m assess metrics``'s per-class (multi-class) and per-label (multi-label) table in the JSON and the CSV:
the table of the Metrics page and the report, against scikit-learn's ``classification_report(output_dict=True)`` and
``precision_recall_fscore_support(average=None)``."""

import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

from assess.cli import main

ROOT = Path(__file__).resolve().parents[2]
WINE = str(ROOT / "assets/samples/wine_multiclass.csv")
DIGITS = str(ROOT / "assets/samples/digits_multilabel.csv")
LABELS = ("even", "prime", "at_least_5", "closed_loop", "multiple_of_3")


def run(capsys, *argv):
    capsys.readouterr()
    assert main(["metrics", *argv, "--quiet"]) == 0
    return capsys.readouterr().out


def test_multiclass_per_class_table_in_json_and_csv_equals_classification_report(capsys):
    keys = ("--metrics", "accuracy", "error_rate")    # the table comes whichever keys are asked for
    doc = json.loads(run(capsys, WINE, *keys))
    csv = pd.read_csv(io.StringIO(run(capsys, WINE, *keys, "--format", "csv")))
    per_class_rows = csv[csv["class"].notna()]
    assert csv[csv["class"].isna()]["key"].tolist() == ["accuracy", "error_rate"] * 2  # the metrics stay as they were
    data = pd.read_csv(WINE)
    for model, rows in data.groupby("model"):
        want = skm.classification_report(rows.y_true, rows.y_pred, output_dict=True, zero_division=np.nan)
        scores = rows[[f"proba_{c}" for c in sorted(rows.y_true.unique())]].to_numpy()
        auc = skm.roc_auc_score(rows.y_true, scores, multi_class="ovr", average=None)
        for i, cls in enumerate(sorted(rows.y_true.unique())):
            got = doc["per_class"][model][cls]
            assert got["precision"] == pytest.approx(want[cls]["precision"], abs=1e-12)
            assert got["recall"] == pytest.approx(want[cls]["recall"], abs=1e-12)
            assert got["f1"] == pytest.approx(want[cls]["f1-score"], abs=1e-12)
            assert got["support"] == want[cls]["support"]
            assert got["roc_auc"] == pytest.approx(auc[i], abs=1e-12)
            in_csv = per_class_rows[(per_class_rows.model == model) & (per_class_rows["class"] == cls)]
            assert dict(zip(in_csv.key, in_csv.value)) == pytest.approx(got, abs=1e-15)


def test_multilabel_per_label_table_in_json_and_csv_equals_precision_recall_fscore_support(capsys):
    doc = json.loads(run(capsys, DIGITS, "--metrics", "hamming_loss"))
    csv = pd.read_csv(io.StringIO(run(capsys, DIGITS, "--metrics", "hamming_loss", "--format", "csv")))
    assert "per_class" not in doc
    data = pd.read_csv(DIGITS)
    for model, rows in data.groupby("model"):
        y = rows[[f"true_{n}" for n in LABELS]].to_numpy()
        yp = rows[[f"pred_{n}" for n in LABELS]].to_numpy()
        p, r, f, support = skm.precision_recall_fscore_support(y, yp, average=None, zero_division=np.nan)
        for i, label in enumerate(LABELS):
            got = doc["per_label"][model][label]
            assert (got["precision"], got["recall"], got["f1"]) == pytest.approx((p[i], r[i], f[i]), abs=1e-12)
            assert got["support"] == support[i]
            in_csv = csv[(csv.model == model) & (csv["label"] == label)]
            assert dict(zip(in_csv.key, in_csv.value)) == pytest.approx(got, abs=1e-15)


def test_binary_has_no_per_class_table(capsys, tmp_path):
    path = tmp_path / "b.csv"
    pd.DataFrame({"y_true": [0, 1, 1, 0], "y_pred": [0, 1, 0, 0]}).to_csv(path, index=False)
    doc = json.loads(run(capsys, str(path)))
    assert "per_class" not in doc and "per_label" not in doc
    assert "class" not in pd.read_csv(io.StringIO(run(capsys, str(path), "--format", "csv"))).columns
