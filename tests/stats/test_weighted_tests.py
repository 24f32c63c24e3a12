"""Significance tests on a file with sample weights: the tests that count every row once say so, and the report's
verdict quotes the paired bootstrap, which takes the weights, so its numbers agree with the weighted metrics beside it.

Oracle: scikit-learn's ``roc_auc_score(..., sample_weight=w)`` for the weighted AUCs, and its unweighted AUCs for what
DeLong compares (a churn walk: the verdict said 0.918 against 0.696 under a table of 0.915 against 0.690)."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.inputs.roles import Overrides
from assess.present.report import ReportOptions, build_report
from assess.stats import compare, compare_all
from assess.stats.compare import UNWEIGHTED_CAUTION


def churn(weighted: bool, n=1_500, seed=11) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.2).astype(int)
    frame = pd.DataFrame({"y_true": y,
                          "score_gbm": np.clip(rng.normal(0.3 + 0.3 * y, 0.2), 0, 1).round(4),
                          "score_base": np.clip(rng.normal(0.35 + 0.1 * y, 0.2), 0, 1).round(4)})
    # weights that matter: the positives the gbm ranks worst count five times
    if weighted:
        frame["weight"] = np.where((y == 1) & (frame["score_gbm"] < 0.4), 5.0, 1.0)
    return frame


def assessed(frame: pd.DataFrame):
    overrides = Overrides().with_role("weight", "weight") if "weight" in frame else Overrides()
    return describe(read_table(frame.to_csv(index=False).encode(), name="churn.csv"), overrides)


@pytest.mark.parametrize("weighted", [True, False])
def test_tests_that_count_rows_once_say_so_on_a_weighted_file(weighted):
    a = assessed(churn(weighted))
    preds = {m: a.predictions(m) for m in a.models}
    delong = compare(preds, test="delong")
    boot = compare(preds, test="paired_bootstrap", metric="roc_auc", n_resamples=200, seed=0)
    assert (UNWEIGHTED_CAUTION in delong.sentence) is weighted
    assert UNWEIGHTED_CAUTION not in boot.sentence
    suggested = [s.test for s in compare_all(preds, n_resamples=50).suggestions]
    assert (suggested[0] == "paired_bootstrap") is weighted and len(suggested) == len(set(suggested))


def test_the_report_verdict_of_a_weighted_file_is_the_weighted_bootstrap():
    frame = churn(True)
    report = build_report(assessed(frame), ReportOptions(ci="", n_resamples=200, charts=False))
    w = frame["weight"]
    weighted = {m: roc_auc_score(frame.y_true, frame[f"score_{m}"], sample_weight=w) for m in ("gbm", "base")}
    unweighted = {m: roc_auc_score(frame.y_true, frame[f"score_{m}"]) for m in ("gbm", "base")}
    assert abs(weighted["gbm"] - unweighted["gbm"]) > 0.01        # the weights change the numbers
    quoted = report.comparisons[0]
    assert quoted.test == "paired_bootstrap" and report.verdict.startswith(quoted.sentence)
    assert "The tests disagree on gbm vs base" in report.verdict   # the unweighted tests say otherwise, and why
    assert quoted.result.effect.value == pytest.approx(weighted["gbm"] - weighted["base"], abs=1e-9)
    assert "paired bootstrap" in report.verdict and UNWEIGHTED_CAUTION not in report.verdict
