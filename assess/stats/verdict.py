"""One verdict from several tests of the same models (``--test all``, the Compare page's "Run all suitable tests",
the report): which test the verdict follows and why, and where the tests disagree about a pair.

Running every suitable test answers one question several ways; when the answers differ a reader needs one of them,
chosen by a stated rule, not a count of votes. The rule (:func:`primary_comparison`), first that applies:

1. three or more models on the same cross-validation folds: Friedman's test with Nemenyi's post-hoc — the test made
   for k models over the same folds (Demšar 2006, §3.2.2), family-wise error controlled;
2. sample weights: the paired bootstrap, the one paired test that takes them, so the verdict agrees with the weighted
   metrics;
3. ROC AUC compared: DeLong's test, the test of ROC AUC on the same samples (correlation accounted for);
4. the first choice for the data and their design (:func:`assess.stats.suggest.suggest_tests`) that ran — except
   that between the paired t-test and the Wilcoxon signed-rank test the t-test's own normality check decides: the
   t-test when every pair's differences pass it, else the Wilcoxon test, which does not assume it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from assess.core.formatting import listing
from assess.stats._common import alpha_of
from assess.stats._result import Comparison, jsonable
from assess.stats.registry import TESTS

#: The assumption of the paired t-test the choice between it and Wilcoxon reads (`assess.stats.folds.paired_t`).
NORMAL_DIFFERENCES = "normal differences"


@dataclass(frozen=True)
class Disagreement:
    """A pair of models that some tests call significantly different and others not (test keys)."""

    models: tuple[str, str]
    significant: tuple[str, ...]
    not_significant: tuple[str, ...]

    def sentence(self) -> str:
        def titles(keys):
            return listing([_title(k) for k in keys], shown=len(keys))
        return (f"{self.models[0]} vs {self.models[1]}: significant by {titles(self.significant)}, not by "
                f"{titles(self.not_significant)}")

    def to_dict(self) -> dict:
        return {"models": list(self.models), "significant": list(self.significant),
                "not_significant": list(self.not_significant)}


@dataclass(frozen=True)
class Verdict:
    """The test the verdict follows (``test``), why (``reason``), its ``sentence``, and the pairs the tests
    disagree on."""

    test: str
    reason: str
    sentence: str
    disagreements: tuple[Disagreement, ...] = ()

    @property
    def text(self) -> str:
        """The verdict as read: the primary test's sentence, then where the other tests disagree and why it
        follows the one it does."""
        return f"{self.sentence} {self.disagreement}".strip()

    @property
    def disagreement(self) -> str:
        """The disagreement in words ("" when the tests agree on every pair)."""
        if not self.disagreements:
            return ""
        return ("The tests disagree on " + "; ".join(d.sentence() for d in self.disagreements)
                + f". The verdict follows {_title(self.test)}: {self.reason}.")

    def to_dict(self) -> dict:
        return jsonable({"test": self.test, "reason": self.reason, "sentence": self.sentence, "text": self.text,
                         "disagreements": [d.to_dict() for d in self.disagreements],
                         "disagreement": self.disagreement})


def primary_comparison(comparisons: Sequence[Comparison], *, metric=None, folds: bool = False,
                       weighted: bool = False) -> tuple[Comparison, str] | None:
    """(the comparison the verdict follows, why) by the rule of this module; None when no test ran.
    ``comparisons`` in the order of :func:`~assess.stats.suggest.suggest_tests` (first choice first), ``metric``:
    the metric the metric tests compared (a key), ``folds``: the data are per-fold scores of one cross-validation,
    ``weighted``: the rows carry sample weights."""
    ran = {c.test: c for c in comparisons}
    if not ran:
        return None
    n_models = max(len(c.models) for c in comparisons)
    if folds and n_models >= 3 and "friedman" in ran:
        return ran["friedman"], ("the test for three or more models over the same folds (Demšar 2006), which ranks "
                                 "the models per fold and whose Nemenyi pairs control the family-wise error")
    if weighted and "paired_bootstrap" in ran:
        return ran["paired_bootstrap"], ("the rows carry sample weights and the paired bootstrap is the paired test "
                                         "that takes them, as the weighted metrics do")
    if metric == "roc_auc" and "delong" in ran:
        return ran["delong"], "ROC AUC is compared, and DeLong's test is the test of ROC AUCs on the same samples"
    first = comparisons[0]    # the tests ran in the order of `suggest_tests`: its first choice that could run
    if first.test in ("paired_t", "wilcoxon") and {"paired_t", "wilcoxon"} <= set(ran):
        failed = _normality_failed(ran["paired_t"])
        if failed:
            return ran["wilcoxon"], (f"the paired t-test's differences fail its normality check ({failed}); the "
                                     "Wilcoxon signed-rank test does not assume it")
        return ran["paired_t"], "the differences pass the paired t-test's normality check"
    return first, "the first choice of the suitable tests for these data and their design"


def one_verdict(comparisons: Sequence[Comparison], *, metric=None, folds: bool = False,
                weighted: bool = False, confidence_level: float = 0.95) -> Verdict | None:
    """The :class:`Verdict` of several tests of the same models: the primary test's sentence and reason
    (:func:`primary_comparison`), and every pair the tests disagree on at ``1 − confidence_level``."""
    found = primary_comparison(comparisons, metric=metric, folds=folds, weighted=weighted)
    if found is None:
        return None
    primary, reason = found
    return Verdict(primary.test, reason, primary.sentence,
                   disagreements(comparisons, alpha_of(confidence_level)))


def disagreements(comparisons: Sequence[Comparison], alpha: float) -> tuple[Disagreement, ...]:
    """The pairs that some tests find significantly different and others not: each test's call on a pair is its
    adjusted p-value (its single p-value for two models) below ``alpha``; an undefined p-value makes no call."""
    calls: dict[tuple[str, str], dict[str, bool]] = {}
    for c in comparisons:
        for pair, p in _pair_pvalues(c).items():
            if p is not None and np.isfinite(p):
                calls.setdefault(pair, {})[c.test] = bool(p < alpha)
    out = []
    for pair, by_test in calls.items():
        yes = tuple(t for t, s in by_test.items() if s)
        no = tuple(t for t, s in by_test.items() if not s)
        if yes and no:
            out.append(Disagreement(pair, yes, no))
    return tuple(out)


def _pair_pvalues(c: Comparison) -> dict[tuple[str, str], float | None]:
    """{(A, B): p} of a comparison's pairs: adjusted over the pairs, or the one result's p-value for two models."""
    if c.pairs:
        return {(p.model_a, p.model_b): p.pvalue_adjusted for p in c.pairs}
    if c.result is not None and len(c.models) == 2 and c.test in TESTS:
        return {tuple(c.models): c.result.pvalue}
    return {}


def _normality_failed(comparison: Comparison) -> str:
    """The detail of the first failed normality check of a paired t-test's results ("" when none failed)."""
    results = [comparison.result] if comparison.result is not None else [p.result for p in comparison.pairs]
    for r in results:
        for a in r.assumptions:
            if a.name == NORMAL_DIFFERENCES and a.met is False:
                return a.detail
    return ""


def _title(test: str) -> str:
    """The test as a sentence names it: "McNemar's test", "the paired t-test", "the Friedman test …"."""
    title = TESTS[test].title if test in TESTS else test
    first = title.split()[0]
    if first.endswith("'s"):
        return title
    if first in ("Paired", "Unpaired", "Corrected", "One-way", "Permutation"):   # ordinary words, not names
        title = title[:1].lower() + title[1:]
    return f"the {title}"
