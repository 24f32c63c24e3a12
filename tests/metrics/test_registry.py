"""Registry-driven invariance tests, in the manner of scikit-learn's tests/test_common.py.

Every metric of every task is classified below; a metric added to the registry but not to a class here makes
``test_every_registry_metric_is_classified`` fail, and a SPEC key missing from the registry makes
``test_registry_has_every_spec_key`` fail.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn import metrics as skm

from assess.core.data import Predictions, Task
from assess.metrics import GROUPS, evaluate, get, keys_for, metrics_for, table_for

pytestmark = pytest.mark.filterwarnings("ignore")

# ---- the contract: metric keys exactly as SPEC "Tasks and metrics" spells them ----
SPEC_KEYS = {
    Task.BINARY: set("""tp fp tn fn n prevalence accuracy error_rate precision recall specificity fpr fnr npv fdr
        false_omission_rate f1 fbeta balanced_accuracy mcc cohen_kappa informedness markedness lr_plus lr_minus
        diagnostic_odds_ratio roc_auc average_precision pr_auc log_loss brier_score ks_statistic
        kl_divergence""".split()),
    Task.MULTICLASS: set("""accuracy error_rate balanced_accuracy precision_macro precision_micro precision_weighted
        recall_macro recall_micro recall_weighted f1_macro f1_micro f1_weighted fbeta_macro fbeta_micro fbeta_weighted
        cohen_kappa mcc top_k_accuracy roc_auc_ovr roc_auc_ovr_weighted roc_auc_ovo log_loss brier_score
        kl_divergence js_distance total_variation csmf_accuracy cccsmf_accuracy""".split()),
    Task.MULTILABEL: set("""hamming_loss exact_match_ratio jaccard_samples jaccard_macro jaccard_micro jaccard_weighted
        precision_micro precision_macro precision_weighted precision_samples recall_micro recall_macro
        recall_weighted recall_samples f1_micro f1_macro f1_weighted f1_samples label_cardinality label_density
        coverage_error label_ranking_average_precision label_ranking_loss kl_divergence""".split()),
}
SPEC_TABLE = {Task.MULTICLASS: {"precision", "recall", "f1", "specificity", "support", "roc_auc",
                                "average_precision"}}

# ---- invariance classes ----
# counts scale with the weights; every other metric is invariant to rescaling all weights
COUNTS = {Task.BINARY: {"tp", "fp", "tn", "fn", "n"}, Task.MULTICLASS: set(), Task.MULTILABEL: set()}
# depend on the scores only through their order (invariant to a strictly increasing transform of every score)
RANK_ONLY = {
    Task.BINARY: {"roc_auc", "average_precision", "pr_auc", "ks_statistic"},
    Task.MULTICLASS: {"top_k_accuracy", "roc_auc_ovr", "roc_auc_ovr_weighted", "roc_auc_ovo"},
    Task.MULTILABEL: {"coverage_error", "label_ranking_average_precision", "label_ranking_loss"},
}
# read the score values as probabilities
PROBABILISTIC = {Task.BINARY: {"log_loss", "brier_score"}, Task.MULTICLASS: {"log_loss", "brier_score"},
                 Task.MULTILABEL: set()}
# binary: what each metric becomes when the positive and negative classes swap (and scores become 1 - s)
SWAP = {"tp": "tn", "tn": "tp", "fp": "fn", "fn": "fp", "precision": "npv", "npv": "precision",
        "recall": "specificity", "specificity": "recall", "fpr": "fnr", "fnr": "fpr", "fdr": "false_omission_rate",
        "false_omission_rate": "fdr"}
SWAP_SAME = {"n", "accuracy", "error_rate", "balanced_accuracy", "mcc", "cohen_kappa", "informedness", "markedness",
             "diagnostic_odds_ratio", "kl_divergence", "roc_auc", "ks_statistic", "log_loss", "brier_score"}
SWAP_OTHER = {"prevalence": lambda r: 1 - r["prevalence"], "lr_plus": lambda r: 1 / r["lr_minus"],
              "lr_minus": lambda r: 1 / r["lr_plus"]}
SWAP_ASYMMETRIC = {"f1", "fbeta", "average_precision", "pr_auc"}


def label_based(task):
    return set(keys_for(task)) - COUNTS[task] - RANK_ONLY[task] - PROBABILISTIC[task]


# ----------------------------------------------------------------------------------------------------------------
# completeness of the registry and of the classification
# ----------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("task", list(SPEC_KEYS))
def test_registry_has_every_spec_key(task):
    missing = SPEC_KEYS[task] - set(keys_for(task))
    extra = set(keys_for(task)) - SPEC_KEYS[task]
    assert not missing, f"SPEC keys missing from the registry: {sorted(missing)}"
    assert not extra, f"registry keys that SPEC does not name: {sorted(extra)}"


def test_per_class_table_has_the_spec_columns():
    assert SPEC_TABLE[Task.MULTICLASS] <= {c.key for c in table_for(Task.MULTICLASS)}
    assert {c.key for c in table_for(Task.MULTILABEL)} >= {"precision", "recall", "f1", "support"}


@pytest.mark.parametrize("task", list(SPEC_KEYS))
def test_every_registry_metric_is_classified(task):
    keys = set(keys_for(task))
    classified = COUNTS[task] | RANK_ONLY[task] | PROBABILISTIC[task] | label_based(task)
    assert classified == keys
    for a, b in [(COUNTS, RANK_ONLY), (COUNTS, PROBABILISTIC), (RANK_ONLY, PROBABILISTIC)]:
        assert not a[task] & b[task]
    assert RANK_ONLY[task] | PROBABILISTIC[task] == {m.key for m in metrics_for(task) if m.needs != "labels"}
    if task == Task.BINARY:
        swap = set(SWAP) | SWAP_SAME | set(SWAP_OTHER) | SWAP_ASYMMETRIC
        assert swap == keys, f"unclassified for the class swap: {sorted(keys - swap)}"


@pytest.mark.parametrize("spec", [m for t in SPEC_KEYS for m in metrics_for(t)], ids=lambda m: f"{m.task.value}.{m.key}")
def test_registry_entry_is_complete(spec):
    assert spec.name and spec.latex and spec.meaning and spec.source
    assert spec.direction in ("higher", "lower", "none")
    assert spec.needs in ("labels", "scores", "probabilities")
    assert spec.kind in ("count", "proportion", "auc", "row_mean", "other")
    assert spec.group in GROUPS
    assert set(spec.params) <= {"beta", "k", "threshold"}
    assert spec.range[0] < spec.range[1]
    assert (spec.proportion is not None) == (spec.kind == "proportion")
    assert spec.baseline in ("expected", "simulated", "scores")
    assert (spec.baseline == "scores") == (spec.needs != "labels")
    assert callable(spec.compute)


# losses, errors, distances: lower is better (the key stays the SPEC's, e.g. brier_score, but the direction says so)
LOWER_IS_BETTER = {"error_rate", "fpr", "fnr", "fdr", "false_omission_rate", "lr_minus", "log_loss", "brier_score",
                   "kl_divergence", "js_distance", "total_variation", "hamming_loss", "coverage_error",
                   "label_ranking_loss"}


@pytest.mark.parametrize("task", [Task.BINARY, Task.MULTICLASS, Task.MULTILABEL])
def test_losses_errors_and_distances_are_lower_is_better(task):
    wrong = [m.key for m in metrics_for(task) if (m.direction == "lower") != (m.key in LOWER_IS_BETTER)]
    assert not wrong, f"direction disagrees with the metric's meaning: {wrong}"


def test_best_model_mark_follows_the_direction_for_the_brier_score():
    from assess.present.summary import best_models

    y = np.array([0, 0, 1, 1, 1, 0])
    sharp = Predictions(Task.BINARY, ("n", "p"), y, None, np.array([0.1, 0.2, 0.9, 0.8, 0.7, 0.3]), model="sharp")
    vague = Predictions(Task.BINARY, ("n", "p"), y, None, np.array([0.4, 0.45, 0.6, 0.55, 0.5, 0.5]), model="vague")
    reports = {p.model: evaluate(p, ["brier_score", "roc_auc"], baselines=False) for p in (sharp, vague)}
    assert skm.brier_score_loss(y, sharp.scores) < skm.brier_score_loss(y, vague.scores)   # the oracle's ordering
    assert best_models(reports, "brier_score") == {"sharp"}


def test_listing_by_group_and_lookup_errors():
    ranking = [m.key for m in metrics_for(Task.MULTICLASS, group="Ranking")]
    assert ranking == ["top_k_accuracy", "roc_auc_ovr", "roc_auc_ovr_weighted", "roc_auc_ovo"]
    assert {m.key for m in metrics_for("binary", needs="probabilities")} == {"log_loss", "brier_score"}
    with pytest.raises(ValueError, match="unknown binary metric 'f2'; valid keys: tp, fp"):
        get(Task.BINARY, "f2")
    with pytest.raises(ValueError, match="`group` must be one of"):
        metrics_for(Task.BINARY, group="Other")
    with pytest.raises(ValueError, match="`task` must be one of"):
        metrics_for("ranking")


# ----------------------------------------------------------------------------------------------------------------
# data
# ----------------------------------------------------------------------------------------------------------------

def make(task, n=60, seed=0, weight=None):
    rng = np.random.default_rng(seed)
    if task == Task.BINARY:
        y = (rng.random(n) < 0.4).astype(np.int8)
        y[:2] = [0, 1]
        s = np.round(np.clip(rng.normal(0.4 + 0.25 * y, 0.25), 0.01, 0.99), 1)        # ties
        yp = (rng.random(n) < 0.5).astype(np.int8)
        return Predictions(Task.BINARY, ("neg", "pos"), y, yp, s, weight=weight)
    if task == Task.MULTICLASS:
        k = 4
        y = rng.integers(0, k, n)
        y[:k] = np.arange(k)
        P = rng.dirichlet(np.ones(k), n)
        P[np.arange(n), y] += 0.3
        P /= P.sum(axis=1, keepdims=True)
        return Predictions(Task.MULTICLASS, tuple("abcd"), y, None, P, weight=weight)
    L = 4
    Y = rng.random((n, L)) < 0.4
    S = np.round(np.clip(Y * 0.3 + rng.random((n, L)) * 0.7, 0, 1), 1)
    return Predictions(Task.MULTILABEL, tuple("wxyz"), Y, None, S, weight=weight)


def values(pred, **kw):
    return evaluate(pred, baselines=False, **kw).values


def replace(pred, **kw):
    d = dict(task=pred.task, classes=pred.classes, y_true=pred.y_true, y_pred=pred.y_pred, scores=pred.scores,
             weight=pred.weight)
    d.update(kw)
    return Predictions(**d)


def assert_same(a, b, keys, rtol=1e-12):
    for key in keys:
        if np.isnan(a[key]):
            assert np.isnan(b[key]), key
        else:
            assert b[key] == pytest.approx(a[key], rel=rtol, abs=1e-12), key


def take(pred, idx):
    return replace(pred, y_true=pred.y_true[idx], y_pred=None if pred.y_pred is None else pred.y_pred[idx],
                   scores=pred.scores[idx], weight=None if pred.weight is None else pred.weight[idx])


TASKS = [Task.BINARY, Task.MULTICLASS, Task.MULTILABEL]


# ----------------------------------------------------------------------------------------------------------------
# invariances
# ----------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("task", TASKS)
def test_sample_order_does_not_matter(task):
    p = make(task, weight=np.random.default_rng(9).uniform(0.5, 2, 60))
    perm = np.random.default_rng(1).permutation(60)
    assert_same(values(p), values(take(p, perm)), keys_for(task), rtol=1e-10)


@pytest.mark.parametrize("task", TASKS)
def test_unit_weights_equal_no_weights(task):
    p = make(task)
    assert_same(values(p), values(replace(p, weight=np.ones(60))), keys_for(task))


@pytest.mark.parametrize("task", TASKS)
def test_integer_weights_equal_repeated_rows(task):
    w = np.random.default_rng(2).integers(1, 4, 60)
    p = make(task, weight=w.astype(float))
    repeated = take(replace(p, weight=None), np.repeat(np.arange(60), w))
    assert_same(values(p), values(repeated), keys_for(task), rtol=1e-10)


@pytest.mark.parametrize("task", TASKS)
def test_rescaling_all_weights_changes_only_the_counts(task):
    w = np.random.default_rng(3).uniform(0.5, 2, 60)
    a = values(make(task, weight=w))
    b = values(make(task, weight=3.7 * w))
    assert_same(a, b, set(keys_for(task)) - COUNTS[task], rtol=1e-10)
    for key in COUNTS[task]:
        assert b[key] == pytest.approx(3.7 * a[key])


@pytest.mark.parametrize("task", TASKS)
def test_rank_metrics_ignore_monotone_score_transforms(task):
    p = make(task)
    q = replace(p, scores=np.exp(3 * p.scores) - 7.0)        # strictly increasing, leaves [0, 1]
    keys = RANK_ONLY[task]
    assert_same(values(p, keys=list(keys)), values(q, keys=list(keys)), keys, rtol=1e-10)


@pytest.mark.parametrize("task", [task for task in TASKS if PROBABILISTIC[task]])
def test_probabilistic_metrics_do_change_under_a_monotone_transform(task):
    # guards the classification above: log loss / Brier are not rank metrics
    p = make(task)
    q = replace(p, scores=p.scores ** 2)
    a, b = values(p, keys=list(PROBABILISTIC[task])), values(q, keys=list(PROBABILISTIC[task]))
    assert all(a[k] != b[k] for k in PROBABILISTIC[task])


def test_multilabel_scores_count_only_through_their_order_and_the_threshold():
    # Multi-label has no probabilistic metric (PROBABILISTIC is empty), so its scores may enter only through their
    # order (the rank metrics) and through the threshold (0.5) that makes the labels when y_pred is absent. Then a
    # strictly increasing transform that keeps every score on its side of 0.5 changes no metric at all, and one
    # that moves scores across 0.5 changes the label-based metrics: a metric reading score values would break the
    # first check, a threshold ignored would break the second.
    assert not PROBABILISTIC[Task.MULTILABEL]
    p = make(Task.MULTILABEL)
    keeps_side = 0.5 + 2 * (p.scores - 0.5) * np.abs(p.scores - 0.5)     # strictly increasing, fixes 0 / 0.5 / 1
    assert not np.allclose(keeps_side, p.scores)
    assert_same(values(p), values(replace(p, scores=keeps_side)), keys_for(Task.MULTILABEL), rtol=1e-10)
    crosses = replace(p, scores=p.scores ** 2)                          # 0.6 and 0.7 fall below 0.5
    a, b = values(p), values(crosses)
    assert_same(a, b, RANK_ONLY[Task.MULTILABEL], rtol=1e-10)
    assert a["hamming_loss"] != pytest.approx(b["hamming_loss"])


def test_binary_class_swap_maps_metrics_as_classified():
    p = make(Task.BINARY)
    swapped = replace(p, classes=("pos", "neg"), y_true=(1 - p.y_true).astype(np.int8),
                      y_pred=(1 - p.y_pred).astype(np.int8), scores=1 - p.scores)
    a, b = values(p), values(swapped)
    for key, other in SWAP.items():
        assert b[other] == pytest.approx(a[key], rel=1e-12), key
    assert_same(a, b, SWAP_SAME, rtol=1e-10)
    for key, fn in SWAP_OTHER.items():
        assert b[key] == pytest.approx(fn(a), rel=1e-12), key
    assert any(b[k] != pytest.approx(a[k]) for k in SWAP_ASYMMETRIC)


@pytest.mark.parametrize("task", [Task.MULTICLASS, Task.MULTILABEL])
def test_relabelling_classes_permutes_the_table_and_keeps_every_metric(task):
    p = make(task)
    rng = np.random.default_rng(4)
    p = replace(p, scores=np.clip(p.scores + rng.normal(0, 1e-6, p.scores.shape), 0, 1))    # no ties (top-k)
    perm = np.array([2, 0, 3, 1])
    if task == Task.MULTICLASS:
        inv = np.argsort(perm)
        q = replace(p, classes=tuple(np.array(p.classes)[perm]), y_true=inv[p.y_true], scores=p.scores[:, perm])
    else:
        q = replace(p, classes=tuple(np.array(p.classes)[perm]), y_true=p.y_true[:, perm], scores=p.scores[:, perm])
    ra, rb = evaluate(p, baselines=False), evaluate(q, baselines=False)
    assert_same(ra.values, rb.values, keys_for(task), rtol=1e-10)
    np.testing.assert_allclose(ra.table.loc[list(rb.table.index)].to_numpy(), rb.table.to_numpy(), rtol=1e-12)


@pytest.mark.parametrize("task", TASKS)
def test_every_defined_value_lies_in_its_registry_range(task):
    for seed in range(5):
        r = values(make(task, seed=seed, weight=np.random.default_rng(seed).uniform(0.2, 3, 60)))
        for m in metrics_for(task):
            v = r[m.key]
            if np.isfinite(v):
                assert m.range[0] - 1e-12 <= v <= m.range[1] + 1e-12, (m.key, v)


@pytest.mark.parametrize("task", TASKS)
def test_proportion_counts_reproduce_the_value(task):
    from assess.core.decision import decide
    from assess.metrics.binary import binary_state
    from assess.metrics.multiclass import multiclass_state
    from assess.metrics.multilabel import multilabel_state
    w = np.random.default_rng(5).uniform(0.5, 2, 60)
    p = make(task, weight=w)
    labels = decide(p).y_pred
    if task == Task.BINARY:
        st = binary_state(p.y_true, labels, p.scores, w)
    elif task == Task.MULTICLASS:
        st = multiclass_state(p.y_true, labels, p.scores, w, p.classes)
    else:
        st = multilabel_state(p.y_true, labels, p.scores, w, p.classes)
    r = values(p)
    props = [m for m in metrics_for(task) if m.kind == "proportion"]
    assert props
    for m in props:
        x, n, n_eff = m.proportion.counts(st)
        assert x / n == pytest.approx(r[m.key], rel=1e-12), m.key
        assert 0 < n_eff <= n * (1 + 1e-12) or not np.isfinite(r[m.key])


# ----------------------------------------------------------------------------------------------------------------
# bad input is rejected with a clear message
# ----------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("task", TASKS)
def test_nan_and_inf_scores_are_rejected(task):
    p = make(task)
    s = p.scores.astype(float).copy()
    s.flat[3 * (s.shape[1] if s.ndim == 2 else 1)] = np.nan
    with pytest.raises(ValueError, match=r"`scores` has 1 non-finite values \(NaN or infinity; first at row 3: nan\)"):
        evaluate(replace(p, scores=s))
    s.flat[3 * (s.shape[1] if s.ndim == 2 else 1)] = np.inf
    with pytest.raises(ValueError, match=r"first at row 3: inf"):
        evaluate(replace(p, scores=s))


@pytest.mark.parametrize("task", TASKS)
def test_bad_weights_are_rejected(task):
    p = make(task)
    w = np.ones(60)
    w[2] = np.nan
    with pytest.raises(ValueError, match=r"`weight` has 1 non-finite values .*first at row 2: nan"):
        evaluate(replace(p, weight=w))
    w[2] = -1.0
    with pytest.raises(ValueError, match=r"`weight` must be >= 0 \(got 1 negative values, first at row 2: -1.0\)"):
        evaluate(replace(p, weight=w))
    with pytest.raises(ValueError, match="`weight` is zero for every row"):
        evaluate(replace(p, weight=np.zeros(60)))


def test_the_registry_modules_examples_hold():
    """The examples in assess/metrics/registry.py (a metric named with its parameter)."""
    import doctest

    from assess.metrics import registry

    result = doctest.testmod(registry)
    assert result.attempted >= 2 and not result.failed
