"""`python -m assess check`: gates for pipelines (issue 34 §3). Exit 0/1/2, the JUnit XML parsed back, values equal
to `metrics --ci auto`, `better(...)` equal to `compare`'s p-value for the recommended test, scikit-learn and
statsmodels as the oracles of what should hold."""

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score
from statsmodels.stats.proportion import proportion_confint

from assess.cli import main

ROOT = Path(__file__).resolve().parents[2]
BINARY = str(ROOT / "assets/samples/breast_cancer_binary.csv")
REGRESSION = str(ROOT / "assets/samples/diabetes_regression.csv")


def run(capsys, command, *argv):
    code = main([command, *argv, "--quiet"])
    out, err = capsys.readouterr()
    return code, out, err


def check_json(capsys, *argv):
    code, out, err = run(capsys, "check", *argv, "--format", "json")
    return code, (json.loads(out) if out else None), err


def sklearn_auc() -> dict[str, float]:
    frame = pd.read_csv(BINARY)
    return {m: roc_auc_score(g.y_true == "malignant", g.score) for m, g in frame.groupby("model")}


def test_exit_0_when_every_requirement_holds_and_1_when_one_fails(capsys):
    auc = sklearn_auc()
    worst, best = min(auc.values()), max(auc.values())
    assert run(capsys, "check", BINARY, "--require", f"roc_auc>={worst - 0.01}")[0] == 0
    code, out, _ = run(capsys, "check", BINARY, "--require", f"roc_auc>={worst - 0.01}", "--require",
                       f"roc_auc > {best - 0.001}")
    assert code == 1
    assert "FAILED: 4 of 6 checks hold" in out          # the best model alone clears the second bar
    # the chosen models only: the best one holds both
    top = max(auc, key=auc.get)
    assert run(capsys, "check", BINARY, "--require", f"roc_auc > {best - 0.001}", "--models", top)[0] == 0


@pytest.mark.parametrize("requirement, says", [
    ("roc_auc>=>0.85", "cannot read the requirement 'roc_auc>=>0.85'"),
    ("rocauc>=0.85", "requirement 'rocauc>=0.85': unknown binary metric 'rocauc'"),
    ("better(roc_auc, forest)", "no model 'forest'"),
    ("better(tp, baseline)", "tp has no better direction"),
    ("low(recall) >= high", "cannot read the requirement"),
    ("better(f1, tree) --models tree", "no requirement applies to the chosen model(s) tree"),
])
def test_bad_requirements_exit_2_with_one_line_naming_them(capsys, requirement, says):
    requirement, *more = requirement.split(" --models ")
    code, out, err = run(capsys, "check", BINARY, "--require", requirement, *(["--models", *more] if more else []))
    assert code == 2 and out == ""
    assert err.startswith("error: ") and says in err and err.count("\n") == 1


def test_no_requirement_is_bad_input(capsys):
    code, _, err = run(capsys, "check", BINARY)
    assert code == 2 and "no requirement given" in err


def test_values_and_intervals_equal_metrics_ci_auto(capsys):
    # analytic intervals (DeLong, Wilson, t) and a bootstrapped one (F1), on a subset of the models
    code, doc, _ = check_json(capsys, BINARY, "--require", "roc_auc>=0.5", "--require", "low(recall)>=0.5",
                              "--require", "high(brier_score)<=0.5", "--require", "low(f1)>=0.5", "--models", "tree",
                              "logistic")
    assert code == 0 and doc["passed"] is True
    _, out, _ = run(capsys, "metrics", BINARY, "--ci", "auto", "--metrics", "roc_auc", "recall", "brier_score", "f1")
    metrics = json.loads(out)["models"]
    assert len(doc["rows"]) == 8 and "bootstrap" in doc["rows"][-1]["interval_method"]
    for row in doc["rows"]:
        expected = metrics[row["model"]][row["key"]]
        assert (row["value"], row["low"], row["high"]) == (expected["value"], expected["low"], expected["high"])


def test_low_reads_the_wilson_bound_so_a_point_estimate_above_the_bar_can_fail(capsys, tmp_path):
    # hand-worked: 29 of 40 positives found, recall 0.725 >= 0.7; its 95% Wilson interval (statsmodels) starts
    # at 0.572, so the evidence does not clear 0.7
    y_true = [1] * 40 + [0] * 60
    y_pred = [1] * 29 + [0] * 11 + [0] * 55 + [1] * 5
    path = tmp_path / "p.csv"
    pd.DataFrame({"y_true": y_true, "y_pred": y_pred}).to_csv(path, index=False)
    low, _ = proportion_confint(29, 40, alpha=0.05, method="wilson")
    code, doc, _ = check_json(capsys, str(path), "--require", "recall>=0.7", "--require", "low(recall)>=0.7")
    assert code == 1
    point, bound = doc["rows"]
    assert point["passed"] and point["value"] == pytest.approx(29 / 40)
    assert not bound["passed"] and bound["low"] == pytest.approx(low) and "lower bound 0.572" in bound["message"]


def test_an_undefined_value_fails_with_its_reason(capsys, tmp_path):
    path = tmp_path / "p.csv"   # never predicts the positive class: precision is 0/0
    pd.DataFrame({"y_true": [1, 0, 1, 0, 0, 1], "y_pred": [0] * 6}).to_csv(path, index=False)
    code, doc, _ = check_json(capsys, str(path), "--require", "precision>=0.1")
    (row,) = doc["rows"]
    assert code == 1 and row["value"] is None and not row["passed"]
    assert row["message"].startswith("fails: undefined (") and "predict" in row["message"]
    code, out, _ = run(capsys, "check", str(path), "--require", "precision>=0.1")
    assert code == 1 and "precision >= 0.1  p      —      —         fails: undefined (no predicted positives" in out


def test_junit_xml_has_one_case_per_requirement_and_model_and_a_failure_for_each_that_fails(capsys, tmp_path):
    auc = sklearn_auc()
    bar = float(np.median(list(auc.values())))      # the median model just clears it, the worst does not
    out = tmp_path / "gates.xml"
    code, _, _ = run(capsys, "check", BINARY, "--require", f"roc_auc>={bar}", "--require", "accuracy>=0.5",
                     "--junit", str(out))
    assert code == 1
    suite = ET.parse(out).getroot().find("testsuite")
    cases = suite.findall("testcase")
    failing = [c for c in cases if c.find("failure") is not None]
    assert (suite.get("tests"), suite.get("failures")) == ("6", "1") and len(cases) == 6
    assert [(c.get("classname"), c.get("name")) for c in failing] == [(min(auc, key=auc.get), f"roc_auc >= {bar:g}")]
    assert failing[0].find("failure").get("message").startswith("fails: value ")


def compare_p(capsys, path, test, metric, a, b):
    # DeLong's and McNemar's tests take no metric (they compare ROC AUC and correctness); the bootstrap takes one
    given = ["--metric", metric] if test == "paired_bootstrap" else []
    _, out, _ = run(capsys, "compare", path, "--test", test, *given, "--models", a, b)
    return json.loads(out)["pvalue"]


@pytest.mark.parametrize("metric, test", [("roc_auc", "delong"), ("accuracy", "mcnemar"), ("f1", "paired_bootstrap")])
def test_better_than_a_model_is_the_recommended_tests_p_value(capsys, metric, test):
    code, doc, _ = check_json(capsys, BINARY, "--require", f"better({metric}, tree)")
    rows = {r["model"]: r for r in doc["rows"]}
    assert set(rows) == {"logistic", "naive_bayes_3f"}     # not the model against itself
    for model, row in rows.items():
        assert row["test"] == test
        assert row["p_value"] == compare_p(capsys, BINARY, test, metric, model, "tree")
    # logistic beats the tree on each; naive Bayes is worse, so it fails however small its p-value
    assert rows["logistic"]["passed"] and rows["logistic"]["p_value"] < 0.05
    assert not rows["naive_bayes_3f"]["passed"] and "is not higher than tree's" in rows["naive_bayes_3f"]["message"]
    assert code == 1


def test_better_than_the_baseline_equals_compare_against_a_constant_prior_score(capsys, tmp_path):
    # the baseline written out by hand: the majority class, and the positive share as a constant score
    frame = pd.read_csv(BINARY)
    one = frame[frame.model == "tree"].copy()
    majority = one.y_true.mode()[0]
    baseline = one.assign(model="majority_prior", y_pred=majority, score=(one.y_true == "malignant").mean())
    path = tmp_path / "with_baseline.csv"
    pd.concat([one, baseline]).to_csv(path, index=False)
    code, doc, _ = check_json(capsys, BINARY, "--models", "tree", "--require", "better(roc_auc, baseline)",
                              "--require", "better(accuracy, baseline)")
    auc, acc = doc["rows"]
    assert code == 0 and auc["test"] == "delong" and acc["test"] == "mcnemar"
    assert auc["other_value"] == 0.5 and acc["other_value"] == pytest.approx((one.y_true == majority).mean())
    assert auc["p_value"] == pytest.approx(compare_p(capsys, str(path), "delong", "roc_auc", "tree", "majority_prior"),
                                           rel=1e-12)
    assert acc["p_value"] == pytest.approx(compare_p(capsys, str(path), "mcnemar", "accuracy", "tree",
                                                     "majority_prior"), rel=1e-12)


def test_regression_baseline_is_the_mean_predictor(capsys, tmp_path):
    frame = pd.read_csv(REGRESSION)
    model = frame.model.iloc[0]
    one = frame[frame.model == model].copy()
    path = tmp_path / "with_mean.csv"
    pd.concat([one, one.assign(model="mean", y_pred=one.y_true.mean())]).to_csv(path, index=False)
    code, doc, _ = check_json(capsys, REGRESSION, "--models", model, "--require", "better(mae, baseline)")
    (row,) = doc["rows"]
    mean_mae = float(np.mean(np.abs(one.y_true - one.y_true.mean())))
    assert row["test"] == "paired_bootstrap" and row["other_value"] == pytest.approx(mean_mae)
    assert row["p_value"] == compare_p(capsys, str(path), "paired_bootstrap", "mae", model, "mean")
    assert code == (0 if row["value"] < mean_mae and row["p_value"] < 0.05 else 1)


def test_config_supplies_the_requirements(capsys, tmp_path):
    auc = sklearn_auc()
    config = tmp_path / "settings.json"
    config.write_text(json.dumps({"format": "assess-settings", "version": 1,
                                  "requirements": [f"roc_auc>={max(auc.values()) - 0.001}"]}))
    code, doc, _ = check_json(capsys, BINARY, "--config", str(config))
    assert code == 1 and [r["passed"] for r in doc["rows"]] == [m == max(auc, key=auc.get) for m in auc]
    # --require wins over the file's requirements
    assert check_json(capsys, BINARY, "--config", str(config), "--require", "roc_auc>=0.5")[0] == 0
    config.write_text(json.dumps({"format": "assess-settings", "version": 1, "requirements": ["roc_auc=>0.5"]}))
    code, _, err = run(capsys, "check", BINARY, "--config", str(config))
    assert code == 2 and "settings.json: 'requirements': cannot read the requirement 'roc_auc=>0.5'" in err
