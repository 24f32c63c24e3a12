"""Tests between regression models on per-sample errors: paired t and Wilcoxon (oracles: scipy.stats.ttest_rel and
scipy.stats.wilcoxon on the same absolute or squared errors), sentences in the units of y_true, and the samples."""

import dataclasses

import numpy as np
import pytest
from scipy import stats as sps

from assess.core.data import Predictions, Task
from assess.stats import compare


def regression(names=("ridge", "forest"), n=120, seed=0, target="progression"):
    rng = np.random.default_rng(seed)
    y = rng.normal(150, 40, n)
    ids = np.array([f"s{i}" for i in range(n)], dtype=object)
    out = []
    for j, name in enumerate(names):
        order = rng.permutation(n)          # each model lists the samples in its own order
        pred = y + rng.normal(0, 20 + 6 * j, n)
        out.append(Predictions(Task.REGRESSION, (), y[order], pred[order], ids=ids[order], model=name,
                               target=target))
    return out, y


def errors_by_id(p, loss):
    e = p.y_true - p.y_pred
    e = np.abs(e) if loss == "absolute" else e * e
    return e[np.argsort(p.ids)]


@pytest.mark.parametrize("loss", ["absolute", "squared"])
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_paired_t_on_per_sample_errors_is_scipys_ttest_rel(loss, alternative):
    preds, _ = regression()
    c = compare(preds, test="paired_t", loss=loss, alternative=alternative)
    a, b = (errors_by_id(p, loss) for p in preds)
    ref = sps.ttest_rel(a, b, alternative=alternative)
    assert c.result.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert c.result.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    assert c.result.n == 120 and c.result.effect.value == pytest.approx((a - b).mean(), rel=1e-12)
    ci = ref.confidence_interval(0.95)
    assert (c.result.effect.interval.low, c.result.effect.interval.high) == pytest.approx((ci.low, ci.high),
                                                                                          rel=1e-9)


@pytest.mark.parametrize("loss", ["absolute", "squared"])
def test_wilcoxon_on_per_sample_errors_is_scipys(loss):
    preds, _ = regression(n=80, seed=3)
    c = compare(preds, test="wilcoxon", loss=loss)
    a, b = (errors_by_id(p, loss) for p in preds)
    ref = sps.wilcoxon(a, b)
    assert c.result.statistic == pytest.approx(ref.statistic)
    assert c.result.pvalue == pytest.approx(ref.pvalue, rel=1e-9)


@pytest.mark.parametrize("names", [("1", "True"), ("True", "1"),
                                   ("a gradient-boosted ensemble of 500 shallow trees, tuned", "ridge")])
def test_sentences_name_the_better_model_in_the_units_of_y_true(names):
    preds, _ = regression(names=names)       # the second model's errors are larger
    a, b = (errors_by_id(p, "absolute") for p in preds)
    c = compare(preds, test="paired_t")
    diff = (b - a).mean()
    assert c.sentence.startswith(f"{names[0]}'s predictions are off by ")
    assert f"(progression units) less on average than {names[1]}'s on the same 120 samples" in c.sentence
    assert f"off by {diff:.3g} " in c.sentence or f"off by {diff:,.3g} " in c.sentence or \
        f"off by {diff:.1f} " in c.sentence
    w = compare(preds, test="wilcoxon")
    assert w.sentence.startswith(f"{names[0]}'s absolute errors are typically ")
    assert f"(progression units) smaller than {names[1]}'s (Hodges-Lehmann" in w.sentence
    sq = compare(preds, test="paired_t", loss="squared")
    assert f"{names[0]}'s mean squared error is lower than {names[1]}'s by " in sq.sentence
    assert "(squared progression units)" in sq.sentence


def test_classification_predictions_keep_the_per_fold_comparison():
    from assess.core.errors import AssessError
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 200).astype(np.int8)
    fold = np.repeat(np.arange(10), 20).astype(str).astype(object)
    preds = [Predictions(Task.BINARY, ("no", "yes"), y, np.where(rng.random(200) < acc, y, 1 - y).astype(np.int8),
                         fold=fold, model=m) for m, acc in (("A", 0.8), ("B", 0.7))]
    c = compare(preds, test="paired_t", metric="accuracy")
    assert c.result.n == 10
    with pytest.raises(AssessError, match=r"option `loss` does not apply to test `paired_t` \(its options: "):
        compare(preds, test="paired_t", metric="accuracy", loss="squared")


# ------------------------------------------------------------------------------- paired bootstrap and Friedman

def test_relative_error_metrics_are_compared_without_units():
    preds, _ = regression(n=60, seed=7)
    preds = [dataclasses.replace(p, y_true=p.y_true + 500.0, y_pred=p.y_pred + 500.0) for p in preds]  # no y = 0
    sentence = compare(preds, test="paired_bootstrap", metric="mape", n_resamples=200, seed=1).sentence
    assert "MAPE is lower than" in sentence and "units" not in sentence


def test_numeric_metrics_match_scikit_learn_with_and_without_weights():
    from sklearn.metrics import (max_error, mean_absolute_error, mean_squared_error, median_absolute_error, r2_score,
                                 root_mean_squared_error)
    from assess.stats.bridge import registry_metric
    rng = np.random.default_rng(5)
    y, p, w = rng.normal(size=50), rng.normal(size=50), rng.integers(1, 4, 50).astype(float)
    for key, ref in (("mae", mean_absolute_error), ("mse", mean_squared_error), ("rmse", root_mean_squared_error),
                     ("r2", r2_score), ("median_absolute_error", median_absolute_error)):
        f = registry_metric(Task.REGRESSION, key, classes=())
        assert f.vectorized and f.higher_is_better == (key == "r2")
        assert f(y, p) == pytest.approx(ref(y, p), rel=1e-12)
        assert f(y, p, sample_weight=w) == pytest.approx(ref(y, p, sample_weight=w), rel=1e-12)
        rows = f(y, p, sample_weight=np.vstack([w, np.ones(50)]))
        np.testing.assert_allclose(rows, [ref(y, p, sample_weight=w), ref(y, p)], rtol=1e-12)
    f = registry_metric(Task.REGRESSION, "max_error", classes=())
    assert f(y, p) == pytest.approx(max_error(y, p), rel=1e-12)


@pytest.mark.parametrize("key", ["mae", "rmse"])
def test_paired_bootstrap_of_a_regression_metric_is_a_naive_loop_with_the_same_seed(key):
    from sklearn.metrics import mean_absolute_error, root_mean_squared_error
    ref = {"mae": mean_absolute_error, "rmse": root_mean_squared_error}[key]
    preds, _ = regression(n=60, seed=7)
    c = compare(preds, test="paired_bootstrap", metric=key, n_resamples=500, seed=11)
    a, b = preds
    order_b = np.argsort(b.ids)[np.argsort(np.argsort(a.ids))]        # b's rows in a's sample order
    y, pa, pb = a.y_true, a.y_pred, b.y_pred[order_b]
    rng = np.random.default_rng(11)
    idx = rng.integers(0, 60, size=(500, 60))                          # one chunk: how the bootstrap draws
    deltas = np.array([ref(y[i], pa[i]) - ref(y[i], pb[i]) for i in idx])
    observed = ref(y, pa) - ref(y, pb)
    assert c.result.effect.value == pytest.approx(observed, rel=1e-12)
    low, high = np.quantile(deltas, [0.025, 0.975])
    assert (c.result.effect.interval.low, c.result.effect.interval.high) == pytest.approx((low, high), rel=1e-9)
    p = (1 + np.sum(np.abs(deltas - observed) >= abs(observed))) / 501
    assert c.result.pvalue == pytest.approx(p, rel=1e-12)
    better = "ridge" if observed < 0 else "forest"
    words = {"mae": "mean absolute error", "rmse": "root mean squared error"}[key]
    assert c.sentence.startswith(f"{better}'s {words} is lower than ") and "(progression units) on 60 samples" in \
        c.sentence


def test_friedman_on_the_mae_per_fold_and_per_series_is_scipys():
    import pandas as pd
    from assess.inputs.read import read_table
    from assess.inputs.assessment import describe
    for sample, block in (("diabetes_regression", "fold"), ("monthly_forecasts", "series")):
        frame = pd.read_csv(f"assets/samples/{sample}.csv")
        frame["abs"] = (frame.y_true - frame.y_pred).abs()
        table = frame.pivot_table(index=block, columns="model", values="abs", aggfunc="mean")
        a = describe(read_table(f"assets/samples/{sample}.csv"))
        c = compare({m: a.predictions(m) for m in a.models}, test="friedman", metric="mae")
        ref = sps.friedmanchisquare(*(table[m] for m in a.models))
        assert c.result.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert c.result.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
        ranks = table.rank(axis=1).mean()                              # rank 1 = the lowest MAE
        for m, r in c.result.details.average_ranks.items():
            assert r == pytest.approx(ranks[m])
        words = {"fold": "Over 5 folds, ", "series": "Over 2 series, "}
        assert c.sentence.startswith(words[block] + ranks.idxmin() + " ranks best on mean absolute error")  # display name
