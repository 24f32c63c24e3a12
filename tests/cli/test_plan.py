"""`python -m assess plan`: the issue's flags, JSON ``{"n", "method", "inputs"}`` (and ``"detectable_difference"``
from a file), and exit status 2 with one line for a question it cannot answer. The numbers' oracles are in
tests/stats/test_planning.py; here the command line is checked against statsmodels and the hand formula once each."""

import json
import math
from pathlib import Path

import pytest
from statsmodels.stats.power import NormalIndPower
from statsmodels.stats.proportion import proportion_confint, proportion_effectsize

from assess.cli import main

ROOT = Path(__file__).resolve().parents[2]
BINARY = str(ROOT / "assets/samples/breast_cancer_binary.csv")


def run(capsys, *argv):
    code = main(["plan", *argv])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.startswith("{") else out), err


def test_precision_of_accuracy(capsys):
    code, doc, _ = run(capsys, "--metric", "accuracy", "--expected", "0.9", "--half-width", "0.02", "--method",
                       "clopper-pearson")
    assert code == 0 and set(doc) == {"n", "method", "inputs"} and isinstance(doc["n"], int)
    assert doc["inputs"] == {"metric": "accuracy", "expected": 0.9, "half_width": 0.02, "confidence_level": 0.95}
    half = [(h - lo) / 2 for lo, h in (proportion_confint(0.9 * k, k, method="beta") for k in (doc["n"], doc["n"] - 1))]
    assert half[0] <= 0.02 < half[1]


def test_precision_of_roc_auc_needs_the_prevalence(capsys):
    code, _, err = run(capsys, "--metric", "roc_auc", "--expected", "0.85", "--half-width", "0.05")
    assert code == 2 and "--prevalence" in err
    code, doc, _ = run(capsys, "--metric", "roc_auc", "--expected", "0.85", "--half-width", "0.05", "--prevalence",
                       "0.3")
    assert code == 0 and doc["method"] == "hanley-mcneil" and doc["inputs"]["prevalence"] == 0.3


def test_mcnemar_as_the_issue_words_it(capsys):
    code, doc, _ = run(capsys, "--test", "mcnemar", "--p10", "0.1", "--p01", "0.05", "--power", "0.8", "--alpha",
                       "0.05")
    # Connor (1987): (1.959964·√0.15 + 0.841621·√0.1475)² / 0.05² = 468.57 → 469
    assert code == 0 and doc == {"n": 469, "method": "connor",
                                 "inputs": {"test": "mcnemar", "p10": 0.1, "p01": 0.05, "power": 0.8, "alpha": 0.05}}


def test_two_proportions_and_correlated_aucs(capsys):
    code, doc, _ = run(capsys, "--test", "two-proportions", "--p1", "0.9", "--p2", "0.85")
    per_group = math.ceil(NormalIndPower().solve_power(proportion_effectsize(0.9, 0.85), alpha=0.05, power=0.8))
    assert code == 0 and doc["n_per_group"] == per_group and doc["n"] == 2 * per_group
    code, doc, _ = run(capsys, "--test", "delong", "--auc1", "0.85", "--auc2", "0.8", "--correlation", "0.5",
                       "--prevalence", "0.3")
    assert code == 0 and doc["method"] == "obuchowski" and doc["n"] > doc["n_positive"]


def test_plan_file_says_what_the_test_set_detects(capsys):
    code, doc, _ = run(capsys, BINARY, "--models", "logistic", "tree", "--quiet")
    assert code == 0
    assert {"n", "method", "inputs", "detectable_difference", "observed_difference", "n_file", "more",
            "sentence"} <= set(doc)
    assert doc["n_file"] == 569 and doc["inputs"]["models"] == ["logistic", "tree"]
    assert doc["sentence"].startswith("With 569 cases you can detect a difference of about ")
    code, text, _ = run(capsys, BINARY, "--metric", "roc_auc", "--format", "text", "--quiet")
    assert code == 0 and "in ROC AUC for malignant between these models" in text


@pytest.mark.parametrize("argv, words", [
    ((), "plan needs a question"),
    (("--test", "mcnemar", "--p10", "0.1"), "--p01"),
    (("--test", "mcnemar", "--p10", "0.7", "--p01", "0.5"), "at most 1"),
    (("--metric", "f1", "--expected", "0.9", "--half-width", "0.02"), "not a proportion"),
    ((BINARY, "--metric", "mae", "--quiet"), "accuracy or roc_auc"),
    ((BINARY, "--models", "logistic", "nobody", "--quiet"), "no model 'nobody'"),
])
def test_questions_it_cannot_answer_exit_2_with_one_line(capsys, argv, words):
    code, _, err = run(capsys, *argv)
    assert code == 2 and words in err and err.count("\n") == 1
