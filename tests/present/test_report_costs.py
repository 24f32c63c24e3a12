"""The report's costs section (assess.present.report.costs): the expected misclassification cost at the decision and at the
cost-optimal threshold, and the measured running costs.

Oracles: scikit-learn's confusion_matrix times the cost matrix, by hand on a six-sample example and by brute force
over every threshold (every distinct score, and "flag nothing") on the breast-cancer sample; the running costs are
assess.analyses.cost's own numbers (the Cost page's and the metrics CLI's), computed directly with the same resamples and seed.
"""

import json
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import confusion_matrix as sk_confusion_matrix

from assess.analyses import cost
from assess.cli import main
from assess.core.decision import Decision
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.present.report import ReportOptions, build_report, render_html
from assess.present.report.render import report_document
from assess.present.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "assets/samples"


def assessment_of(frame: pd.DataFrame, tmp_path, name="costs.csv"):
    path = tmp_path / name
    frame.to_csv(path, index=False)
    return describe(read_table(path))


def test_six_samples_by_hand(tmp_path):
    # y: 1 1 1 0 0 0 ; scores of "a": 0.9 0.6 0.3 0.7 0.2 0.1. Costs: a false alarm 1, a miss 5.
    frame = pd.DataFrame({"model": ["a"] * 6, "y_true": [1, 1, 1, 0, 0, 0],
                          "score": [0.9, 0.6, 0.3, 0.7, 0.2, 0.1]})
    a = assessment_of(frame, tmp_path)
    report = build_report(a, ReportOptions(costs=((0, 1), (5, 0)), decision=Decision("scores", 0.5), charts=False,
                                           n_resamples=100))
    row = report.misclassification.models[0]
    # at 0.5: TP 2 (0.9, 0.6), FN 1 (0.3), FP 1 (0.7), TN 2 -> cost 5·1 + 1·1 = 6 over 6 samples
    assert row.expected == pytest.approx(1.0)
    assert (row.samples, row.errors) == (6, 2)
    # thresholds: ≥0.9: FN 2 -> 10; ≥0.7: FN 2, FP 1 -> 11; ≥0.6: FN 1, FP 1 -> 6; ≥0.3: FP 1 -> 1;
    # ≥0.2: FP 2 -> 2; ≥0.1: FP 3 -> 3; nothing: FN 3 -> 15. Least: score ≥ 0.3 at 1/6 per sample.
    assert row.optimal_threshold == 0.3
    assert row.optimal_expected == pytest.approx(1 / 6)
    assert row.optimal_rule == "score ≥ 0.3"
    text = render_html(report)
    assert 'href="#costs"' in text and "Misclassification costs" in text and "0.1667" in text


def test_a_benefit_is_a_negative_cost_and_the_saving_is_said_per_sample(tmp_path):
    """The report took only costs ≥ 0 while the Confusion page took any number; now both take a benefit as a
    negative cost (assess.analyses.decision_costs). Same six samples as above; a malignant found is worth 4."""
    frame = pd.DataFrame({"model": ["a"] * 6, "y_true": [1, 1, 1, 0, 0, 0],
                          "score": [0.9, 0.6, 0.3, 0.7, 0.2, 0.1]})
    report = build_report(assessment_of(frame, tmp_path), ReportOptions(
        costs=((0, 1), (5, -4)), decision=Decision("scores", 0.5), charts=False, n_resamples=100))
    row = report.misclassification.models[0]
    # at 0.5: FP 1·1 + FN 1·5 + TP 2·(−4) = −2 over 6; best ≥ 0.3: FP 1·1 + TP 3·(−4) = −11 over 6
    assert row.expected == pytest.approx(-2 / 6)
    assert (row.optimal_threshold, row.optimal_expected) == (0.3, pytest.approx(-11 / 6))
    # a share of a net benefit means nothing: the sentence gives the saving per sample (−1/3 − (−11/6) = 1.5)
    assert "(1.500 less per sample)" in report.misclassification.sentence


def test_flag_nothing_is_the_optimum_when_alarms_are_dear(tmp_path):
    frame = pd.DataFrame({"model": ["a"] * 4, "y_true": [1, 0, 0, 0], "score": [0.4, 0.5, 0.6, 0.7]})
    a = assessment_of(frame, tmp_path)
    report = build_report(a, ReportOptions(costs=((0, 10), (1, 0)), charts=False, n_resamples=100))
    row = report.misclassification.models[0]
    assert row.optimal_rule.startswith("flag nothing")
    assert row.optimal_expected == pytest.approx(1 / 4)        # one miss at cost 1 over four samples


@pytest.mark.parametrize("matrix", [((0, 1), (5, 0)), ((0.5, 2), (7, 1))])
def test_breast_cancer_costs_equal_brute_force_over_thresholds(matrix):
    a = describe(read_table(SAMPLES / "breast_cancer_binary.csv"))
    decision = Decision("scores", 0.37)
    report = build_report(a, ReportOptions(costs=matrix, decision=decision, charts=False, n_resamples=100))
    c = np.asarray(matrix, dtype=float)
    for row in report.misclassification.models:
        pred = a.predictions(row.model)
        y, s = np.asarray(pred.y_true), np.asarray(pred.scores)

        def mean_cost(flagged):
            cm = sk_confusion_matrix(y, flagged.astype(int), labels=[0, 1])
            return float((cm * c).sum() / cm.sum())
        assert row.expected == pytest.approx(mean_cost(s >= 0.37), abs=1e-12)
        candidates = [mean_cost(s >= t) for t in np.unique(s)] + [mean_cost(np.zeros_like(y, dtype=bool))]
        assert row.optimal_expected == pytest.approx(min(candidates), abs=1e-12)
        assert row.optimal_expected <= row.expected + 1e-12


def test_multiclass_expected_cost_equals_scikit_learn():
    a = describe(read_table(SAMPLES / "wine_multiclass.csv"))
    classes = a.predictions().classes
    c = np.array([[0, 1, 2], [3, 0, 1], [4, 5, 0]], dtype=float)
    report = build_report(a, ReportOptions(costs=tuple(map(tuple, c)), charts=False, n_resamples=100))
    assert report.misclassification.classes == tuple(classes)
    for row in report.misclassification.models:
        pred = a.predictions(row.model)
        cm = sk_confusion_matrix(pred.y_true, pred.y_pred, labels=list(range(len(classes))))
        assert row.expected == pytest.approx((cm * c).sum() / cm.sum(), abs=1e-12)
        assert row.optimal_rule is None                       # a threshold applies to binary scores only


def test_running_costs_are_assess_cost_numbers():
    a = describe(read_table(SAMPLES / "breast_cancer_latency.csv"))
    report = build_report(a, ReportOptions(charts=False, n_resamples=300, seed=4))
    assert report.misclassification is None                   # no cost matrix stated: no misclassification costs
    direct = cost.cost_from_assessment(a, confidence_level=0.95, n_resamples=300, seed=4)
    doc = report_document(report)["costs"]
    assert "misclassification" not in doc
    assert doc["running"]["models"] == {m: c.to_dict() for m, c in direct.items()}
    pd.testing.assert_frame_equal(report.running.table, cost.cost_frame(direct))
    # the binary file has scores: its headline metric is ROC AUC (registry.headline)
    line = cost.headline(a, direct, metric="roc_auc", decision=Decision(), n_resamples=300, seed=4)
    assert report.running.sentence == line.sentence
    assert line.sentence in render_html(report)


def test_no_costs_no_section_and_a_wrong_matrix_is_a_note():
    a = describe(read_table(SAMPLES / "breast_cancer_binary.csv"))
    plain = build_report(a, ReportOptions(charts=False, n_resamples=100))
    assert plain.misclassification is None and plain.running is None
    assert 'id="costs"' not in render_html(plain)
    wrong = build_report(a, ReportOptions(charts=False, n_resamples=100, costs=((0, 1, 1), (1, 0, 1), (1, 1, 0))))
    assert wrong.misclassification is None
    assert any("3 × 3" in n and "2 classes" in n for n in wrong.notes)
    assert wrong.headline == plain.headline                   # the rest of the report stands


def test_cli_report_with_costs_from_the_settings_file(tmp_path):
    config = tmp_path / "settings.json"
    config.write_text(Settings(costs=((0.0, 1.0), (5.0, 0.0)), n_resamples=100).to_json(), encoding="utf-8")
    out = tmp_path / "report.zip"
    assert main(["report", str(SAMPLES / "breast_cancer_binary.csv"), "--config", str(config), "--out",
                 str(out)]) == 0
    with zipfile.ZipFile(out) as z:
        doc = json.loads(z.read("report.json"))
        table = pd.read_csv(z.open("costs.csv"))
    assert doc["costs"]["misclassification"]["matrix"] == [[0.0, 1.0], [5.0, 0.0]]
    a = describe(read_table(SAMPLES / "breast_cancer_binary.csv"))
    for model, row in doc["costs"]["misclassification"]["models"].items():
        pred = a.predictions(model)
        cm = sk_confusion_matrix(pred.y_true, pred.y_pred, labels=[0, 1])
        assert row["expected_cost"] == pytest.approx((cm * [[0, 1], [5, 0]]).sum() / cm.sum(), abs=1e-12)
    assert sorted(table["model"]) == sorted(doc["models"])
