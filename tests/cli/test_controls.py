"""`python -m assess controls`: the checklist and the parts as JSON, on the samples (numbers against scikit-learn and
the files themselves); bad input exits 2 with one line."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

from assess.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "assets" / "samples"
ANNOTATORS, TRAIN_IDS = str(SAMPLES / "breast_cancer_annotators.csv"), str(SAMPLES / "breast_cancer_train_ids.csv")
BINARY = str(SAMPLES / "breast_cancer_binary.csv")


def run_json(capsys, *argv):
    assert main(["controls", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_clean_holdout_with_annotators(capsys):
    doc = run_json(capsys, ANNOTATORS, "--train-ids", TRAIN_IDS)
    assert [c["key"] for c in doc["checklist"]] == ["test_train_disjoint", "leakage_duplicates", "same_test_data",
                                                    "ground_truth", "distribution_shift"]
    assert doc["overlap"]["shared_ids"] == 0 and doc["overlap"]["duplicate_feature_rows"] == 0
    data = pd.read_csv(ANNOTATORS)
    items = data[data.model == "logistic"]
    pair = doc["ground_truth"]["pairs"][0]
    assert pair["cohen_kappa"] == pytest.approx(cohen_kappa_score(items.y_true_reader_a, items.y_true_reader_b))


def test_the_full_data_as_training_ids_is_a_problem(capsys):
    """The binary sample holds all 569 tumours, so every test id of the holdout sample is among its ids."""
    doc = run_json(capsys, ANNOTATORS, "--train-ids", BINARY)
    status = {c["key"]: c["status"] for c in doc["checklist"]}
    assert status["test_train_disjoint"] == "problem" and doc["overlap"]["shared_ids"] == 171


def test_shift_by_a_column(capsys):
    doc = run_json(capsys, BINARY, "--shift-by", "group")
    assert doc["shift"]["by"] == "group" and [g["group"] for g in doc["shift"]["groups"]] == ["large", "medium",
                                                                                               "small"]


@pytest.mark.parametrize("argv, message", [
    (["--shift-by", "nope"], "has no column `nope`"),
    (["--train-ids", "/nonexistent/ids.csv"], "ids.csv: cannot be opened"),
])
def test_bad_input_exits_2(capsys, argv, message):
    assert main(["controls", BINARY, *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_annotators_only_file_with_one_annotator_as_the_ground_truth(capsys, tmp_path):
    path = tmp_path / "readers.csv"
    pd.DataFrame({"y_pred": list("aabbab"), "y_true_ann": list("aabbaa"), "y_true_bea": list("abbbaa"),
                  "y_true_cy": list("aabbba")}).to_csv(path, index=False)
    doc = run_json(capsys, str(path), "--y-true", "y_true_ann")
    assert doc["ground_truth"]["annotators"] == ["ann", "bea", "cy"]
    majority = ["a", "a", "b", "b", "a", "a"]
    row = next(r for r in doc["ground_truth"]["models"] if r["reference"] == "majority")
    assert row["accuracy"] == pytest.approx(np.mean(np.array(majority) == np.array(list("aabbab"))))
