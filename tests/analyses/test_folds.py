"""Per-fold metrics, the repeated-CV corrected interval and learning curves against independent oracles:
scikit-learn per fold, SciPy's t distribution and linregress, the Nadeau–Bengio formula written out by hand."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from sklearn import metrics as skm

from assess.analyses.folds import fold_metrics, learning_curve, train_size_column
from assess.cli import main
from assess.core.errors import AssessError
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from tests.repeated_cv import repeated_cv_frame

SAMPLES = "assets/samples"


def _assessment(frame: pd.DataFrame, name: str = "folds.csv"):
    return describe(read_table(frame.to_csv(index=False).encode(), name=name))


def test_per_fold_values_mean_sd_and_t_interval_match_sklearn_and_scipy():
    assessment = describe(read_table(f"{SAMPLES}/breast_cancer_binary.csv"))
    summary = fold_metrics(assessment, keys=["accuracy", "roc_auc"], confidence_level=0.9)
    frame = assessment.frame[assessment.frame["model"] == "tree"]
    y = (frame["y_true"] == "malignant").to_numpy()
    per_fold = [skm.roc_auc_score(y[(frame["fold"] == f).to_numpy()], frame["score"][frame["fold"] == f])
                for f in sorted(frame["fold"].unique())]
    got = summary.per_fold[(summary.per_fold["model"] == "tree") & (summary.per_fold["key"] == "roc_auc")]
    assert got["value"].to_numpy() == pytest.approx(per_fold)
    row = summary.summary.set_index(["model", "key"]).loc[("tree", "roc_auc")]
    assert row["mean"] == pytest.approx(np.mean(per_fold))
    assert row["sd"] == pytest.approx(np.std(per_fold, ddof=1))
    low, high = sps.t.interval(0.9, len(per_fold) - 1, loc=np.mean(per_fold), scale=sps.sem(per_fold))
    assert (row["low"], row["high"]) == pytest.approx((low, high))
    assert row["pooled"] == pytest.approx(skm.roc_auc_score(y, frame["score"]))
    assert row["method"] == "t over 5 folds"


def test_repeated_cv_gives_the_nadeau_bengio_corrected_interval():
    rng = np.random.default_rng(4)
    rows = []
    for repeat in range(3):
        folds = rng.permutation(np.arange(150) % 5)
        y = rng.normal(size=150)
        rows.append(pd.DataFrame({"repeat": repeat + 1, "fold": folds + 1, "y_true": y.round(5),
                                  "y_pred": (y + rng.normal(0, 0.5, 150)).round(5)}))
    frame = pd.concat(rows, ignore_index=True)
    summary = fold_metrics(_assessment(frame), keys=["mae"])
    assert summary.repeated
    maes = [skm.mean_absolute_error(g["y_true"], g["y_pred"]) for _, g in frame.groupby(["repeat", "fold"])]
    j, k = len(maes), 5
    # Nadeau & Bengio (2003): Var = (1/J + n2/n1) s^2 with n2/n1 = 1/(k - 1) for k-fold CV
    half = sps.t.ppf(0.975, j - 1) * math.sqrt((1 / j + 1 / (k - 1)) * np.var(maes, ddof=1))
    row = summary.summary.iloc[0]
    assert (row["low"], row["high"]) == pytest.approx((np.mean(maes) - half, np.mean(maes) + half))
    assert row["method"] == "Nadeau–Bengio corrected t (3 × 5-fold)"
    assert row["n_folds"] == 15
    doc = summary.to_dict()
    assert "1/3" in next(iter(doc.values()))["mae"]["folds"]


def test_a_repeated_cv_predictions_file_is_scored_per_repeat_and_fold():
    """RepeatedStratifiedKFold's predictions (each sample id once per repeat): one fold per (repeat, fold), as
    scikit-learn's cross_val_score gives them, and the pooled value over all repeats' rows."""
    frame = repeated_cv_frame(n_splits=2, n_repeats=5)
    summary = fold_metrics(_assessment(frame, "repeated_cv.csv"), keys=["accuracy"])
    rows = frame[frame["model"] == "bayes"]
    expected = {f"{r}/{f}": skm.accuracy_score(g["y_true"], g["y_pred"])
                for (r, f), g in rows.groupby(["repeat", "fold"])}
    doc = summary.to_dict()["bayes"]["accuracy"]
    assert doc["folds"] == pytest.approx(expected) and len(expected) == 10
    assert doc["method"] == "Nadeau–Bengio corrected t (5 × 2-fold)"
    assert doc["pooled"] == pytest.approx(skm.accuracy_score(rows["y_true"], rows["y_pred"]))
    per_repeat = [skm.accuracy_score(g["y_true"], g["y_pred"]) for _, g in rows.groupby("repeat")]
    assert doc["pooled"] == pytest.approx(np.mean(per_repeat))    # equal repeats: pooled = mean of the repeats


def test_fold_metrics_needs_a_fold_column():
    frame = pd.DataFrame({"y_true": [0, 1, 0, 1], "y_pred": [0, 1, 1, 1]})
    with pytest.raises(AssessError, match="has no fold column"):
        fold_metrics(_assessment(frame))


def test_learning_curve_points_and_slope_match_sklearn_and_linregress():
    assessment = describe(read_table(f"{SAMPLES}/breast_cancer_learning_curve.csv"))
    assert train_size_column(assessment) == "train_size"
    curve = learning_curve(assessment, "accuracy", last=3)
    frame = assessment.frame[assessment.frame["model"] == "tree"]
    values = {}
    for (size, fold), g in frame.groupby(["train_size", "fold"]):
        values[(size, fold)] = skm.accuracy_score(g["y_true"], g["y_pred"])
    points = curve.points[curve.points["model"] == "tree"].set_index("train_size")
    for size in frame["train_size"].unique():
        folds = [v for (s, _), v in values.items() if s == size]
        assert points.loc[size, "mean"] == pytest.approx(np.mean(folds))
        assert points.loc[size, "n_folds"] == 5
    last = sorted(frame["train_size"].unique())[-3:]
    x = [math.log2(s) for (s, _), v in values.items() if s in last]
    y = [v for (s, _), v in values.items() if s in last]
    fit = sps.linregress(x, y)
    trend = curve.trend.set_index("model").loc["tree"]
    assert trend["slope"] == pytest.approx(fit.slope)
    half = sps.t.ppf(0.975, len(y) - 2) * fit.stderr
    assert (trend["low"], trend["high"]) == pytest.approx((fit.slope - half, fit.slope + half))
    assert trend["sizes"] == [float(s) for s in last]
    # the metric's name mid-sentence in lower case, as the product's other sentences say it (was "Accuracy")
    assert f"{fit.slope:+.3g} accuracy per doubling (95% CI " in trend["verdict"]


def test_learning_curve_says_still_improving_on_a_curve_that_still_rises():
    rng = np.random.default_rng(9)
    rows = []
    for size, p_right in ((100, 0.6), (200, 0.7), (400, 0.8), (800, 0.9)):
        for fold in range(1, 6):
            y = rng.integers(0, 2, 200)
            right = rng.random(200) < p_right
            rows.append(pd.DataFrame({"train_size": size, "fold": fold, "y_true": y,
                                      "y_pred": np.where(right, y, 1 - y)}))
    curve = learning_curve(_assessment(pd.concat(rows, ignore_index=True)), "accuracy")
    assert curve.trend["verdict"].iloc[0].startswith("Still improving from 200 to 800")
    flat = pd.concat(rows, ignore_index=True)
    with pytest.raises(AssessError, match="no training-size column"):
        learning_curve(_assessment(flat.drop(columns="train_size")), "accuracy")
    bad = flat.assign(train_size=flat["train_size"].astype(float))
    bad.loc[3, "train_size"] = -5
    with pytest.raises(AssessError, match=r"`train_size` must hold positive training sizes \(row 5: `-5"):
        learning_curve(_assessment(bad), "accuracy")


def test_cli_by_fold_json(capsys):
    assert main(["metrics", f"{SAMPLES}/breast_cancer_learning_curve.csv", "--metrics", "accuracy",
                 "--by-fold"]) == 0
    doc = json.loads(capsys.readouterr().out)
    entry = doc["by_fold"]["logistic"]["accuracy"]
    assert set(entry) == {"pooled", "mean", "sd", "low", "high", "n_folds", "method", "folds"}
    assert set(doc["learning_curve"]) == {"column", "metric", "points", "trend"}
    assert set(doc["learning_curve"]["trend"]["tree"]) == {"slope", "low", "high", "sizes", "verdict"}
