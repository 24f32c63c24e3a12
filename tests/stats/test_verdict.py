"""One verdict from every suitable test (issue 33 §1.4): the test it follows by the stated rule of
`assess.stats.verdict`, why, and the pairs the tests disagree on — checked against SciPy's tests on the same data."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from assess.core.data import Predictions
from assess.stats import compare, compare_all
from assess.stats.verdict import primary_comparison
from tests.stats.test_compare import binary_models


def three_models_on_five_folds():
    rng = np.random.default_rng(1)
    rows = []
    for f in range(5):
        base = rng.normal(0.8, 0.03)
        rows += [{"model": m, "fold": f, "auc": base + 0.012 * j + rng.normal(0, 0.004)} for j, m in enumerate("ABC")]
    return pd.DataFrame(rows)


def test_three_models_on_folds_follow_friedman_and_name_the_pairs_the_t_tests_call_otherwise():
    frame = three_models_on_five_folds()
    verdict = compare_all(frame).verdict
    assert verdict.test == "friedman" and "three or more models over the same folds" in verdict.reason
    wide = frame.pivot(index="fold", columns="model", values="auc")
    pairs = [("A", "B"), ("A", "C"), ("B", "C")]
    raw = [sps.ttest_rel(wide[a], wide[b]).pvalue for a, b in pairs]
    holm = np.minimum(1, np.maximum.accumulate(np.sort(raw) * (3 - np.arange(3))))[np.argsort(np.argsort(raw))]
    t_says = {pair for pair, p in zip(pairs, holm) if p < 0.05}
    # Nemenyi (Demšar 2006): ranks further apart than CD = q·√(k(k+1)/(6N)), q(0.05, k=3) = 2.343
    ranks = wide.rank(axis=1, ascending=False).mean()
    cd = 2.343 * np.sqrt(3 * 4 / (6 * 5))
    friedman_says = {(a, b) for a, b in pairs if abs(ranks[a] - ranks[b]) > cd}
    assert t_says - friedman_says                          # the data do disagree
    found = {d.models: d for d in verdict.disagreements}
    assert set(found) == t_says ^ friedman_says
    for pair in t_says - friedman_says:
        assert "paired_t" in found[pair].significant and found[pair].not_significant == ("friedman",)
    assert verdict.text.startswith(compare(frame, test="friedman").sentence)
    assert "The verdict follows the Friedman test with Nemenyi post-hoc" in verdict.text


def test_roc_auc_follows_delong_and_weights_follow_the_paired_bootstrap():
    """Unweighted ROC AUC: DeLong's test runs and the paired bootstrap of the same AUC difference is skipped with
    the reason; with sample weights DeLong does not compare the weighted AUCs, so the bootstrap runs and decides.
    Another metric (accuracy) keeps the bootstrap alongside DeLong."""
    preds, _, _ = binary_models()
    found = compare_all(preds, n_resamples=100)
    assert found.verdict.test == "delong"          # ROC AUC, the binary headline
    assert [c.test for c in found.comparisons] == ["delong", "cochran_q", "mcnemar"]   # the metric's test first
    assert "DeLong's test above compares the same ROC AUC difference" in found.skipped["paired_bootstrap"]
    weighted = {m: Predictions(p.task, p.classes, p.y_true, p.y_pred, p.scores, ids=p.ids, model=m,
                               weight=np.where(np.asarray(p.ids) < "s2", 2.0, 1.0)) for m, p in preds.items()}
    found = compare_all(weighted, n_resamples=100)
    assert found.verdict.test == "paired_bootstrap" and "sample weights" in found.verdict.reason
    assert "paired_bootstrap" not in found.skipped
    other = compare_all(preds, metric="accuracy", n_resamples=100)
    assert [c.test for c in other.comparisons] == ["cochran_q", "mcnemar", "delong", "paired_bootstrap"]
    assert not other.skipped


@pytest.mark.parametrize("skewed, expected", [(False, "paired_t"), (True, "wilcoxon")])
def test_between_the_paired_t_test_and_wilcoxon_the_normality_check_decides(skewed, expected):
    rng = np.random.default_rng(0)
    n = 12
    diff = rng.exponential(1.0, n) ** 3 if skewed else rng.normal(0.5, 1.0, n)
    frame = pd.DataFrame({"model": ["A"] * n + ["B"] * n, "fold": list(range(n)) * 2,
                          "score": np.r_[diff, np.zeros(n)]})
    assert (sps.shapiro(diff).pvalue < 0.05) == skewed        # the oracle's verdict on normality
    tests = [compare(frame, test=t) for t in ("paired_t", "wilcoxon")]
    chosen, reason = primary_comparison(tests)
    assert chosen.test == expected and ("fail" in reason) == skewed
