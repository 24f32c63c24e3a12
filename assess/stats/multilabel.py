r"""McNemar's test label by label for multi-label models, with a multiple-comparison correction across the labels.

The whole-label-set McNemar test (:func:`assess.stats.counts.mcnemar` on exact matches) asks whether two models get
*whole label sets* right equally often; with several labels that is a blunt question. Here each label l is its own
binary problem (ISO/IEC TS 4213:2022 6.5: multi-label metrics are built from per-label 2 × 2 tables): McNemar's test
(ISO 4213 7.9) compares the two models' per-label correctness :math:`[\hat y_{il} = y_{il}]` on the same samples, and
the L p-values are corrected together (ISO 4213 7.10; by default Benjamini–Hochberg, 7.10.3, which controls the false
discovery rate among the labels declared different).

The overall p-value answers "does any label differ?": the smallest adjusted p-value. With Benjamini–Hochberg that
is Simes' (1986) global test, :math:`\min_i m\,p_{(i)}/i`; with Bonferroni or Holm it is the Bonferroni global
test :math:`m\,p_{(1)}`. The effect is the mean per-label accuracy difference (A − B), i.e. the difference of the two
Hamming losses with the sign turned (B − A), with a normal (CLT) interval from the per-sample differences
:math:`d_i = \frac1L \sum_l ([\hat y^A_{il} = y_{il}] - [\hat y^B_{il} = y_{il}])`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from assess.core.data import Task
from assess.core.decision import Decision
from assess.core.errors import AssessError
from assess.core.formatting import confidence_interval, count, percent_level, significant
from assess.intervals import ConfidenceInterval
from assess.stats import counts
from assess.stats._common import NORMAL, alpha_of, check_alternative, check_confidence_level, interval, model_names
from assess.stats._result import Assumption, Comparison, Effect, TestResult
from assess.stats.corrections import CORRECTIONS, adjust_pvalues
from assess.stats.runners import refuse_metric, pairwise
from assess.stats.shaping import AlignedPredictions, aligned_labels

CORRECTION_NAMES = {"bonferroni": "Bonferroni", "holm": "Holm", "fdr_bh": "Benjamini–Hochberg",
                    "fdr_by": "Benjamini–Yekutieli"}


@dataclass(frozen=True)
class PerLabelMcNemarDetails:
    """One entry per label, in label order: ``n10`` (A right, B wrong on that label), ``n01`` (the reverse), both
    models' per-label accuracies, the accuracy difference (A − B) with its Bonett–Price interval (each at the
    test's confidence level, not adjusted across labels), the raw and the adjusted p-values (``correction`` across
    labels), and ``method`` of the per-label McNemar tests."""

    labels: list
    n10: list
    n01: list
    accuracy_a: list
    accuracy_b: list
    difference: list
    low: list
    high: list
    confidence_level: float
    pvalue: list
    pvalue_adjusted: list
    correction: str
    method: str

    def table(self) -> pd.DataFrame:
        """The per-label results as a table (one row per label), for a page or a CSV."""
        return pd.DataFrame({"label": self.labels, "accuracy_a": self.accuracy_a, "accuracy_b": self.accuracy_b,
                             "difference": self.difference, "low": self.low, "high": self.high,
                             "n10": self.n10, "n01": self.n01, "pvalue": self.pvalue,
                             "pvalue_adjusted": self.pvalue_adjusted})

    def effects(self) -> list[tuple[str, Effect]]:
        """``(label, accuracy difference with its interval)`` per label, for a forest plot."""
        return [(label, Effect("accuracy difference (A - B)", d,
                               ConfidenceInterval(lo, hi, self.confidence_level, "Bonett-Price adjusted Wald")))
                for label, d, lo, hi in zip(self.labels, self.difference, self.low, self.high)]


def mcnemar_per_label(y_true, labels_a, labels_b, *, labels: Sequence[str] | None = None, method: str = "exact",
                      continuity: bool = True, correction: str = "fdr_bh", alternative: str = "two-sided",
                      confidence_level: float = 0.95, names: Sequence[str] | None = None) -> TestResult:
    """McNemar's test on each label of two multi-label models, p-values corrected across labels (module docstring).

    ``y_true``, ``labels_a``, ``labels_b``: (n, L) 0/1 or bool indicator matrices of the same samples; ``labels``
    names the L columns. ``method``/``continuity``/``alternative``: as :func:`assess.stats.counts.mcnemar`, for
    every label. ``correction``: one of :data:`assess.stats.corrections.CORRECTIONS`, across the labels.
    """
    check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    if correction not in CORRECTIONS:
        raise AssessError(f"`correction` across labels must be one of {', '.join(CORRECTIONS)} (got {correction!r})")
    y, a, b = (np.asarray(m).astype(bool) for m in (y_true, labels_a, labels_b))
    if y.ndim != 2 or a.shape != y.shape or b.shape != y.shape:
        raise AssessError(f"per-label McNemar needs three (n, L) indicator matrices of one shape (got {y.shape}, "
                          f"{a.shape}, {b.shape})")
    n, n_labels = y.shape
    if n == 0 or n_labels == 0:
        raise AssessError(f"per-label McNemar needs at least 1 sample and 1 label (got {n} × {n_labels})")
    labels = [str(x) for x in (labels if labels is not None else range(n_labels))]
    name_a, name_b = model_names(names, 2)
    correct_a, correct_b = a == y, b == y
    per_label = [counts.mcnemar(correct_a[:, j], correct_b[:, j], method=method, continuity=continuity,
                                alternative=alternative, confidence_level=confidence_level, names=(name_a, name_b))
                 for j in range(n_labels)]
    raw = np.array([r.pvalue for r in per_label], dtype=float)
    adjusted = adjust_pvalues(raw, method=correction)
    alpha = alpha_of(confidence_level)
    differing = [lab for lab, p in zip(labels, adjusted) if p < alpha]
    overall = float(np.nanmin(adjusted))

    # Effect: the mean per-label accuracy difference, a normal interval over the per-sample differences.
    d = (correct_a.astype(float) - correct_b.astype(float)).mean(axis=1)
    effect_value = float(d.mean())
    se = float(d.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    low, high = interval(effect_value, se, NORMAL, alternative, confidence_level) if n > 1 else (math.nan, math.nan)
    effect = Effect("mean per-label accuracy difference (A - B)", effect_value,
                    ConfidenceInterval(max(low, -1.0), min(high, 1.0), confidence_level, "normal"))

    discordant = np.array([r.details.discordant for r in per_label])
    assumptions = [Assumption("paired samples", True, f"both models scored on the same {count(n)} samples"),
                   Assumption("correction across labels", True,
                              f"{CORRECTION_NAMES[correction]} over {n_labels} labels"
                              + ("; valid under independence or positive dependence of the label tests"
                                 if correction == "fdr_bh" else ""))]
    if method == "asymptotic":
        few = [lab for lab, m in zip(labels, discordant) if m < 25]
        assumptions.append(Assumption("at least 25 discordant pairs per label", not few,
                                      "every label has 25 or more" if not few else
                                      f"{len(few)} label(s) below 25 ({', '.join(few[:5])}); use method='exact'"))
    label_word = CORRECTION_NAMES[correction]
    if differing:
        listed = ", ".join(differing[:8]) + (f" and {len(differing) - 8} more" if len(differing) > 8 else "")
        lead = (f"{name_a} and {name_b} differ in accuracy on {len(differing)} of {n_labels} labels after "
                f"{label_word} correction at the {percent_level(alpha)} level ({listed})")
    else:
        lead = (f"{name_a} and {name_b} differ significantly on none of the {n_labels} labels after {label_word} "
                f"correction at the {percent_level(alpha)} level")
    # Said from the better model's side, so the interval is of its advantage (B − A when B is better).
    better, (lo, hi) = (name_a, (low, high)) if effect_value >= 0 else (name_b, (-high, -low))
    sentence = (f"{lead}; {better} gets {significant(abs(effect_value) * 100, 2)} percentage points more of the label "
                f"decisions right ({confidence_interval(lo * 100, hi * 100, confidence_level, 2)}).")
    details = PerLabelMcNemarDetails(
        labels=labels, n10=[r.details.n10 for r in per_label], n01=[r.details.n01 for r in per_label],
        accuracy_a=correct_a.mean(axis=0).tolist(), accuracy_b=correct_b.mean(axis=0).tolist(),
        difference=[r.effect.value for r in per_label], low=[r.effect.interval.low for r in per_label],
        high=[r.effect.interval.high for r in per_label], confidence_level=confidence_level, pvalue=raw.tolist(), pvalue_adjusted=adjusted.tolist(), correction=correction, method=per_label[0].method)
    return TestResult(test="mcnemar_per_label", method=f"{per_label[0].method} per label, {label_word} across labels",
                      statistic=float(len(differing)), pvalue=overall, alternative=alternative, effect=effect,
                      assumptions=assumptions, sentence=sentence, n=n, models=(name_a, name_b), details=details)


def run_mcnemar_per_label(aligned: AlignedPredictions, *, models, metric, correction, confidence_level, alternative,
                          method="exact", continuity=True, label_correction="fdr_bh",
                          decision=Decision()) -> Comparison:
    """Runner of the registry's ``mcnemar_per_label``: every pair of models (``correction`` across pairs, as the
    other pairwise tests), each pair's labels corrected by ``label_correction``."""
    refuse_metric("mcnemar_per_label", metric, "compares per-label correctness")
    if aligned.task is not Task.MULTILABEL:
        raise AssessError(f"test `mcnemar_per_label` compares multi-label models label by label (task is "
                          f"{aligned.task.value}); use mcnemar")
    decided = {m: aligned_labels(aligned, m, decision) for m in aligned.models}

    def pair(a, b):
        return mcnemar_per_label(aligned.y_true, decided[a], decided[b], labels=aligned.classes, method=method,
                                 continuity=continuity, correction=label_correction, alternative=alternative,
                                 confidence_level=confidence_level, names=(a, b))
    return pairwise("mcnemar_per_label", aligned.models, pair, correction, confidence_level)
