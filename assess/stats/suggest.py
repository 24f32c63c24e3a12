"""Which test fits the question and the data: the advice behind the Compare page and the CLI's ``--test all``.

The rules follow ISO/IEC TS 4213:2022 clause 7 and Demšar (2006): paired data get paired tests
(McNemar, Cochran's Q, DeLong, paired bootstrap, Wilcoxon, Friedman); independent samples get chi-squared, Fisher,
DeLong for independent samples, the unpaired bootstrap, Mann–Whitney and Welch's t (ANOVA and Kruskal–Wallis for
folds); folds of one cross-validation get the Nadeau–Bengio correction (Iocchi's slides on comparing two learners by
k-fold CV give the fold differences these tests use). Whether a test is pairwise or omnibus comes from its
:class:`~assess.stats.registry.TestSpec`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pandas as pd

from assess.core.data import Task
from assess.core.errors import AssessError
from assess.stats.registry import TESTS

QUESTIONS = {
    "two_models": "is one model better than another",
    "several_models": "do several models differ",
    "cv_folds": "models across cross-validation folds",
    "subgroups": "does performance differ between subgroups",
    "error_rate": "how precise is one model's error rate",
}
DATA_SHAPES = ("predictions", "folds")


@dataclass(frozen=True)
class Suggestion:
    """One suitable test: its key (as :func:`assess.stats.compare` takes it), one line on why it fits,
    ``kind`` (``"pairwise"``: two models at a time, corrected when there are more; ``"omnibus"``: all models at
    once; ``"interval"``: one model), and ``recommended`` for the first choice."""

    test: str
    why: str
    kind: str
    recommended: bool = False

    def to_dict(self) -> dict:
        return {"test": self.test, "why": self.why, "kind": self.kind, "recommended": self.recommended}


def suggest_tests(*, question: str, n_models: int, data: str = "predictions", paired: bool = True,
                  task: Task | str | None = None, has_scores: bool = False, n_folds: int | None = None,
                  n_repeats: int | None = None, blocks: bool = False, weighted: bool = False,
                  metric: str | None = None) -> tuple[Suggestion, ...]:
    """The tests that suit a question on data of a given shape, first choice first, each with why.

    Parameters
    ----------
    question : one of ``"two_models"``, ``"several_models"``, ``"cv_folds"``, ``"subgroups"``, ``"error_rate"``.
    n_models : how many models are compared (1 for ``"subgroups"`` and ``"error_rate"``).
    data : ``"predictions"`` (one row per sample and model) or ``"folds"`` (one metric per model and fold).
    paired : the models were scored on the same samples (same folds); False for independent test sets.
    task : the task of the predictions (``Task`` or its value); decides correctness tests versus error tests.
    has_scores : binary predictions carry scores (enables DeLong).
    n_folds, n_repeats : fold structure, when known (enables the 5×2cv t-test for 2 folds × 5 repeats).
    blocks : numeric predictions come in blocks — folds (regression) or several series (forecasts) — so Friedman
        can rank k ≥ 3 models per block.
    weighted : the rows carry sample weights: per-sample predictions on the same samples then get the paired
        bootstrap first, the one paired test that takes them (the others count every row once).
    metric : the metric key compared (the page's Metric box, ``--metric``, else the headline): per-sample
        classification predictions then get first the test of that metric (:func:`_metric_lead`).
    """
    if question not in QUESTIONS:
        raise AssessError(f"`question` must be one of {', '.join(repr(q) for q in QUESTIONS)} (got {question!r})")
    if data not in DATA_SHAPES:
        raise AssessError(f"`data` must be one of {', '.join(repr(d) for d in DATA_SHAPES)} (got {data!r})")
    if isinstance(n_models, bool) or int(n_models) != n_models or n_models < 1:
        raise AssessError(f"`n_models` must be a whole number ≥ 1 (got {n_models!r})")
    task = Task(task) if task is not None else None
    classification = task is None or task.is_classification
    out: list[Suggestion] = []

    def add(test, why, kind=None):
        if all(s.test != test for s in out):    # a test put first (the weighted bootstrap) is not listed twice
            out.append(Suggestion(test, why, kind or TESTS[test].kind, recommended=not out))

    if question == "error_rate":
        if data != "predictions" or not classification:
            raise AssessError("the error-rate interval needs per-sample classification predictions")
        add("error_rate_ci", "normal (CLT) interval e ± z·√(e(1−e)/n) of one model's error rate (n ≥ 30)",
            "interval")
        return tuple(out)
    if question == "subgroups":
        if data != "predictions":
            raise AssessError("subgroup tests need per-sample predictions with a group column")
        if classification:
            add("chi2", "accuracy by subgroup: subgroups are independent samples, a groups × correct/incorrect "
                        "table")
            add("fisher_exact", "two subgroups with small counts: exact, no expected-count rule")
        else:
            add("kruskal", "absolute errors by subgroup: rank-based, no normality needed")
            add("anova", "mean absolute error by subgroup when errors are roughly normal")
        return tuple(out)
    if question in ("two_models", "several_models") and data == "folds":
        question = "cv_folds"
    if n_models < 2:  # before the question's own rule: "use 'two_models'" is no advice for one model
        raise AssessError(f"comparing models needs at least 2 models (got {n_models}): put every model's predictions "
                          "in one file, one row per sample and model with a model-name column (long format), or one "
                          "`y_pred_<model>`/`score_<model>` column per model (wide format)")
    if question == "two_models" and n_models != 2:
        raise AssessError(f"question 'two_models' needs exactly 2 models (got {n_models}); use 'several_models'")
    if question == "several_models" and n_models < 3:
        raise AssessError(f"question 'several_models' needs at least 3 models (got {n_models}); use 'two_models'")
    if task is Task.CLUSTERING and data == "predictions":
        if not paired:
            add("unpaired_bootstrap", "an external index (ARI, NMI, …) of clusterings of different rows")
            return tuple(out)
        add("paired_bootstrap", "an external index (ARI, NMI, …) of clusterings of the same rows, resampled "
                                "together")
        add("better_than_random", "each clustering's index against random partitions with the same cluster sizes "
                                  "(permutation test)")
        return tuple(out)

    if question == "cv_folds":
        if data == "predictions":
            why_fold = " (per-fold metric computed from the predictions)"
        else:
            why_fold = ""
        if not paired:
            if n_models >= 3:
                add("kruskal", "independent runs per model: rank-based comparison of the fold scores" + why_fold)
                add("anova", "independent runs per model with roughly normal fold scores" + why_fold)
            add("mann_whitney", "independent runs per model: do one model's fold scores tend to be higher? "
                                "(rank-based)" + why_fold)
            add("welch_t", "independent runs per model: difference of the mean fold scores, unequal variances "
                           "allowed" + why_fold)
            if n_models == 2:
                add("kruskal", "independent runs per model: rank-based comparison of the fold scores" + why_fold)
                add("anova", "independent runs per model with roughly normal fold scores" + why_fold)
            return tuple(out)
        if n_models >= 3:
            add("friedman", "k models on the same folds: ranks per fold, Nemenyi critical difference "
                            "(Demšar 2006)" + why_fold)
        if n_folds == 2 and n_repeats == 5:
            add("cv_5x2_t", "5 × 2-fold cross-validation: Dietterich's 5×2cv t-test keeps type-I error near "
                            "nominal" + why_fold)
        add("corrected_resampled_t", "CV folds share training data; the Nadeau–Bengio correction widens the "
                                     "t-test's variance accordingly" + why_fold)
        # With 5 or fewer differences no two-sided signed-rank p-value is below 0.05 (2/2⁵ = 0.0625): a test that
        # cannot find a difference is not offered (`wilcoxon_out_of_reach` says why). ANOVA and Kruskal–Wallis
        # compare independent groups: paired folds are not (Demšar 2006 §3.2), so they are not offered here.
        if wilcoxon_out_of_reach(n_folds, n_repeats) is None:
            add("wilcoxon", "signed ranks of the fold differences: no normality needed (≥ 6 folds)" + why_fold)
        add("paired_t", "the classic paired t-test on fold differences (ISO 4213 7.2); too liberal on CV folds"
            + why_fold)
        return tuple(out)

    # per-sample predictions, two or several models
    if not paired:
        if classification:
            add("chi2", "different test sets per model: models × correct/incorrect table")
            add("fisher_exact", "different test sets, small counts: exact test of each 2 × 2 table"
                + (" (pairwise, corrected)" if n_models >= 3 else ""))
            if has_scores and (task is None or task == Task.BINARY):
                add("unpaired_delong", "ROC AUCs on different test sets: the two DeLong variances add up")
            add("unpaired_bootstrap", "any metric (F1, AUC, …) on different test sets: each test set resampled "
                                      "on its own")
            add("mann_whitney", "per-sample losses on different test sets: does one model's loss tend to be lower? "
                                "(rank-based)")
            add("welch_t", "mean per-sample loss on different test sets, unequal variances allowed")
            return _metric_lead(tuple(out), metric, paired=False, weighted=weighted)
        else:
            add("mann_whitney", "per-sample absolute errors on different test sets (rank-based, no normality "
                                "needed)")
            add("welch_t", "mean absolute error on different test sets, unequal variances allowed")
            add("unpaired_bootstrap", "any error metric (MAE, RMSE, …) on different test sets")
        return tuple(out)
    if weighted and task != Task.FORECAST:
        add("paired_bootstrap", "the rows carry sample weights: the bootstrap resamples them with their weights, so "
                                "it compares the weighted metrics (the other tests count every row once)")
    if classification:
        if n_models >= 3:
            add("cochran_q", "k models right/wrong on the same samples: one test of equal accuracy")
        add("mcnemar", "same samples, right/wrong per sample: exact binomial test on the disagreements"
            + (" (pairwise, corrected)" if n_models >= 3 else ""))
        if task == Task.MULTILABEL:
            add("mcnemar_per_label", "multi-label, same samples: McNemar on each label's right/wrong, "
                                     "Benjamini–Hochberg across the labels")
        if has_scores and (task is None or task == Task.BINARY):
            add("delong", "ROC AUCs on the same samples, their correlation accounted for")
        add("paired_bootstrap", "any metric (F1, AUC, …) on the same samples, no distributional assumption")
        return _metric_lead(tuple(out), metric, paired=True, weighted=weighted)
    else:
        if task == Task.FORECAST:
            add("diebold_mariano", "forecasts of the same targets: loss differentials per horizon in time order, "
                                   "autocorrelation up to h − 1, small-sample correction, Holm across horizons")
            if n_models >= 3 and blocks:
                add("friedman", "k forecasters over the same series: ranks of the MAE per series, Nemenyi critical "
                                "difference")
            add("paired_bootstrap", "any error metric on the same samples (ignores serial correlation)")
        else:
            add("paired_bootstrap", "any error metric (MAE, RMSE, …) on the same samples, resampled together")
            add("paired_t", "mean difference of the per-sample absolute (or squared) errors on the same samples")
            add("wilcoxon", "signed ranks of the per-sample error differences: no normality needed")
            if n_models >= 3 and blocks:
                add("friedman", "k models over the same folds: ranks of the MAE per fold, Nemenyi critical "
                                "difference")
    return tuple(out)


#: The metrics the right/wrong tests (McNemar, Cochran's Q, chi-squared, Fisher) compare: the share of samples right.
_CORRECTNESS_METRICS = ("accuracy", "exact_match_ratio")


def _metric_lead(suggestions: tuple[Suggestion, ...], metric: str | None, *, paired: bool,
                 weighted: bool) -> tuple[Suggestion, ...]:
    """The suggestions of per-sample classification predictions with the test of ``metric`` first (recommended):
    DeLong's test for ROC AUC, the bootstrap for a metric no other suggested test compares; accuracy keeps the
    right/wrong tests first. A first choice that tests another quantity than the metric shown would answer another
    question (the walk found McNemar recommended under "ROC AUC"). Weighted rows keep the weighted bootstrap first:
    it alone compares the weighted metric."""
    if metric is None or weighted or metric in _CORRECTNESS_METRICS:
        return suggestions
    delong, bootstrap = ("delong", "paired_bootstrap") if paired else ("unpaired_delong", "unpaired_bootstrap")
    tests = [s.test for s in suggestions]
    lead = delong if metric == "roc_auc" and delong in tests else bootstrap
    if lead not in tests:
        return suggestions
    ordered = sorted(suggestions, key=lambda s: s.test != lead)    # stable: the others keep their order
    return tuple(replace(s, recommended=i == 0) for i, s in enumerate(ordered))


def suggestions_frame(suggestions: tuple[Suggestion, ...]) -> pd.DataFrame:
    """The suggestions as a table: test, kind, recommended, why."""
    return pd.DataFrame([s.to_dict() for s in suggestions], columns=["test", "kind", "recommended", "why"])


def wilcoxon_out_of_reach(n_folds: int | None, n_repeats: int | None = None) -> str | None:
    """Why the signed-rank test cannot reach 5 % significance on this many paired folds (None when it can, or the
    number is unknown): with m differences the smallest exact two-sided p-value is 2/2^m, 0.0625 for m = 5."""
    if n_folds is None:
        return None
    m = n_folds * (n_repeats or 1)
    if m >= 6:
        return None
    return (f"the Wilcoxon signed-rank test cannot reach 5% significance on {m} paired fold"
            f"{'s' if m != 1 else ''}: its smallest two-sided p-value is 2/2^{m} = {2 / 2 ** m:.4g}")
