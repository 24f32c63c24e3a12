"""Operating points, decile tables and matrices of assess.analyses.operating_points against brute force and scikit-learn."""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix as sk_confusion
from sklearn import metrics as skm
from sklearn.metrics import multilabel_confusion_matrix, roc_auc_score

from assess import curves
from assess.core.data import Predictions, Task
from assess.core.decision import Decision
from assess.core.errors import AssessError
from assess.analyses.operating_points import (binary_matrix, fold_curves, gain_table,
                            multilabel_matrices, one_vs_rest, suggested_thresholds)
from assess.metrics.threshold import metrics_at


def data(seed, n=300, ties=False):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(np.int8)
    s = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1)
    if ties:
        s = np.round(s, 1)
    return y, s


def brute(y, s, threshold):
    p = s >= threshold
    return int((y & p).sum()), int((~y.astype(bool) & p).sum())


@settings(max_examples=40, deadline=None)
# found by random runs: two scores 6e-7 apart, so np.isclose picked the neighbour of the suggested threshold
@example(69, False, 1.0, 1.0)
@given(st.integers(0, 10_000), st.booleans(), st.floats(0.1, 10), st.floats(0.1, 10))
def test_suggestions_are_the_brute_force_optima(seed, ties, cost_fp, cost_fn):
    y, s = data(seed, ties=ties)
    counts = curves.threshold_counts(y, s)
    found = {g.key: g.threshold for g in suggested_thresholds(counts, cost_fp=cost_fp, cost_fn=cost_fn,
                                                              target_precision=0.6, target_recall=0.8)}
    candidates = np.unique(s)
    n_pos, n_neg = y.sum(), (1 - y).sum()
    stats = []
    for t in candidates:
        tp, fp = brute(y, s, t)
        fn = n_pos - tp
        stats.append((t, tp / n_pos - fp / n_neg, 2 * tp / (2 * tp + fp + fn), cost_fp * fp + cost_fn * fn,
                      tp / (tp + fp) if tp + fp else np.nan, tp / n_pos))
    stats = np.array(stats)
    # the brute-force optimum value must equal the value at the suggested threshold
    # suggested thresholds are score values: look them up exactly (scores can lie closer than np.isclose's 1e-5)
    at = {k: stats[np.flatnonzero(stats[:, 0] == t)[0]] for k, t in found.items() if t <= candidates.max()}
    assert at["youden"][1] == pytest.approx(stats[:, 1].max())
    assert at["max_fbeta"][2] == pytest.approx(np.nanmax(stats[:, 2]))
    best_cost = min(stats[:, 3].min(), cost_fn * n_pos)
    cost_at = at["min_cost"][3] if "min_cost" in at else cost_fn * n_pos
    assert cost_at == pytest.approx(best_cost)
    ok_p = stats[stats[:, 4] >= 0.6]
    if len(ok_p):
        assert at["target_precision"][5] == pytest.approx(ok_p[:, 5].max())  # the most recall meeting the target
    ok_r = stats[stats[:, 5] >= 0.8]
    assert at["target_recall"][4] == pytest.approx(np.nanmax(ok_r[:, 4]))


def test_metrics_at_matches_counting_and_sklearn():
    y, s = data(3)
    counts = curves.threshold_counts(y, s)
    for t in (0.2, 0.5, 0.77):
        m = metrics_at(counts, t, ("tp", "fp", "tn", "fn", "precision", "recall", "specificity", "f1", "accuracy",
                                   "mcc", "cohen_kappa", "lr_plus"))
        pred = s >= t
        tn, fp, fn, tp = sk_confusion(y, pred).ravel()
        assert (m["tp"], m["fp"], m["tn"], m["fn"]) == (tp, fp, tn, fn)
        np.testing.assert_array_equal(binary_matrix(counts, t), [[tn, fp], [fn, tp]])
        expected = {"precision": skm.precision_score(y, pred), "recall": skm.recall_score(y, pred),
                    "specificity": skm.recall_score(y, pred, pos_label=0), "f1": skm.f1_score(y, pred),
                    "accuracy": skm.accuracy_score(y, pred), "mcc": skm.matthews_corrcoef(y, pred),
                    "cohen_kappa": skm.cohen_kappa_score(y, pred),
                    "lr_plus": skm.class_likelihood_ratios(y, pred)[0], "predicted_positive_fraction": pred.mean()}
        for key, value in expected.items():
            assert m[key] == pytest.approx(value, abs=1e-12), key


def test_metrics_at_is_nan_where_undefined():
    counts = curves.threshold_counts([0, 1, 1], [0.2, 0.5, 0.7])
    m = metrics_at(counts, 0.9)                        # nothing predicted positive
    assert m["tp"] == 0 and np.isnan(m["precision"]) and m["recall"] == 0 and m["predicted_positive_fraction"] == 0


@pytest.mark.parametrize("ties", [False, True])
def test_gain_table_against_sorting(ties):
    y, s = data(5, n=1000, ties=ties)
    table = gain_table(curves.threshold_counts(y, s), bins=10)
    order = np.argsort(-s, kind="stable")
    if not ties:  # distinct scores: the top 10 % are exactly the 100 highest
        cum = np.cumsum(y[order])[np.arange(100, 1001, 100) - 1]
        np.testing.assert_allclose(table["cumulative_positives"], cum)
    else:  # tied blocks are shared pro rata: the expectation over random orders of the ties
        rng = np.random.default_rng(0)
        sims = []
        for _ in range(400):
            perm = np.lexsort((rng.random(len(s)), -s))
            sims.append(np.cumsum(y[perm])[np.arange(100, 1001, 100) - 1])
        np.testing.assert_allclose(table["cumulative_positives"], np.mean(sims, axis=0), atol=1.0)
    assert table["cumulative_gain"].iloc[-1] == pytest.approx(1.0)
    np.testing.assert_allclose(table["cumulative_lift"], table["cumulative_gain"] / table["top_share"])
    assert table["positives"].sum() == pytest.approx(y.sum())


def test_multilabel_matrices_match_sklearn():
    rng = np.random.default_rng(1)
    truth, pred = rng.random((200, 3)) < 0.4, rng.random((200, 3)) < 0.5
    ml = Predictions(Task.MULTILABEL, ("a", "b", "c"), truth, pred)
    np.testing.assert_array_equal(multilabel_matrices(ml), multilabel_confusion_matrix(truth, pred))


def test_fold_curves_and_one_vs_rest():
    y, s = data(9, n=500)
    folds = np.array([str(i % 5 + 1) for i in range(500)], dtype=object)
    pred = Predictions(Task.BINARY, ("no", "yes"), y, None, s, fold=folds, model="m")
    aucs = [c.area for c in fold_curves(pred)]
    assert aucs == pytest.approx([roc_auc_score(y[folds == f], s[folds == f]) for f in "12345"])
    rng = np.random.default_rng(2)
    codes = rng.integers(0, 3, 300)
    proba = rng.dirichlet([1, 1, 1], 300)
    proba[np.arange(300), codes] += 0.3
    proba /= proba.sum(1, keepdims=True)
    ovr = one_vs_rest(Predictions(Task.MULTICLASS, ("a", "b", "c"), codes, None, proba))
    assert ovr.macro_roc_auc == pytest.approx(roc_auc_score(codes, proba, multi_class="ovr", average="macro"))
    onehot = np.eye(3)[codes]
    assert ovr.micro_roc.area == pytest.approx(roc_auc_score(onehot, proba, average="micro"))


def test_multilabel_thresholds_per_label():
    rng = np.random.default_rng(4)
    truth, scores = rng.random((100, 2)) < 0.5, rng.random((100, 2))
    ml = Predictions(Task.MULTILABEL, ("a", "b"), truth, None, scores)
    got = multilabel_matrices(ml, Decision.from_scores(0.5, {"a": 0.3, "b": 0.8}))
    expected = multilabel_confusion_matrix(truth, np.column_stack([scores[:, 0] >= 0.3, scores[:, 1] >= 0.8]))
    np.testing.assert_array_equal(got, expected)


def test_roc_band_is_seeded_ordered_and_holds_the_curve():
    from sklearn.metrics import roc_curve

    from assess.analyses.operating_points import roc_band

    y, s = data(12, n=2000)
    pred = Predictions(Task.BINARY, ("no", "yes"), y, None, s, model="m")
    band = roc_band(pred, n_resamples=100, seed=5)
    again = roc_band(pred, n_resamples=100, seed=5)
    np.testing.assert_array_equal(band.low, again.low)
    assert np.all(band.low <= band.high)
    fpr, tpr, _ = roc_curve(y, s)
    point = np.array([tpr[fpr <= g].max() for g in band.fpr])  # best TPR without exceeding the FPR
    inside = (band.low - 1e-12 <= point) & (point <= band.high + 1e-12)
    assert inside.mean() > 0.95  # the full-data curve sits inside its own pointwise 95 % band almost everywhere
    assert 0 < np.mean(band.high - band.low) < 0.2
    with pytest.raises(ValueError, match=r"`n_resamples` must be an integer >= 10 \(got 3\)"):
        roc_band(pred, n_resamples=3)


def test_gain_table_bins_are_whole_rows():
    """1,707 rows in 10 bins: every bin holds 170 or 171 whole rows (issue 11: "rows 170.7" on screen), and the
    cumulative positives at each edge are those of the top rows counted by sorting (distinct scores)."""
    y, s = data(11, n=1707, ties=False)
    table = gain_table(curves.threshold_counts(y, s), bins=10)
    assert set(table["rows"]) <= {170.0, 171.0} and table["rows"].sum() == 1707
    edges = np.cumsum(table["rows"]).astype(int)
    order = np.argsort(-s, kind="stable")
    np.testing.assert_allclose(table["cumulative_positives"], np.cumsum(y[order])[edges - 1])
    np.testing.assert_allclose(table["top_share"], edges / 1707)


def test_multiclass_binary_views_are_one_class_against_the_rest_and_the_micro_average():
    """scikit-learn oracle: each class's one-vs-rest AUC and AP, and the micro-averaged AUC of the one-hot matrix."""
    from sklearn.metrics import average_precision_score, roc_auc_score

    from assess.analyses.operating_points import MICRO_AVERAGE, binary_view, scored_model

    rng = np.random.default_rng(3)
    proba = rng.dirichlet([1, 1, 1], size=80)
    codes = rng.integers(0, 3, 80)
    w = rng.uniform(0.5, 2, 80)
    pred = Predictions(Task.MULTICLASS, ("a", "b", "c"), codes, None, proba, weight=w, model="m")
    for j, c in enumerate(pred.classes):
        sm = scored_model(binary_view(pred, c))
        assert sm.positive == c
        assert sm.roc.area == pytest.approx(roc_auc_score(codes == j, proba[:, j], sample_weight=w))
        assert sm.pr.area == pytest.approx(average_precision_score(codes == j, proba[:, j], sample_weight=w))
    micro = scored_model(binary_view(pred, MICRO_AVERAGE))
    assert micro.roc.area == pytest.approx(roc_auc_score(np.eye(3)[codes], proba, average="micro", sample_weight=w))
    with pytest.raises(AssessError, match="no class 'z'"):
        binary_view(pred, "z")
