"""The ``ece`` metric key (expected calibration error, binary): 10 equal-width bins weighted by their rows, |mean
score − fraction positive| (Naeini et al. 2015; Guo et al. 2017), the calibration chart's binning. Oracles: a
hand-worked example, and an independent numpy formula on scikit-learn's ``calibration_curve(strategy="uniform")``
bin statistics. Its bootstrap interval, the command line, the report and the Metrics page's choice."""

import json
import warnings
import zipfile

import numpy as np
import pandas as pd
import pytest
from sklearn.calibration import calibration_curve as sk_calibration_curve

from assess import curves
from assess.cli import main
from assess.core.data import Predictions, Task
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.metrics import calibration_error, get, resampling
from assess.metrics.binary import binary_state
from assess.metrics.evaluate import evaluate
from assess.present import metrics_view as mv

EDGES = np.linspace(0, 1, 11)

# Hand-worked: bins of width 0.1, closed on the right, no score on an edge.
#   bin [0, 0.1]:    0.05 (y 0)                  n 1, mean score 0.05,  positives 0    → gap 0.05
#   bin (0.1, 0.2]:  0.15 (0), 0.12 (1)          n 2, mean 0.135,       positives 1/2  → gap 0.365
#   bin (0.6, 0.7]:  0.65 (1), 0.62 (0), 0.68 (1) n 3, mean 0.65,        positives 2/3  → gap 1/60
#   bin (0.9, 1]:    0.95 (1), 0.92 (1)          n 2, mean 0.935,       positives 1    → gap 0.065
#   ECE = (1·0.05 + 2·0.365 + 3/60 + 2·0.065) / 8 = 0.96 / 8 = 0.12
HAND_Y = np.array([0, 0, 1, 1, 0, 1, 1, 1], dtype=np.int8)
HAND_S = np.array([0.05, 0.15, 0.12, 0.65, 0.62, 0.68, 0.95, 0.92])


def binary(y, s, weight=None):
    return Predictions(task=Task.BINARY, classes=("no", "yes"), y_true=np.asarray(y, np.int8), scores=s,
                       weight=weight)


def numpy_ece(y, s, weight=None):
    """Σ_b (n_b / n) |o_b − p_b| with o_b, p_b from scikit-learn's calibration_curve (its non-empty bins, in order)
    and n_b counted by numpy's digitize (bins closed on the right)."""
    w = np.ones(len(s)) if weight is None else weight
    counts = np.bincount(np.digitize(s, EDGES[1:-1], right=True), weights=w, minlength=10)
    if weight is None:
        prob_true, prob_pred = sk_calibration_curve(y, s, n_bins=10, strategy="uniform")
    else:   # scikit-learn's curve has no weights: the weighted means per bin, by numpy
        b = np.digitize(s, EDGES[1:-1], right=True)
        filled = counts > 0
        prob_true = (np.bincount(b, weights=w * y, minlength=10)[filled] / counts[filled])
        prob_pred = (np.bincount(b, weights=w * s, minlength=10)[filled] / counts[filled])
    return float(np.sum(counts[counts > 0] / w.sum() * np.abs(prob_true - prob_pred)))


def sample(n, seed, skew=0.1):
    rng = np.random.default_rng(seed)
    s = rng.uniform(0, 1, n)
    return (rng.uniform(0, 1, n) < np.clip(s + skew, 0, 1)).astype(np.int8), s


def test_hand_worked_example():
    assert evaluate(binary(HAND_Y, HAND_S), ["ece"])["ece"].value == pytest.approx(0.12, abs=1e-15)
    assert numpy_ece(HAND_Y, HAND_S) == pytest.approx(0.12, abs=1e-15)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_equals_the_numpy_formula_on_sklearn_bins_and_the_chart(seed):
    y, s = sample(700, seed)
    s = np.round(s, 2)            # ties, and scores on the bin edges (0.1, 0.2, …) that must close each bin
    value = evaluate(binary(y, s), ["ece"])["ece"].value
    assert value == pytest.approx(numpy_ece(y, s), abs=1e-12)
    assert value == pytest.approx(curves.calibration_curve(y, s).ece, abs=1e-12)   # the chart's number


def test_weighted_equals_the_weighted_formula():
    y, s = sample(400, 5)
    w = np.random.default_rng(6).uniform(0.2, 3.0, 400)
    assert evaluate(binary(y, s, w), ["ece"])["ece"].value == pytest.approx(numpy_ece(y, s, w), abs=1e-12)


def test_scores_that_are_not_probabilities_give_nan_with_the_reason():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = evaluate(binary([0, 1, 1, 0], np.array([-1.0, 2.0, 3.0, 0.5])), ["ece"])["ece"]
    assert np.isnan(result.value) and "not probabilities" in result.reason


def test_noise_floor_is_the_mean_ece_of_a_calibrated_model_and_a_value_near_it_has_a_note():
    """Oracle: 400 simulated truths y ~ Bernoulli(p) for fixed scores p, each scored by the numpy formula."""
    y, s = sample(500, 11, skew=0.0)
    counts = curves.threshold_counts(y, s)
    floor = calibration_error.noise_floor(counts.thresholds, counts.tps, counts.fps)
    rng = np.random.default_rng(12)
    simulated = [numpy_ece((rng.uniform(0, 1, s.size) < s).astype(int), s) for _ in range(400)]
    assert floor == pytest.approx(np.mean(simulated), rel=0.08)
    calibrated = evaluate(binary(y, s), ["ece"])["ece"]
    assert calibrated.value < 2 * floor and calibrated.note.startswith(f"below 2 × {floor:.3g}, the ECE a "
                                                                       "perfectly calibrated model shows")
    y_off, _ = sample(500, 11, skew=0.3)
    assert evaluate(binary(y_off, s), ["ece"])["ece"].note is None


def test_a_resample_is_the_formula_on_the_reweighted_rows():
    """Each resample's ECE is the numpy formula on the rows weighted by their draw counts (the weighted layout
    lays rows out positives first)."""
    y, s = sample(300, 7)
    w = np.ones(300)
    spec = get(Task.BINARY, "ece")
    state = binary_state(y, (s >= 0.5).astype(np.int8), s, w)
    stat, _ = resampling.binary_score_statistic(state, [spec], y == 1, s, w)
    order = np.concatenate([np.flatnonzero(y == 1), np.flatnonzero(y == 0)])
    draws = np.random.default_rng(8).poisson(1.0, size=(4, 300)).astype(np.uint8)
    got = np.asarray(stat(draws)).reshape(4)
    for b in range(4):
        assert got[b] == pytest.approx(numpy_ece(y[order], s[order], draws[b].astype(float)), abs=1e-12)


def test_interval_by_bootstrap_seeded():
    y, s = sample(400, 9, skew=0.2)
    first, again, other = (evaluate(binary(y, s), ["ece"], ci="bootstrap", n_resamples=300, seed=seed)["ece"]
                           for seed in (4, 4, 5))
    assert str(first.method).startswith("bootstrap-percentile (300 resamples, seed 4")
    assert first.low < first.value < first.high and 0 <= first.low and first.high <= 1
    assert (again.low, again.high) == (first.low, first.high) != (other.low, other.high)
    auto = evaluate(binary(y, s), ["ece"], ci="auto", n_resamples=300, seed=4)["ece"]
    assert str(auto.method).startswith("bootstrap-percentile")   # no analytic interval: the bootstrap under auto


def test_cli_report_and_metrics_page_carry_ece(tmp_path, capsys):
    rows = []
    for model, skew in (("calibrated", 0.0), ("overconfident", 0.2)):
        y, s = sample(150, {"calibrated": 1, "overconfident": 2}[model], skew)
        rows.append(pd.DataFrame({"id": range(150), "model": model, "y_true": y, "score": s}))
    path = tmp_path / "two.csv"
    pd.concat(rows).to_csv(path, index=False)
    assert main(["metrics", str(path), "--metrics", "ece", "--ci", "auto", "--resamples", "200", "--quiet"]) == 0
    cli = json.loads(capsys.readouterr().out)
    for model, part in pd.concat(rows).groupby("model"):
        got = cli["models"][model]["ece"]
        assert got["value"] == pytest.approx(numpy_ece(part.y_true.to_numpy(), part.score.to_numpy()), abs=1e-12)
        assert got["low"] <= got["high"]
    out = tmp_path / "r.zip"
    assert main(["report", str(path), "--out", str(out), "--metrics", "ece", "--resamples", "200", "--quiet",
                 "--tests", "mcnemar"]) == 0
    report = json.loads(zipfile.ZipFile(out).read("report.json"))["metrics"]["models"]
    assert {m: r["ece"] for m, r in report.items()} == {m: r["ece"] for m, r in cli["models"].items()}
    asks = mv.questions(describe(read_table(path)))
    assert "ece" in {spec.key for spec in asks.specs}
