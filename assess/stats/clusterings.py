r"""Is a clustering better than random? A permutation test of an external index against random partitions.

Null hypothesis: the clusters are unrelated to the reference classes — every assignment of the same cluster labels
to the rows is equally likely (the permutation model behind the adjusted Rand index, Hubert & Arabie 1985). The
null distribution of the index comes from ``n_resamples`` seeded random contingency tables with the observed class
and cluster sizes (:func:`assess.metrics.clustering.random_tables`: the same as permuting the cluster column), and

.. math:: p = \frac{1 + \#\{T^*_r \ge T\}}{B + 1}

(one-sided, "better than random"; Davison & Hinkley 1997 eq. 4.11 — the +1 keeps p above 0). Effect: the observed
index minus the mean of the random ones, with the percentile bootstrap interval of the observed index (rows
resampled: :func:`assess.metrics.clustering.bootstrap_external`) shifted by that mean.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from assess.core.data import Task
from assess.core.errors import AssessError
from assess.core.formatting import confidence_interval, p_value, percent_level, significant
from assess.intervals import ConfidenceInterval
from assess.metrics import clustering, get
from assess.stats._common import alpha_of, verdict
from assess.stats._result import Assumption, Comparison, Effect, PairResult, TestResult
from assess.stats.corrections import adjust_pvalues
from assess.core.defaults import DEFAULT_RESAMPLES

#: The index the permutation test uses when none is named.
DEFAULT_INDEX = "adjusted_rand_index"
RANDOM = "random partition"


@dataclass(frozen=True)
class PermutationDetails:
    """The observed index, the mean and the (1 − α) upper quantile of its random-partition distribution, and the
    number of random partitions drawn."""

    index: str
    observed: float
    random_mean: float
    random_upper: float
    n_resamples: int


def better_than_random(y_true, clusters, *, index: str = DEFAULT_INDEX, n_resamples: int = DEFAULT_RESAMPLES, seed=0,
                       confidence_level: float = 0.95, name: str = "clustering") -> TestResult:
    """Permutation test of ``index`` (an external index of :mod:`assess.metrics.clustering`) of ``clusters``
    (codes ≥ 0) against random partitions with the same cluster sizes, on the rows with a reference class
    (``y_true`` codes ≥ 0); see the module docstring."""
    if index not in clustering.EXTERNAL:
        raise AssessError(f"`metric` of the permutation test must be an external clustering index "
                          f"({', '.join(clustering.EXTERNAL_KEYS)}); got {index!r}")
    y = np.asarray(y_true, dtype=np.int64)
    k = np.asarray(clusters, dtype=np.int64)
    known = y >= 0
    if known.sum() < 2:
        raise AssessError(f"the permutation test needs at least 2 rows with a reference class (got {int(known.sum())})")
    y, k = y[known], k[known]
    table = clustering.contingency_table(y, k, int(y.max()) + 1, int(k.max()) + 1)
    fn = clustering.EXTERNAL[index]
    seeds = np.random.SeedSequence(int(seed)).spawn(2)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        observed = float(fn(clustering.ClusteringState(table)))
        null = np.asarray(fn(clustering.ClusteringState(clustering.random_tables(table, n_resamples, seeds[0]),
                                                        batch=True)), dtype=np.float64)
    null = null[np.isfinite(null)]
    pvalue = float((1 + np.sum(null >= observed - 1e-12)) / (null.size + 1))
    mean = float(null.mean())
    low, high, _ = clustering.bootstrap_external(table, [index], n_resamples=min(n_resamples, 2000),
                                                 confidence_level=confidence_level, seed=seeds[1])[index]
    title = get(Task.CLUSTERING, index).name
    effect = Effect(f"{title} above random", observed - mean,
                    ConfidenceInterval(low - mean, high - mean, confidence_level, "bootstrap-percentile"))
    alpha = alpha_of(confidence_level)
    upper = float(np.quantile(null, 1 - alpha))
    ci = confidence_interval(effect.interval.low, effect.interval.high, confidence_level)
    sentence = (f"{name}'s {title[0].lower() + title[1:]} is {significant(observed)}, against "
                f"{significant(mean)} on average for a random partition with the same cluster sizes (upper "
                f"{1 - alpha:.0%} point {significant(upper)}); the difference is {significant(observed - mean)}"
                + (f" ({ci})" if ci else "") + "; "
                + verdict(pvalue, alpha, "permutation test", subject="being better than random") + ".")
    assumptions = (Assumption("exchangeable rows", None, "the rows are exchangeable under the null: no "
                              "grouping (e.g. repeated measurements of one subject) ties them together"),
                   Assumption("reference classes", True, f"{int(known.sum()):,} rows with a reference class"))
    return TestResult(test="better_than_random", method="permutation test (random partitions of the same sizes)",
                      statistic=observed, pvalue=pvalue, alternative="greater", effect=effect,
                      assumptions=assumptions, sentence=sentence, n=int(known.sum()), models=(name,),
                      details=PermutationDetails(index, observed, mean, upper, int(null.size)))


def better_than_random_runner(aligned, *, models, metric, correction, confidence_level, alternative,
                              n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0, decision=None) -> Comparison:
    """The registry runner (:data:`assess.stats.registry.TESTS` ``"better_than_random"``): one permutation test per
    clustering of ``aligned`` (:class:`~assess.stats.shaping.AlignedPredictions` of a clustering file; ``decision``
    does not apply to clusters), each as a
    pair (clustering, "random partition") with p-values adjusted over the clusterings by ``correction``."""
    if aligned.task is not Task.CLUSTERING:
        raise AssessError(f"the permutation test against random partitions is for clusterings (task is "
                          f"{aligned.task.value})")
    if alternative not in ("two-sided", "greater"):
        raise AssessError(f"the permutation test asks whether a clustering is better than random: `alternative` "
                          f"must be 'greater' (got {alternative!r})")
    if aligned.y_true is None:
        raise AssessError("the permutation test compares clusters with reference classes (`y_true`), which the file "
                          "does not have")
    index = metric if isinstance(metric, str) else DEFAULT_INDEX
    found = [(m, better_than_random(aligned.y_true, aligned.y_pred[m], index=index, n_resamples=n_resamples,
                                    seed=seed, confidence_level=confidence_level, name=m)) for m in aligned.models]
    raw = np.array([r.pvalue for _, r in found])
    adjusted = adjust_pvalues(raw, method=correction) if correction not in (None, "nemenyi") and len(raw) > 1 else raw
    pairs = tuple(PairResult(m, RANDOM, r, float(p)) for (m, r), p in zip(found, adjusted))
    alpha = alpha_of(confidence_level)
    better = [p.model_a for p in pairs if p.pvalue_adjusted < alpha]
    label = {"bonferroni": "Bonferroni", "holm": "Holm", "fdr_bh": "Benjamini-Hochberg",
             "fdr_by": "Benjamini-Yekutieli"}.get(correction, "no")
    sentence = (f"{len(better)} of {len(pairs)} clusterings are better than a random partition of the same sizes at "
                f"the {percent_level(alpha)} level ({label} correction over the clusterings)"
                + (": " + "; ".join(f"{p.model_a} ({p_value(p.pvalue_adjusted, alpha)})" for p in pairs
                                    if p.model_a in better) if better else "") + ".")
    return Comparison(test="better_than_random", models=tuple(aligned.models), result=None, pairs=pairs,
                      correction=correction if len(pairs) > 1 else None, sentence=sentence)
