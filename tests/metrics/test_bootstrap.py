"""The vectorised bootstrap statistics equal the metrics of each resample (oracle: scikit-learn with the resample
counts as sample weights), and evaluate() picks, labels and seeds its intervals as documented."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assess import curves
from assess.core.data import Predictions, Task
from assess import intervals
from assess.intervals import wilson
from assess.intervals.bootstrap import _poisson_counts
from assess.metrics import evaluate
from assess.metrics import binary, multiclass, multilabel, resampling
from assess.metrics.registry import get, metrics_for

pytestmark = pytest.mark.filterwarnings("ignore")
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SCORE_KEYS = ["roc_auc", "average_precision", "pr_auc", "ks_statistic", "log_loss", "brier_score"]


def sk_score_metrics(y, s, w):
    prec, rec, _ = skm.precision_recall_curve(y, s, sample_weight=w)
    fpr, tpr, _ = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    return [skm.roc_auc_score(y, s, sample_weight=w), skm.average_precision_score(y, s, sample_weight=w),
            skm.auc(rec, prec), np.max(np.abs(tpr - fpr)), skm.log_loss(y, s, sample_weight=w, labels=[0, 1]),
            skm.brier_score_loss(y, s, sample_weight=w)]


@st.composite
def binary_scores(draw):
    n = draw(st.integers(6, 50))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)), dtype=np.int8)
    y[:2] = [0, 1]
    levels = draw(st.integers(2, 8))
    s = np.array(draw(st.lists(st.integers(0, levels), min_size=n, max_size=n))) / levels
    return y, s


def expanded_rows(state):
    """The rows behind the cells of distinct score × class: positives then negatives, each in decreasing score
    order (the order of the cells), with the cell of each row."""
    counts = state.counts
    pos = np.diff(np.rint(counts.tps).astype(int), prepend=0)
    neg = np.diff(np.rint(counts.fps).astype(int), prepend=0)
    sv = np.concatenate([np.repeat(counts.thresholds, pos), np.repeat(counts.thresholds, neg)])
    yv = np.repeat([1, 0], [pos.sum(), neg.sum()])
    cell = np.repeat(np.arange(np.count_nonzero(pos) + np.count_nonzero(neg)), np.concatenate([pos[pos > 0],
                                                                                                neg[neg > 0]]))
    return yv, sv, cell


@SETTINGS
@given(binary_scores(), st.integers(0, 2**32 - 1))
def test_cells_statistic_equals_sklearn_on_the_resampled_rows(data, seed):
    """The grouped bootstrap (cells of distinct score × class) gives each resample the metrics of the row bootstrap
    with the same row counts: the rows' counts summed per cell in, scikit-learn on the rows weighted by them out."""
    y, s = data
    state = binary.binary_state(y, s >= 0.5, s, None)
    specs = [get(Task.BINARY, k) for k in SCORE_KEYS]
    stat, layout = resampling.binary_score_statistic(state, specs, y == 1, s, None)
    yv, sv, cell = expanded_rows(state)
    assert (layout["frequencies"] == np.bincount(cell)).all()
    rows = _poisson_counts(np.random.default_rng(seed), (3, y.size)).astype(np.int64)
    rows[:, [0, -1]] += 1          # row 0 is a positive, the last a negative: both classes in every resample
    got = stat(np.stack([np.bincount(cell, weights=r).astype(np.int64) for r in rows]))
    for j in range(rows.shape[0]):
        np.testing.assert_allclose(got[j], sk_score_metrics(yv, sv, rows[j].astype(float)), rtol=1e-9, atol=1e-12)


def test_grouped_bootstrap_interval_is_the_row_bootstrap_with_the_same_seed():
    """Thousands of cells of one or a few rows each, which the bootstrap would draw row by row: the class is laid
    out as its rows (cells of one row), so the same seed gives the interval of the row bootstrap scored by
    scikit-learn."""
    rng = np.random.default_rng(4)
    y = (rng.random(5000) < 0.4).astype(np.int8)
    s = np.round(1 / (1 + np.exp(-(rng.normal(size=5000) + y))), 4)          # ties, but mostly single rows
    state = binary.binary_state(y, s >= 0.5, s, None)
    specs = [get(Task.BINARY, "average_precision"), get(Task.BINARY, "ks_statistic")]
    stat, layout = resampling.binary_score_statistic(state, specs, y == 1, s, None)
    assert (layout["frequencies"] == 1).all() and layout["frequencies"].size == y.size          # the row path
    grouped = intervals.bootstrap_ci(stat, n_resamples=60, seed=9, **layout)
    yv, sv, _ = expanded_rows(state)

    def by_rows(c):
        return np.array([sk_score_metrics(yv, sv, r.astype(float))[1:4:2] for r in c])
    rows = intervals.bootstrap_ci(by_rows, strata=yv, n_resamples=60, seed=9)
    for a, b in zip(grouped.intervals, rows.intervals):
        assert (a.low, a.high) == pytest.approx((b.low, b.high), rel=1e-9)
    assert grouped.scheme == rows.scheme == "multinomial"


def test_few_cells_are_drawn_as_one_multinomial_and_agree_with_the_rows():
    """A tree's scores (8 levels, 20,000 rows): a multinomial over the 16 cells, the row bootstrap's distribution —
    its interval within Monte-Carlo error of the row bootstrap's (scikit-learn on the rows)."""
    rng = np.random.default_rng(5)
    y = (rng.random(20_000) < 0.3).astype(np.int8)
    s = np.clip(np.round(rng.normal(0.3 + 0.3 * y, 0.2) * 8) / 8, 0, 1)
    state = binary.binary_state(y, s >= 0.5, s, None)
    stat, layout = resampling.binary_score_statistic(state, [get(Task.BINARY, "average_precision")], y == 1, s, None)
    assert layout["frequencies"].size <= 20
    grouped = intervals.bootstrap_ci(stat, n_resamples=2000, seed=1, **layout).interval
    yv, sv, _ = expanded_rows(state)

    def by_rows(c):
        return np.array([skm.average_precision_score(yv, sv, sample_weight=r) for r in c])
    rows = intervals.bootstrap_ci(by_rows, strata=yv, n_resamples=400, seed=2).interval
    width = rows.high - rows.low
    assert grouped.low == pytest.approx(rows.low, abs=0.1 * width)
    assert grouped.high == pytest.approx(rows.high, abs=0.1 * width)


@SETTINGS
@given(binary_scores(), st.integers(0, 2**32 - 1))
def test_weighted_rows_statistic_equals_sklearn_on_each_resample(data, seed):
    y, s = data
    rng = np.random.default_rng(seed)
    w = rng.uniform(0.2, 3.0, y.size)
    state = binary.binary_state(y, s >= 0.5, s, w)
    specs = [get(Task.BINARY, k) for k in SCORE_KEYS]
    stat, layout = resampling.binary_score_statistic(state, specs, y == 1, s, w)
    c = rng.integers(0, 3, (3, y.size))
    c[:, :2] += 1
    order = np.concatenate([np.flatnonzero(y == 1), np.flatnonzero(y == 0)])     # the statistic's row layout
    assert (layout["strata"] == y[order]).all()
    got = stat(c[:, order])
    for j in range(3):
        np.testing.assert_allclose(got[j], sk_score_metrics(y, s, c[j] * w), rtol=1e-9, atol=1e-12)


def test_binary_label_statistics_are_the_metrics_of_the_resampled_cells():
    rng = np.random.default_rng(0)
    y = (rng.random(300) < 0.4).astype(np.int8)
    yp = (rng.random(300) < 0.5).astype(np.int8)
    w = rng.uniform(0.5, 2, 300)
    keys = ["accuracy", "f1", "mcc", "lr_plus", "kl_divergence"]
    specs = [get(Task.BINARY, k) for k in keys]
    state = binary.binary_state(y, yp, None, w)
    stat, _ = resampling.binary_cells_statistic(state, specs, y == 1, yp == 1, w)
    c = rng.integers(0, 4, (2, 300))
    got = stat(c)
    for j in range(2):
        ref = evaluate(Predictions(Task.BINARY, ("n", "p"), y, yp, weight=c[j] * w), keys=keys, baselines=False)
        np.testing.assert_allclose(got[j], [ref[k].value for k in keys], rtol=1e-9)


def test_multiclass_statistics_are_the_metrics_of_the_reweighted_rows():
    rng = np.random.default_rng(1)
    n, k = 200, 4
    y = rng.integers(0, k, n)
    P = rng.dirichlet(np.ones(k), n)
    yp = np.argmax(P, axis=1)
    w = rng.uniform(0.5, 2, n)
    label_keys = ["accuracy", "f1_macro", "mcc", "cohen_kappa", "js_distance", "csmf_accuracy"]
    score_keys = ["top_k_accuracy", "roc_auc_ovr", "roc_auc_ovr_weighted", "roc_auc_ovo", "log_loss", "brier_score"]
    rankings = [curves.rank_scores(P[:, c]) for c in range(k)]
    state = multiclass.multiclass_state(y, yp, P, w, tuple("abcd"), rankings=rankings, need_ovo=True)
    lstat, _ = resampling.multiclass_cells_statistic(state, [get(Task.MULTICLASS, x) for x in label_keys], y, yp, w)
    sstat, _ = resampling.multiclass_score_statistic(state, [get(Task.MULTICLASS, x) for x in score_keys], y, P, w,
                                             rankings)
    c = rng.integers(0, 3, (2, n))
    gl, gs = lstat(c), sstat(c)
    for j in range(2):
        ref = evaluate(Predictions(Task.MULTICLASS, tuple("abcd"), y, None, P, weight=c[j] * w),
                       keys=label_keys + score_keys, baselines=False)
        np.testing.assert_allclose(gl[j], [ref[x].value for x in label_keys], rtol=1e-9)
        np.testing.assert_allclose(gs[j], [ref[x].value for x in score_keys], rtol=1e-9)


def test_multilabel_statistic_is_the_metrics_of_the_reweighted_rows():
    rng = np.random.default_rng(2)
    n, L = 120, 4
    Y = rng.random((n, L)) < 0.4
    S = np.clip(Y * 0.3 + rng.random((n, L)) * 0.7, 0, 1)
    keys = [m.key for m in metrics_for(Task.MULTILABEL)]
    state = multilabel.multilabel_state(Y, S >= 0.5, S, None, tuple("abcd"))
    stat, _ = resampling.multilabel_statistic(state, [get(Task.MULTILABEL, x) for x in keys], Y, S >= 0.5, S, None)
    c = rng.integers(0, 3, (2, n))
    got = stat(c)
    for j in range(2):
        ref = evaluate(Predictions(Task.MULTILABEL, tuple("abcd"), Y, None, S, weight=c[j].astype(float)),
                       keys=keys, baselines=False)
        np.testing.assert_allclose(got[j], [ref[x].value for x in keys], rtol=1e-9, equal_nan=True)


# ----------------------------------------------------------------------------------------------------------------
# evaluate(): method choice, labels, seeds
# ----------------------------------------------------------------------------------------------------------------

def _binary(n=400, seed=0, weight=False):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.35).astype(np.int8)
    s = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1)
    w = rng.uniform(0.5, 2, n) if weight else None
    return Predictions(Task.BINARY, ("neg", "pos"), y, None, s, weight=w)


def test_auto_picks_wilson_delong_and_bootstrap():
    r = evaluate(_binary(), ci="auto", n_resamples=200, baselines=False)
    assert r["accuracy"].method == "wilson"
    assert r["roc_auc"].method == "delong"
    assert r["f1"].method.startswith("bootstrap-percentile (200 resamples, seed 0")
    assert r["tp"].method is None and np.isnan(r["tp"].low)
    x = r["precision"]
    ref = wilson(r["tp"].value, r["tp"].value + r["fp"].value)
    assert (x.low, x.high) == (ref.low, ref.high)


def test_weighted_auto_uses_effective_n_and_bootstraps_the_auc():
    r = evaluate(_binary(weight=True), ci="auto", n_resamples=100, baselines=False)
    assert r["accuracy"].method == "wilson (Kish effective n)"
    assert r["roc_auc"].method.startswith("bootstrap")
    d = evaluate(_binary(weight=True), ci="delong", n_resamples=100, baselines=False)
    assert d["roc_auc"].method.endswith("DeLong needs unweighted data")


def test_a_proportion_method_leaves_other_metrics_without_interval_and_says_so():
    r = evaluate(_binary(), ci="clopper-pearson", baselines=False)
    assert r["recall"].method == "clopper-pearson"
    assert r["f1"].method is None and "applies to proportions only" in r["f1"].note


def test_bootstrap_intervals_are_reproducible_and_seed_dependent():
    a = evaluate(_binary(), ci="bootstrap", n_resamples=300, seed=5, baselines=False)
    b = evaluate(_binary(), ci="bootstrap", n_resamples=300, seed=5, baselines=False)
    c = evaluate(_binary(), ci="bootstrap", n_resamples=300, seed=6, baselines=False)
    assert a.to_dict(with_ci=True) == b.to_dict(with_ci=True)
    assert a["f1"].low != c["f1"].low
    for key in ("f1", "roc_auc", "log_loss", "accuracy"):
        assert a[key].low <= a[key].value <= a[key].high


def test_bootstrap_auc_interval_is_close_to_delong():
    p = _binary(n=3000, seed=3)
    boot = evaluate(p, keys=["roc_auc"], ci="bootstrap", n_resamples=2000, baselines=False)["roc_auc"]
    dl = evaluate(p, keys=["roc_auc"], ci="delong", baselines=False)["roc_auc"]
    assert boot.low == pytest.approx(dl.low, abs=0.006)
    assert boot.high == pytest.approx(dl.high, abs=0.006)


def test_progress_reaches_one_across_runs():
    seen = []
    evaluate(_binary(), ci="bootstrap", n_resamples=100, progress=seen.append, baselines=False)
    assert seen == sorted(seen) and seen[-1] == pytest.approx(1.0)


RANK_KEYS = ["average_precision", "pr_auc", "ks_statistic"]


def test_auto_stops_the_rank_bootstrap_early_on_a_large_file_and_says_so():
    """200,000 rows of distinct scores: the KS statistic's bootstrap distribution is narrow (interval width under
    0.01), so under "auto" the sequential rule stops before its maximum of 1,000, at one of its looks (200, 300,
    450, 700), with every bound's Monte-Carlo error below 0.0005; the same call twice gives the same output. Average
    precision and PR AUC of such scores are not resampled at all (the delta method,
    tests/intervals/test_precision_area.py)."""
    p = _binary(n=200_000, seed=9)
    a = evaluate(p, keys=RANK_KEYS, ci="auto", baselines=False)
    b = evaluate(p, keys=RANK_KEYS, ci="auto", baselines=False)
    assert a.to_dict(with_ci=True) == b.to_dict(with_ci=True)
    how = a["ks_statistic"].how
    assert how.n_resamples in (200, 300, 450, 700)
    assert how.stopped_below == 0.0005 and how.mc_error < 0.0005
    assert a["ks_statistic"].method.startswith(f"bootstrap-percentile ({how.n_resamples} resamples, seed 0, ")
    assert "stopped: Monte-Carlo error of the bounds" in a["ks_statistic"].method
    assert [a[key].how.key for key in RANK_KEYS[:2]] == ["delta-method", "delta-method"]
    for key in RANK_KEYS:
        assert a[key].low <= a[key].value <= a[key].high
    explicit = evaluate(p, keys=RANK_KEYS, ci="bootstrap", baselines=False)
    assert all(explicit[k].how.n_resamples == 1000 and explicit[k].how.mc_error is None for k in RANK_KEYS)


def test_auto_runs_the_bootstrap_to_the_maximum_on_a_small_file():
    r = evaluate(_binary(n=300, seed=9), keys=RANK_KEYS, ci="auto", n_resamples=700, baselines=False)
    for key in RANK_KEYS:
        how = r[key].how
        assert how.n_resamples == 700 and how.stopped_below is None and how.mc_error > 0.0005
        assert f"Monte-Carlo error of the bounds {how.mc_error:.2g})" in r[key].method


def test_progress_reaches_one_when_the_rule_stops_early():
    seen = []
    evaluate(_binary(n=200_000, seed=9), keys=RANK_KEYS, ci="auto", progress=seen.append, baselines=False)
    assert seen == sorted(seen) and seen[-1] == pytest.approx(1.0)


def test_multiclass_and_multilabel_bootstrap_cover_the_point_values():
    rng = np.random.default_rng(4)
    n, k = 300, 3
    y = rng.integers(0, k, n)
    P = rng.dirichlet(np.ones(k), n)
    P[np.arange(n), y] += 0.3
    P /= P.sum(axis=1, keepdims=True)
    r = evaluate(Predictions(Task.MULTICLASS, tuple("abc"), y, None, P), ci="auto", n_resamples=200, baselines=False)
    for res in r.results:
        if res.method and res.defined:
            assert res.low <= res.value <= res.high, res.key
    Y = rng.random((n, 3)) < 0.4
    S = np.clip(Y * 0.4 + rng.random((n, 3)) * 0.6, 0, 1)
    r = evaluate(Predictions(Task.MULTILABEL, tuple("xyz"), Y, None, S), ci="bootstrap", n_resamples=100,
                 baselines=False)
    for res in r.results:
        if res.defined:
            assert res.low <= res.value <= res.high, res.key
