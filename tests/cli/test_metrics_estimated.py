"""`python -m assess metrics` on a file with unlabelled rows (issue 35 §3): the metrics of the labelled rows
(scikit-learn on those rows), ``n_unlabelled`` and the CBPE estimate per model, checked against the labels hidden
from it."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

from assess.analyses.estimation import ASSUMPTION
from assess.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "assets/samples"


def hide_labels(name: str, tmp_path, every: int = 3) -> tuple[Path, pd.DataFrame, pd.DataFrame]:
    data = pd.read_csv(SAMPLES / name)
    hidden = (data["id"] % every == 0).to_numpy()
    blanked = data.copy()
    blanked.loc[hidden, "y_true"] = None
    path = tmp_path / name
    blanked.to_csv(path, index=False)
    return path, data[~hidden], data[hidden]


def run_json(capsys, *argv):
    assert main(["metrics", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_binary_file_with_hidden_labels(capsys, tmp_path):
    path, labelled, hidden = hide_labels("breast_cancer_binary.csv", tmp_path)
    doc = run_json(capsys, str(path), "--resamples", "100")
    assert doc["n_unlabelled"] == len(hidden)
    for model, rows in labelled.groupby("model"):   # measured: the labelled rows only
        y, yp = rows.y_true == "malignant", rows.y_pred == "malignant"
        assert doc["models"][model]["accuracy"] == pytest.approx(skm.accuracy_score(y, yp), abs=1e-12)
        assert doc["models"][model]["roc_auc"] == pytest.approx(skm.roc_auc_score(y, rows.score), abs=1e-12)
    for model, rows in hidden.groupby("model"):     # estimated: beside what the hidden labels give
        est = doc["estimated"][model]
        assert est["n_unlabelled"] == len(rows) and est["assumption"] == ASSUMPTION
        assert est["calibration"]["method"] in ("none", "platt", "isotonic") and est["calibration"]["reason"]
        y, yp = rows.y_true == "malignant", rows.y_pred == "malignant"
        for key, real in (("accuracy", skm.accuracy_score(y, yp)), ("recall", skm.recall_score(y, yp)),
                          ("roc_auc", skm.roc_auc_score(y, rows.score))):
            assert est[key]["low"] <= est[key]["value"] <= est[key]["high"]
            assert est[key]["low"] <= real <= est[key]["high"], (model, key, est[key], real)


def test_multiclass_file_estimates_from_its_class_probabilities(capsys, tmp_path):
    path, _, hidden = hide_labels("wine_multiclass.csv", tmp_path)
    doc = run_json(capsys, str(path), "--resamples", "100")
    for model, rows in hidden.groupby("model"):
        est = doc["estimated"][model]
        assert set(est) >= {"accuracy", "precision_macro", "recall_macro", "f1_macro", "roc_auc_ovr"}
        assert est["accuracy"]["low"] <= skm.accuracy_score(rows.y_true, rows.y_pred) <= est["accuracy"]["high"]


def test_a_model_without_probabilities_is_null_with_its_reason(capsys, tmp_path):
    path = tmp_path / "labels.csv"
    path.write_text("y_true,y_pred\n1,1\n0,0\n,1\n1,0\n")
    doc = run_json(capsys, str(path))
    assert doc["n_unlabelled"] == 1 and doc["n"] == 3
    assert doc["estimated"] == {"labels": None}
    assert doc["undefined_estimated"]["labels"] == "CBPE needs a binary or multi-class file with probability scores"


def test_a_fully_labelled_file_has_no_estimate(capsys):
    doc = run_json(capsys, str(SAMPLES / "breast_cancer_binary.csv"), "--models", "logistic")
    assert "estimated" not in doc and "n_unlabelled" not in doc
    assert np.isfinite(doc["models"]["logistic"]["accuracy"])


def test_by_time_counts_unlabelled_rows_in_their_periods_and_estimates_them(capsys, tmp_path):
    """`--by-time` on the churn sample with November and December's labels not yet arrived: those months count
    their rows (pandas) with none labelled, have no observed value, and their estimate is the file's own CBPE
    estimate when every unlabelled row falls in one period (one answer per question); labelled months have none."""
    data = pd.read_csv(SAMPLES / "churn_over_time.csv")
    late = data.date >= "2024-12-01"
    blanked = data.assign(y_true=data.y_true.where(~late))
    path = tmp_path / "churn_unlabelled.csv"
    blanked.to_csv(path, index=False)
    doc = run_json(capsys, str(path), "--by-time", "month", "--resamples", "100", "--quiet")
    months = pd.to_datetime(data.date).dt.to_period("M").dt.start_time.dt.strftime("%Y-%m-%d")
    for model, periods in doc["by_time"].items():
        of_model = data.model == model
        assert {k: v["n"] for k, v in periods.items()} == months[of_model].value_counts().sort_index().to_dict()
        december = periods["2024-12-01"]
        assert december["n_labelled"] == 0 and december["n"] == int((late & of_model).sum())
        assert all(v["value"] is None for v in december["observed"].values())
        assert december["estimated"] == {k: doc["estimated"][model][k] for k in ("accuracy", "roc_auc")}
        assert all("estimated" not in p for k, p in periods.items() if k != "2024-12-01")
