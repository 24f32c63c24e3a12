"""Tests between regression models on per-sample errors: paired t and Wilcoxon (oracles: scipy.stats.ttest_rel and
scipy.stats.wilcoxon on the same absolute or squared errors), sentences in the units of y_true, and the samples."""

import numpy as np
import pytest
from scipy import stats as sps

from assess.data import Predictions, Task
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
    from assess.errors import AssessError
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 200).astype(np.int8)
    fold = np.repeat(np.arange(10), 20).astype(str).astype(object)
    preds = [Predictions(Task.BINARY, ("no", "yes"), y, np.where(rng.random(200) < acc, y, 1 - y).astype(np.int8),
                         fold=fold, model=m) for m, acc in (("A", 0.8), ("B", 0.7))]
    c = compare(preds, test="paired_t", metric="accuracy")
    assert c.result.n == 10
    with pytest.raises(AssessError, match="option `loss` of test `paired_t` applies to numeric predictions"):
        compare(preds, test="paired_t", metric="accuracy", loss="squared")
