"""The ``ece`` metric key (expected calibration error, binary): 10 equal-width bins weighted by their rows, |mean
score − fraction positive| (Naeini et al. 2015; Guo et al. 2017), the calibration chart's binning. Oracles: a
hand-worked example, and an independent numpy formula on scikit-learn's ``calibration_curve(strategy="uniform")``
bin statistics. Its interval (simultaneous Clopper–Pearson bins, oracle statsmodels; coverage by simulation), the
command line, the report and the Metrics page's choice."""

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
from tests.conftest import ROOT

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


def truth(s, p):
    """The binned ECE of true probabilities ``p`` (Σ_b (n_b/n)·|mean p − mean s| over numpy's bins closed on the
    right): the value the interval is of, conditional on the scores."""
    b = np.digitize(s, EDGES[1:-1], right=True)
    n = np.bincount(b, minlength=10)
    f = n > 0
    return float(np.sum(n[f] / s.size * np.abs(np.bincount(b, p, 10)[f] - np.bincount(b, s, 10)[f]) / n[f]))


@pytest.mark.parametrize("shift, true_ece", [(0.0, 0.0), (0.05, 0.049), (0.15, 0.139)])
def test_interval_covers_the_true_ece(shift, true_ece):
    """Coverage of the ``ci="auto"`` interval, conditional on the scores (its frame): 500 seeded uniform scores, true
    probabilities p = clip(s + shift), 1,000 seeded outcome vectors y ~ Bernoulli(p) drawn at once; the truth is the
    binned ECE of p (`truth`), a known value, not the code under test. Monte-Carlo band: at a true coverage of 95 %
    the standard error of 1,000 samples is 0.69 %, so 93.5 % is 2.2 standard errors below nominal (a 95 %-covering
    interval passes with probability 0.986); the interval is conservative — 97.7 %, 100 % and 100 % here —, so the bar is not
    flaky. The old percentile bootstrap held the true ECE in 0 %, 45 % and 80 % of samples.
    Every interval also holds its estimate."""
    rng = np.random.default_rng(21)
    s = rng.uniform(0, 1, 500)
    p = np.clip(s + shift, 0, 1)
    target = truth(s, p)
    assert target == pytest.approx(true_ece, abs=5e-4)
    outcomes = (rng.uniform(0, 1, (1000, s.size)) < p).astype(np.int8)
    covered = 0
    for y in outcomes:
        r = evaluate(binary(y, s), ["ece"], ci="auto", baselines=False)["ece"]
        assert r.low <= r.value <= r.high
        covered += r.low <= target <= r.high
    assert covered / len(outcomes) >= 0.935


@pytest.mark.parametrize("weighted", [False, True])
def test_interval_is_the_worst_case_over_statsmodels_clopper_pearson_bins(weighted):
    """Oracle: per non-empty bin (numpy's digitize, closed on the right) the Clopper–Pearson interval of statsmodels'
    ``proportion_confint(method="beta", alpha=0.05 / B)`` — with weights, of Kish's effective n (Σw)²/Σw² and
    ȳ_b·n_eff positives — and the interval [Σ w_b·dist(s̄_b, [L_b, U_b]), Σ w_b·max(U_b − s̄_b, s̄_b − L_b)]."""
    from statsmodels.stats.proportion import proportion_confint

    y, s = sample(300, 13, skew=0.08)
    w = np.random.default_rng(14).uniform(0.2, 3.0, 300) if weighted else np.ones(300)
    b = np.digitize(s, EDGES[1:-1], right=True)
    rows = np.bincount(b, weights=w, minlength=10)
    f = rows > 0
    rows = rows[f]
    observed = np.bincount(b, weights=w * y, minlength=10)[f] / rows
    mean_score = np.bincount(b, weights=w * s, minlength=10)[f] / rows
    n_eff = rows ** 2 / np.bincount(b, weights=w * w, minlength=10)[f] if weighted else rows
    low, high = proportion_confint(observed * n_eff, n_eff, alpha=0.05 / f.sum(), method="beta")
    low, high = np.where(observed == 0, 0.0, low), np.where(observed == 1, 1.0, high)
    share = rows / rows.sum()
    expected_low = np.sum(share * np.maximum.reduce([low - mean_score, mean_score - high, 0 * low]))
    expected_high = np.sum(share * np.maximum(high - mean_score, mean_score - low))
    r = evaluate(binary(y, s, w if weighted else None), ["ece"], ci="auto", baselines=False)["ece"]
    assert (r.low, r.high) == (pytest.approx(expected_low, abs=1e-12), pytest.approx(expected_high, abs=1e-12))
    assert expected_low > 0   # the model is off: some bin's mean score lies outside its interval
    assert r.method == ("simultaneous-clopper-pearson-bins" + (" (Kish effective n)" if weighted else "")
                        + f" (Bonferroni over {f.sum()} bins), conditional on the scores")
    assert r.how.words == ("Simultaneous Clopper–Pearson bins, " + ("Kish effective n, " if weighted else "")
                           + "conditional on the scores")


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


def test_paired_bootstrap_of_two_models_difference_is_defined():
    """``compare --test paired_bootstrap --metric ece`` resamples the ECE (`resampled_ece`); without it every
    resample is undefined and the p-values null."""
    from tests.engine.test_engine import run_cli

    code, doc, err = run_cli("compare", ROOT / "assets/samples/breast_cancer_binary.csv", "--test", "paired_bootstrap",
                             "--metric", "ece", "--resamples", "200")
    assert code == 0, err
    assert len(doc["pairs"]) == 3 and all(0 < p["pvalue"] <= 1 for p in doc["pairs"])


def test_bootstrap_asked_gives_the_same_interval_and_says_why():
    y, s = sample(400, 9, skew=0.2)
    auto, boot, wilson = (evaluate(binary(y, s), ["ece"], ci=ci, n_resamples=300, baselines=False)["ece"]
                          for ci in ("auto", "bootstrap", "wilson"))
    assert (boot.low, boot.high, boot.method) == (auto.low, auto.high, auto.method)
    assert auto.note is None and boot.note.startswith("not bootstrapped: the percentile bootstrap of the binned ECE")
    assert np.isnan(wilson.low) and wilson.note == "no wilson interval: it applies to proportions only"


def test_breast_cancer_sample_intervals_hold_their_estimates():
    """Every model of the shipped sample, through the command line: the old bootstrap gave naive_bayes_3f 0.025
    with the interval 0.026–0.063."""
    from tests.engine.test_engine import run_cli

    code, doc, err = run_cli("metrics", ROOT / "assets/samples/breast_cancer_binary.csv", "--ci", "auto",
                             "--metrics", "ece")
    assert code == 0, err
    assert set(doc["models"]) == {"logistic", "tree", "naive_bayes_3f"}
    for model, got in doc["models"].items():
        assert got["ece"]["low"] <= got["ece"]["value"] <= got["ece"]["high"], model
    # the out-of-core engine's grouped table gives the same interval
    code, grouped, err = run_cli("metrics", ROOT / "assets/samples/breast_cancer_binary.csv", "--ci", "auto",
                                 "--metrics", "ece", "--engine", "duckdb")
    assert code == 0, err
    for model, got in doc["models"].items():
        assert grouped["models"][model]["ece"] == pytest.approx(got["ece"], abs=1e-12), model


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
