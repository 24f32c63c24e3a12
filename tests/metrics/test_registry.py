"""Registry-driven invariance tests, in the manner of scikit-learn's tests/test_common.py.

Every metric of every task (all six: binary, multi-class, multi-label, regression, forecast, clustering) is
classified below; a metric added to the registry but not to a class here makes
``test_every_registry_metric_is_classified`` fail (the check is proved on toy registries), and a SPEC key missing
from the registry makes ``test_registry_has_every_spec_key`` fail. Each invariance is checked against what the
transformation must do (nothing, scale by a known factor, or map one metric onto another), never against a value
the code under test computed some other way; where an invariance does not hold for a task, the test says why.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from sklearn import metrics as skm

from assess.core.data import Predictions, Task
from assess.metrics import GROUPS, evaluate, get, keys_for, metrics_for, registry, table_for

pytestmark = pytest.mark.filterwarnings("ignore")

# ---- the contract: metric keys exactly as SPEC "Tasks and metrics" spells them ----
SPEC_KEYS = {
    Task.BINARY: set("""tp fp tn fn n prevalence accuracy error_rate precision recall specificity fpr fnr npv fdr
        false_omission_rate f1 fbeta balanced_accuracy mcc cohen_kappa informedness markedness lr_plus lr_minus
        diagnostic_odds_ratio roc_auc average_precision pr_auc log_loss brier_score ks_statistic
        kl_divergence""".split()) | {"ece"},   # ece: beyond SPEC's list (issue 33 §2), in docs/tasks/binary.md
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
# Every metric of every task sits in exactly one class of its task's partition (PARTITION below); the invariance
# tests read the classes, and ``misclassified`` reports a metric that is in no class (or two, or a class names a key
# the registry does not have) — proved on a toy registry in test_the_classification_check_reports_...
CLASSIFICATION = (Task.BINARY, Task.MULTICLASS, Task.MULTILABEL)
NUMERIC = (Task.REGRESSION, Task.FORECAST)
TASKS = list(registry.TASKS)
# counts scale with the weights; every other metric is invariant to rescaling all weights (but clustering's
# SIZE_DEPENDENT)
COUNTS = {Task.BINARY: {"tp", "fp", "tn", "fn", "n"}, Task.MULTICLASS: set(), Task.MULTILABEL: set(),
          Task.REGRESSION: {"sse"}, Task.FORECAST: {"sse"}, Task.CLUSTERING: set()}
# depend on the scores only through their order (invariant to a strictly increasing transform of every score)
RANK_ONLY = {
    Task.BINARY: {"roc_auc", "average_precision", "pr_auc", "ks_statistic"},
    Task.MULTICLASS: {"top_k_accuracy", "roc_auc_ovr", "roc_auc_ovr_weighted", "roc_auc_ovo"},
    Task.MULTILABEL: {"coverage_error", "label_ranking_average_precision", "label_ranking_loss"},
}
# read the score values as probabilities
PROBABILISTIC = {Task.BINARY: {"log_loss", "brier_score", "ece"}, Task.MULTICLASS: {"log_loss", "brier_score"},
                 Task.MULTILABEL: set()}
# read only the labels (y_pred, or the labels the decision makes from the scores), listed by hand: a new label
# metric must be placed here, or the classification check names it
LABEL_BASED = {
    Task.BINARY: {"prevalence", "accuracy", "error_rate", "precision", "recall", "specificity", "fpr", "fnr", "npv",
                  "fdr", "false_omission_rate", "f1", "fbeta", "balanced_accuracy", "mcc", "cohen_kappa",
                  "informedness", "markedness", "lr_plus", "lr_minus", "diagnostic_odds_ratio", "kl_divergence"},
    Task.MULTICLASS: {"accuracy", "error_rate", "balanced_accuracy", "precision_macro", "precision_micro",
                      "precision_weighted", "recall_macro", "recall_micro", "recall_weighted", "f1_macro", "f1_micro",
                      "f1_weighted", "fbeta_macro", "fbeta_micro", "fbeta_weighted", "cohen_kappa", "mcc",
                      "kl_divergence", "js_distance", "total_variation", "csmf_accuracy", "cccsmf_accuracy"},
    Task.MULTILABEL: {"hamming_loss", "exact_match_ratio", "jaccard_samples", "jaccard_macro", "jaccard_micro",
                      "jaccard_weighted", "precision_micro", "precision_macro", "precision_weighted",
                      "precision_samples", "recall_micro", "recall_macro", "recall_weighted", "recall_samples",
                      "f1_micro", "f1_macro", "f1_weighted", "f1_samples", "label_cardinality", "label_density",
                      "kl_divergence"},
}
# binary: what each metric becomes when the positive and negative classes swap (and scores become 1 - s)
SWAP = {"tp": "tn", "tn": "tp", "fp": "fn", "fn": "fp", "precision": "npv", "npv": "precision",
        "recall": "specificity", "specificity": "recall", "fpr": "fnr", "fnr": "fpr", "fdr": "false_omission_rate",
        "false_omission_rate": "fdr"}
SWAP_SAME = {"n", "accuracy", "error_rate", "balanced_accuracy", "mcc", "cohen_kappa", "informedness", "markedness",
             "diagnostic_odds_ratio", "kl_divergence", "roc_auc", "ks_statistic", "log_loss", "brier_score", "ece"}
SWAP_OTHER = {"prevalence": lambda r: 1 - r["prevalence"], "lr_plus": lambda r: 1 / r["lr_minus"],
              "lr_minus": lambda r: 1 / r["lr_plus"]}
SWAP_ASYMMETRIC = {"f1", "fbeta", "average_precision", "pr_auc"}
# regression and forecasts: the power of the unit of y each metric carries. Multiplying y_true, y_pred (and the
# interval) by c > 0 multiplies the metric by c ** degree; adding a constant to all of them leaves every metric but
# the RELATIVE ones unchanged (they divide by |y|)
UNITS = {"mae": 1, "mse": 2, "rmse": 1, "sse": 2, "max_error": 1, "median_absolute_error": 1, "mean_error": 1,
         "mape": 0, "smape": 0, "mspe": 0, "rmspe": 0, "r2": 0, "explained_variance": 0,
         "mase": 0, "mase_seasonal": 0, "coverage": 0, "interval_width": 1, "winkler_score": 1, "pinball_loss": 1,
         "skill_naive": 0, "skill_seasonal_naive": 0, "skill_drift": 0}
RELATIVE = {"mape", "smape", "mspe", "rmspe"}
FORECAST_ONLY = {"mase", "mase_seasonal", "coverage", "interval_width", "winkler_score", "pinball_loss",
                 "skill_naive", "skill_seasonal_naive", "skill_drift"}
# clustering, external indices: what each becomes when the reference classes and the clusters trade places
CLUSTER_SWAP = {"adjusted_rand_index": "adjusted_rand_index", "rand_index": "rand_index",
                "fowlkes_mallows": "fowlkes_mallows", "purity": "inverse_purity", "inverse_purity": "purity",
                "homogeneity": "completeness", "completeness": "homogeneity", "v_measure": "v_measure",
                "normalized_mutual_info": "normalized_mutual_info", "adjusted_mutual_info": "adjusted_mutual_info"}
# clustering, internal indices: read the features and the clusters only (never the reference, never the weights)
INTERNAL = {"silhouette", "davies_bouldin", "calinski_harabasz"}
# clustering: depend on the total weight, not only on the shares of the contingency table — pairs are counted as
# n_ij (n_ij - 1) / 2, and AMI's expected mutual information depends on n — so rescaling every weight, or
# duplicating every row, changes them
SIZE_DEPENDENT = {"adjusted_rand_index", "rand_index", "fowlkes_mallows", "adjusted_mutual_info"}


def partition(task) -> list[set]:
    """The classes that together must hold every metric of ``task``, each exactly once."""
    if task in CLASSIFICATION:
        return [COUNTS[task], RANK_ONLY[task], PROBABILISTIC[task], LABEL_BASED[task]]
    if task in NUMERIC:
        return [{k for k, d in UNITS.items() if d == degree and (task is Task.FORECAST or k not in FORECAST_ONLY)}
                for degree in sorted(set(UNITS.values()))]
    return [set(CLUSTER_SWAP), INTERNAL]


def misclassified(task, specs) -> list[str]:
    """What is wrong with the classification of ``specs`` (the registry entries of ``task``): one sentence per
    metric in no class or in two, per class member the registry lacks, and per class that disagrees with what the
    entry says it needs. Empty when every metric is classified."""
    keys = {m.key for m in specs}
    classes = partition(task)
    problems = [f"{k}: in no invariance class" for k in sorted(keys - set().union(*classes))]
    problems += [f"{k}: in two invariance classes" for i, a in enumerate(classes) for b in classes[i + 1:]
                 for k in sorted(a & b)]
    problems += [f"{k}: classified but not in the registry" for k in sorted(set().union(*classes) - keys)]
    needs = {m.key: m.needs for m in specs}
    if task in CLASSIFICATION:
        reads_scores = RANK_ONLY[task] | PROBABILISTIC[task]
        problems += [f"{k}: needs {needs[k]}, classified as reading the scores" for k in sorted(reads_scores & keys)
                     if needs[k] == "labels"]
        problems += [f"{k}: needs {needs[k]}, classified as reading the labels" for k in
                     sorted((LABEL_BASED[task] | COUNTS[task]) & keys) if needs[k] != "labels"]
    if task is Task.BINARY:
        swap = set(SWAP) | SWAP_SAME | set(SWAP_OTHER) | SWAP_ASYMMETRIC
        problems += [f"{k}: unclassified for the class swap" for k in sorted(keys - swap)]
    if task is Task.CLUSTERING:
        problems += [f"{k}: needs {needs[k]}, classified as {'internal' if k in INTERNAL else 'external'}"
                     for k in sorted(keys & (set(CLUSTER_SWAP) | INTERNAL))
                     if (needs[k] == "features") != (k in INTERNAL)]
    return problems


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


@pytest.mark.parametrize("task", TASKS)
def test_every_registry_metric_is_classified(task):
    assert misclassified(task, metrics_for(task)) == []


def toy_metric(task, key, needs):
    """A registry entry that exists only in this test (a copy of a real one under a new key)."""
    real = next(m for m in metrics_for(task) if m.needs == needs)
    return dataclasses.replace(real, key=key, name=key)


def test_the_classification_check_reports_an_unclassified_multiclass_label_metric():
    # The classification once derived the label metrics as "every key not in another class", so a new multi-class
    # label metric was classified by construction and this check could not fail for it.
    toy = [*metrics_for(Task.MULTICLASS), toy_metric(Task.MULTICLASS, "toy_label_share", "labels")]
    assert misclassified(Task.MULTICLASS, toy) == ["toy_label_share: in no invariance class"]


@pytest.mark.parametrize("task, needs", [(Task.BINARY, "labels"), (Task.MULTILABEL, "scores"),
                                         (Task.REGRESSION, "values"), (Task.FORECAST, "intervals"),
                                         (Task.CLUSTERING, "reference"), (Task.CLUSTERING, "features")])
def test_the_classification_check_reports_an_unclassified_metric_of_every_task(task, needs):
    toy = [*metrics_for(task), toy_metric(task, "toy_metric", needs)]
    problems = misclassified(task, toy)
    assert problems and all(p.startswith("toy_metric: ") for p in problems)
    assert "toy_metric: in no invariance class" in problems
    if task is Task.BINARY:
        assert "toy_metric: unclassified for the class swap" in problems


def test_the_classification_check_reports_stale_and_contradicting_classes():
    without_accuracy = [m for m in metrics_for(Task.MULTICLASS) if m.key != "accuracy"]
    assert misclassified(Task.MULTICLASS, without_accuracy) == ["accuracy: classified but not in the registry"]
    # top_k_accuracy is classified as a rank metric; an entry that says it needs only labels contradicts that
    as_label = [dataclasses.replace(m, needs="labels") if m.key == "top_k_accuracy" else m
                for m in metrics_for(Task.MULTICLASS)]
    assert misclassified(Task.MULTICLASS, as_label) == ["top_k_accuracy: needs labels, classified as reading the "
                                                        "scores"]
    as_internal = [dataclasses.replace(m, needs="features") if m.key == "purity" else m
                   for m in metrics_for(Task.CLUSTERING)]
    assert misclassified(Task.CLUSTERING, as_internal) == ["purity: needs features, classified as external"]


@pytest.mark.parametrize("spec", [m for t in SPEC_KEYS for m in metrics_for(t)],
                         ids=lambda m: f"{m.task.value}.{m.key}")
def test_registry_entry_is_complete(spec):
    assert spec.name and spec.latex and spec.meaning and spec.source
    assert spec.direction in ("higher", "lower", "none")
    assert spec.needs in ("labels", "scores", "probabilities")
    assert spec.kind in ("count", "proportion", "auc", "row_mean", "binned", "other")
    assert spec.group in GROUPS
    assert set(spec.params) <= {"beta", "k", "threshold"}
    assert spec.range[0] < spec.range[1]
    assert (spec.proportion is not None) == (spec.kind == "proportion")
    assert spec.baseline in ("expected", "simulated", "scores")
    assert (spec.baseline == "scores") == (spec.needs != "labels")
    assert callable(spec.compute)


# losses, errors, distances: lower is better (the key stays the SPEC's, e.g. brier_score, but the direction says so)
LOWER_IS_BETTER = {"error_rate", "fpr", "fnr", "fdr", "false_omission_rate", "lr_minus", "log_loss", "brier_score", "ece",
                   "kl_divergence", "js_distance", "total_variation", "hamming_loss", "coverage_error",
                   "label_ranking_loss", "mae", "mse", "rmse", "sse", "max_error", "median_absolute_error", "mape",
                   "smape", "mspe", "rmspe", "mase", "mase_seasonal", "interval_width", "winkler_score",
                   "pinball_loss", "davies_bouldin"}


@pytest.mark.parametrize("task", TASKS)
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
    assert {m.key for m in metrics_for("binary", needs="probabilities")} == {"log_loss", "brier_score", "ece"}
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
    if task == Task.MULTILABEL:
        L = 4
        Y = rng.random((n, L)) < 0.4
        S = np.round(np.clip(Y * 0.3 + rng.random((n, L)) * 0.7, 0, 1), 1)
        return Predictions(Task.MULTILABEL, tuple("wxyz"), Y, None, S, weight=weight)
    if task == Task.REGRESSION:
        y = np.round(rng.normal(10, 3, n), 1)                                            # ties (the median)
        return Predictions(Task.REGRESSION, (), y, np.round(y + rng.normal(0.5, 1.5, n), 1), weight=weight)
    if task == Task.FORECAST:
        # two monthly series of n / 2 stamps (so a season of 12 and every forecast metric is defined), horizons
        # 1-3, a 90 % interval
        t = n // 2
        steps = np.arange(t)
        y = np.concatenate([20 + 5 * np.sin(steps / 2) + rng.normal(0, 1, t), 50 + 0.5 * steps + rng.normal(0, 1, t)])
        yp = y + rng.normal(0, 1.2, n)
        months = np.datetime64("2020-01", "M") + steps
        return Predictions(Task.FORECAST, (), y, yp, weight=weight, time=np.tile(months, 2),
                           series=np.repeat(np.array(["a", "b"], dtype=object), t),
                           horizon=np.tile(steps % 3 + 1, 2).astype(float), lower=yp - 2, upper=yp + 2,
                           interval_level=0.9)
    # clustering: three blobs in the plane, the reference their origin, 12 rows moved to a random cluster
    X = np.vstack([rng.normal(c, 1, (n // 3, 2)) for c in ([0, 0], [4, 0], [0, 4])])
    ref = np.repeat(np.arange(3), n // 3)
    cl = ref.copy()
    moved = rng.choice(n, 12, replace=False)
    cl[moved] = rng.integers(0, 3, 12)
    return Predictions(Task.CLUSTERING, ("p", "q", "r"), ref, cl, weight=weight, features=X,
                       clusters=("0", "1", "2"))


def values(pred, **kw):
    return evaluate(pred, baselines=False, **kw).values


replace = dataclasses.replace

ROW_FIELDS = ("y_true", "y_pred", "scores", "weight", "time", "series", "horizon", "lower", "upper", "features")


def take(pred, idx):
    """``pred`` with the rows ``idx`` (every per-row array, in that order)."""
    return replace(pred, **{f: getattr(pred, f)[idx] for f in ROW_FIELDS if getattr(pred, f) is not None})


def assert_same(a, b, keys, rtol=1e-12):
    for key in keys:
        if np.isnan(a[key]):
            assert np.isnan(b[key]), key
        else:
            assert b[key] == pytest.approx(a[key], rel=rtol, abs=1e-12), key


def assert_defined(r, keys):
    """An invariance of NaN = NaN proves nothing: the data must define every metric the test compares."""
    assert all(np.isfinite(r[k]) for k in keys), [k for k in keys if not np.isfinite(r[k])]


# ----------------------------------------------------------------------------------------------------------------
# invariances
#
# Which hold where (a test not parametrised over a task says why here):
#   row order ............. every task (forecasts are ordered by their time stamps, not by their rows)
#   unit weights .......... every task
#   integer weights = repeated rows, duplicating every row: not forecasts — a repeated row repeats a time stamp of
#       its series, which makes a different series (its naive scale and baseline forecasts change), not a weighted
#       one; clustering's internal indices ignore the weights (the geometry of the features is unweighted), and
#       its SIZE_DEPENDENT indices count pairs, which a duplicated row adds
#   rescaling every weight: every task; counts scale, clustering's SIZE_DEPENDENT change, the rest stay
#   monotone score transforms, probabilities: classification only (the other tasks have no scores)
#   class swap / relabelling: binary (swap map), multi-class and multi-label (permutation); clustering relabels
#       its clusters and its classes, and swaps the two partitions; regression and forecasts have no classes
#   units (shift and scale of y): regression and forecasts only
#   similarity transforms of the features: clustering only
# ----------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("task", TASKS)
def test_sample_order_does_not_matter(task):
    p = make(task, weight=np.random.default_rng(9).uniform(0.5, 2, 60))
    perm = np.random.default_rng(1).permutation(60)
    a = values(p)
    assert_defined(a, keys_for(task))
    assert_same(a, values(take(p, perm)), keys_for(task), rtol=1e-10)


@pytest.mark.parametrize("task", TASKS)
def test_unit_weights_equal_no_weights(task):
    p = make(task)
    assert_same(values(p), values(replace(p, weight=np.ones(60))), keys_for(task))


def weight_free(task):
    """The metrics for which a row of integer weight w is w repeated rows (see the table above)."""
    if task is Task.CLUSTERING:
        return set(CLUSTER_SWAP)
    return set(keys_for(task))


@pytest.mark.parametrize("task", [t for t in TASKS if t is not Task.FORECAST])
def test_integer_weights_equal_repeated_rows(task):
    w = np.random.default_rng(2).integers(1, 4, 60)
    p = make(task, weight=w.astype(float))
    repeated = take(replace(p, weight=None), np.repeat(np.arange(60), w))
    assert_same(values(p), values(repeated), weight_free(task), rtol=1e-10)


@pytest.mark.parametrize("task", [t for t in TASKS if t is not Task.FORECAST])
def test_duplicating_every_row_doubles_the_counts_and_keeps_every_share(task):
    p = make(task)
    a, b = values(p), values(take(p, np.repeat(np.arange(60), 2)))
    changed = COUNTS[task] | (SIZE_DEPENDENT | {"silhouette", "calinski_harabasz"}
                              if task is Task.CLUSTERING else set())
    # silhouette: a row's twin sits at distance 0 in its own cluster; Calinski-Harabasz: (n - k) / (k - 1) grows
    assert_same(a, b, set(keys_for(task)) - changed, rtol=1e-10)
    for key in COUNTS[task]:
        assert b[key] == pytest.approx(2 * a[key], rel=1e-12), key
    for key in changed - COUNTS[task]:
        assert b[key] != pytest.approx(a[key], rel=1e-6), key


@pytest.mark.parametrize("task", TASKS)
def test_rescaling_all_weights_changes_only_the_counts(task):
    w = np.random.default_rng(3).uniform(0.5, 2, 60)
    a = values(make(task, weight=w))
    b = values(make(task, weight=3.7 * w))
    size = SIZE_DEPENDENT if task is Task.CLUSTERING else set()
    assert_same(a, b, set(keys_for(task)) - COUNTS[task] - size, rtol=1e-10)
    for key in COUNTS[task]:
        assert b[key] == pytest.approx(3.7 * a[key])
    for key in size:
        assert b[key] != pytest.approx(a[key], rel=1e-6), key


@pytest.mark.parametrize("task", CLASSIFICATION)
def test_rank_metrics_ignore_monotone_score_transforms(task):
    p = make(task)
    q = replace(p, scores=np.exp(3 * p.scores) - 7.0)        # strictly increasing, leaves [0, 1]
    keys = RANK_ONLY[task]
    assert_same(values(p, keys=list(keys)), values(q, keys=list(keys)), keys, rtol=1e-10)


@pytest.mark.parametrize("task", [task for task in CLASSIFICATION if PROBABILISTIC[task]])
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


@pytest.mark.parametrize("task", NUMERIC)
def test_numeric_metrics_carry_the_unit_of_y_to_their_degree(task):
    # y in other units (c y): a metric of degree d is multiplied by c ** d; y shifted (y + b): only the relative
    # errors, which divide by |y|, change
    p = make(task)
    c, b = 3.5, 40.0
    scaled = replace(p, y_true=c * p.y_true, y_pred=c * p.y_pred,
                     **({"lower": c * p.lower, "upper": c * p.upper} if task is Task.FORECAST else {}))
    shifted = replace(p, y_true=p.y_true + b, y_pred=p.y_pred + b,
                      **({"lower": p.lower + b, "upper": p.upper + b} if task is Task.FORECAST else {}))
    a, s, t = values(p), values(scaled), values(shifted)
    keys = keys_for(task)
    assert_defined(a, keys)
    for key in keys:
        assert s[key] == pytest.approx(c ** UNITS[key] * a[key], rel=1e-10), key
    assert_same(a, t, set(keys) - RELATIVE, rtol=1e-9)
    for key in RELATIVE:
        assert t[key] < a[key], key                  # the same errors, relative to larger |y|


def test_clustering_indices_ignore_the_names_of_clusters_and_classes():
    p = make(Task.CLUSTERING)
    clusters, classes = np.array([2, 0, 1]), np.array([1, 2, 0])
    q = replace(p, y_pred=clusters[p.y_pred], y_true=classes[p.y_true],
                clusters=tuple(np.array(p.clusters)[np.argsort(clusters)]),
                classes=tuple(np.array(p.classes)[np.argsort(classes)]))
    a = values(p)
    assert_defined(a, keys_for(Task.CLUSTERING))
    assert_same(a, values(q), keys_for(Task.CLUSTERING), rtol=1e-12)


def test_swapping_reference_and_clusters_maps_the_external_indices_as_classified():
    # homogeneity of C against K is completeness of K against C (Rosenberg & Hirschberg 2007), purity turns into
    # inverse purity; the pair-counting and mutual-information indices are symmetric
    p = make(Task.CLUSTERING)
    q = replace(p, y_true=p.y_pred, y_pred=p.y_true, classes=p.clusters, clusters=p.classes)
    a, b = values(p), values(q)
    assert_defined(a, CLUSTER_SWAP)
    for key, image in CLUSTER_SWAP.items():
        assert b[image] == pytest.approx(a[key], rel=1e-12), key
    assert any(a[k] != pytest.approx(a[v]) for k, v in CLUSTER_SWAP.items())        # the data tell them apart


def test_internal_indices_ignore_the_reference_and_similarity_transforms_of_the_features():
    # silhouette and Davies-Bouldin are ratios of distances, Calinski-Harabasz a ratio of sums of squares: a
    # rotation, a uniform scaling and a translation of every feature row leave all three unchanged
    p = make(Task.CLUSTERING)
    angle = 0.7
    rotate = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    moved = replace(p, features=2.5 * p.features @ rotate.T + np.array([10.0, -3.0]))
    reference = replace(p, y_true=np.random.default_rng(7).integers(0, 3, 60))
    a = values(p)
    assert_defined(a, INTERNAL)
    assert_same(a, values(moved), INTERNAL, rtol=1e-9)
    assert_same(a, values(reference), INTERNAL, rtol=1e-12)
    stretched = values(replace(p, features=p.features * np.array([1.0, 5.0])))       # not a similarity: changes
    assert all(stretched[k] != pytest.approx(a[k], rel=1e-6) for k in INTERNAL)


@pytest.mark.parametrize("task", TASKS)
def test_every_defined_value_lies_in_its_registry_range(task):
    for seed in range(5):
        r = values(make(task, seed=seed, weight=np.random.default_rng(seed).uniform(0.2, 3, 60)))
        for m in metrics_for(task):
            v = r[m.key]
            if np.isfinite(v):
                assert m.range[0] - 1e-12 <= v <= m.range[1] + 1e-12, (m.key, v)


def test_only_classification_has_proportions():
    # regression, forecast and clustering metrics are not ratios of counts: no binomial interval applies
    assert {m.task for t in TASKS for m in metrics_for(t) if m.kind == "proportion"} == set(CLASSIFICATION)


@pytest.mark.parametrize("task", CLASSIFICATION)
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

@pytest.mark.parametrize("task", CLASSIFICATION)
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
