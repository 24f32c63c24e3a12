"""The cross-validation tests straight from a predictions file of repeated cross-validation (scikit-learn's
RepeatedStratifiedKFold, `tests.repeated_cv`): Dietterich's 5×2cv t-test and Nadeau & Bengio's corrected resampled
t-test, each checked against its formula written out with numpy and SciPy on per-fold scores that scikit-learn
computes from the file's rows (mlxtend's `paired_ttest_5x2cv` is that formula; mlxtend is not installed here).
Per-sample tests refuse rows that repeat every sample; `--test all` compares the folds."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from sklearn import metrics as skm

from assess.cli import main
from assess.core.errors import AssessError
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.stats import compare, compare_all
from tests.repeated_cv import repeated_cv_frame


def per_fold(frame: pd.DataFrame, score) -> pd.DataFrame:
    """(repeat, fold) × model table of ``score(rows)`` computed by scikit-learn, repeats and folds in order."""
    return frame.groupby(["repeat", "fold", "model"]).apply(score, include_groups=False).unstack("model")


def cli(capsys, tmp_path, frame, *argv):
    path = tmp_path / "repeated_cv.csv"
    frame.to_csv(path, index=False)
    code = main(["compare", str(path), *argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out), err


def test_5x2cv_t_from_a_predictions_file_is_dietterichs(capsys, tmp_path):
    frame = repeated_cv_frame(n_splits=2, n_repeats=5)
    doc, err = cli(capsys, tmp_path, frame, "--test", "cv_5x2_t", "--metric", "accuracy", "--models", "logreg",
                   "bayes")
    acc = per_fold(frame, lambda g: skm.accuracy_score(g["y_true"], g["y_pred"]))
    p = (acc["logreg"] - acc["bayes"]).to_numpy().reshape(5, 2)      # p_i^(j): repeat i, fold j
    # Dietterich (1998), eq. for t̃ (mlxtend.evaluate.paired_ttest_5x2cv computes the same):
    # s_i² = Σ_j (p_i^(j) − p̄_i)²,  t = p_1^(1) / sqrt(Σ_i s_i² / 5) ~ t_5
    s2 = ((p - p.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    t = p[0, 0] / math.sqrt(s2.sum() / 5)
    assert doc["test"] == "cv_5x2_t" and doc["df"] == 5
    assert doc["statistic"] == pytest.approx(t, rel=1e-9)
    assert doc["pvalue"] == pytest.approx(2 * sps.t.sf(abs(t), 5), rel=1e-9)
    assert doc["effect"]["value"] == pytest.approx(p.mean(), rel=1e-9)
    assert "repeated cross-validation: 5 repeats × 2 folds" in err    # the pooled metrics' caveat, on stderr


def test_corrected_resampled_t_from_r_repeats_of_k_folds_uses_the_fold_sizes(capsys, tmp_path):
    frame = repeated_cv_frame(n_splits=3, n_repeats=4)
    doc, _ = cli(capsys, tmp_path, frame, "--test", "corrected_resampled_t")    # metric: the headline, ROC AUC
    auc = per_fold(frame, lambda g: skm.roc_auc_score(g["y_true"], g["score"]))
    d = (auc["logreg"] - auc["bayes"]).to_numpy()
    j = d.size
    # Nadeau & Bengio (2003): Var(d̄) = (1/J + n₂/n₁) s², n₂ a fold's rows, n₁ the rest of its repeat's rows
    rows = frame[frame["model"] == "logreg"]
    n_test = rows.groupby(["repeat", "fold"]).size()
    n_repeat = rows.groupby("repeat").size()
    ratio = float(np.mean([n / (n_repeat[r] - n) for (r, _), n in n_test.items()]))
    assert ratio == pytest.approx(0.5, abs=0.01)                      # 1/(k − 1) for 3 near-equal folds
    se = math.sqrt((1 / j + ratio) * d.var(ddof=1))
    t = d.mean() / se
    assert doc["statistic"] == pytest.approx(t, rel=1e-9) and doc["df"] == j - 1 == 11
    assert doc["pvalue"] == pytest.approx(2 * sps.t.sf(abs(t), j - 1), rel=1e-9)
    half = sps.t.ppf(0.975, j - 1) * se
    assert (doc["effect"]["low"], doc["effect"]["high"]) == pytest.approx((d.mean() - half, d.mean() + half))
    details = {a["name"]: a["detail"] for a in doc["assumptions"]}
    assert details["repeated cross-validation (10 × 10-fold recommended)"] == \
        "12 differences from 4 repeats of 3-fold cross-validation"
    assert "from the fold sizes" in details["test/train size ratio"]
    assert "ROC AUC" in doc["sentence"]


@pytest.fixture(scope="module")
def predictions():
    frame = repeated_cv_frame(n_splits=2, n_repeats=5)
    assessment = describe(read_table(frame.to_csv(index=False).encode(), name="repeated_cv.csv"))
    return frame, {m: assessment.predictions(m) for m in assessment.models}


@pytest.mark.parametrize("test", ["mcnemar", "delong", "paired_bootstrap"])
def test_per_sample_tests_refuse_rows_that_repeat_every_sample(predictions, test):
    with pytest.raises(AssessError, match=r"the rows hold 5 repeats of cross-validation .* would count every sample "
                                          r"5 times as if independent"):
        compare(predictions[1], test=test, metric="accuracy" if test == "paired_bootstrap" else None)


def test_all_suitable_tests_of_repeated_cv_are_the_fold_tests(predictions):
    frame, preds = predictions
    found = compare_all(preds, metric="accuracy")
    assert found.suggestions[0].test == "cv_5x2_t"
    assert {c.test for c in found.comparisons} >= {"cv_5x2_t", "corrected_resampled_t"}
    assert not {"mcnemar", "delong", "paired_bootstrap"} & {s.test for s in found.suggestions}
    acc = per_fold(frame, lambda g: skm.accuracy_score(g["y_true"], g["y_pred"]))
    paired = next(c for c in found.comparisons if c.test == "paired_t")
    assert paired.result.pvalue == pytest.approx(sps.ttest_rel(acc["logreg"], acc["bayes"]).pvalue, rel=1e-9)


def test_paired_t_on_repeated_cv_regression_compares_the_folds_not_the_rows():
    """Numeric predictions: paired t compares per-sample errors — but rows of repeated CV repeat every sample, so it
    compares the per-(repeat, fold) MAE instead. Oracle: scikit-learn's MAE per fold, SciPy's ttest_rel."""
    from sklearn.datasets import load_diabetes
    from sklearn.linear_model import LinearRegression, Ridge
    from sklearn.model_selection import RepeatedKFold

    x, y = load_diabetes(return_X_y=True)
    parts = []
    for i, (train, test) in enumerate(RepeatedKFold(n_splits=3, n_repeats=2, random_state=0).split(x)):
        for name, model in (("ols", LinearRegression()), ("ridge", Ridge(alpha=1.0))):
            parts.append(pd.DataFrame({"id": test, "model": name, "repeat": i // 3, "fold": i % 3, "y_true": y[test],
                                       "y_pred": model.fit(x[train], y[train]).predict(x[test]).round(4)}))
    frame = pd.concat(parts, ignore_index=True)
    assessment = describe(read_table(frame.to_csv(index=False).encode(), name="rcv_regression.csv"))
    preds = {m: assessment.predictions(m) for m in assessment.models}
    result = compare(preds, test="paired_t").result
    mae = per_fold(frame, lambda g: skm.mean_absolute_error(g["y_true"], g["y_pred"]))
    assert result.n == 6
    assert result.pvalue == pytest.approx(sps.ttest_rel(mae["ols"], mae["ridge"]).pvalue, rel=1e-9)
