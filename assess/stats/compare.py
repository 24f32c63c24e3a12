"""Compare k models with one test: pairwise (with adjusted p-values) or omnibus plus post-hoc pairs.

The one entry point behind the Compare page and ``python -m assess compare FILE --test NAME [--models A B ...]
[--metric K] [--correction NAME]``: :func:`compare` for one test, :func:`compare_all` for ``--test all``.
Multiple comparisons: ISO/IEC TS 4213 7.10 (see :mod:`assess.stats.corrections`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from assess.data import Predictions, Task
from assess.errors import AssessError
from assess.stats import counts, folds, scores
from assess.stats._common import NORMAL, alpha_of, check_alternative, check_level, fmt_level, fmt_num, fmt_p, verdict
from assess.stats._result import FRAME_COLUMNS, Effect, TestResult, jsonable
from assess.stats.bridge import registry_metric
from assess.stats.corrections import CORRECTIONS, adjust_pvalues, pvalue_matrix
from assess.stats.shaping import (AlignedPredictions, align_predictions, contingency_table, correctness_table,
                                  fold_groups, fold_scores, fold_table, predicted_labels)
from assess.stats.suggest import Suggestion, suggest_tests

_CORRECTNESS = ("threshold",)


@dataclass(frozen=True)
class _Spec:
    data: str              # "predictions" or "folds"
    kind: str              # "pairwise" or "omnibus"
    options: tuple[str, ...]
    min_models: int = 2


TESTS: dict[str, _Spec] = {
    "mcnemar": _Spec("predictions", "pairwise", ("method", "continuity") + _CORRECTNESS),
    "cochran_q": _Spec("predictions", "omnibus", ("method", "continuity") + _CORRECTNESS),
    "chi2": _Spec("predictions", "omnibus", ("continuity",) + _CORRECTNESS),
    "fisher_exact": _Spec("predictions", "pairwise", _CORRECTNESS),
    "delong": _Spec("predictions", "pairwise", ()),
    "paired_bootstrap": _Spec("predictions", "pairwise", ("n_resamples", "seed", "vectorized", "use_scores")
                              + _CORRECTNESS),
    "diebold_mariano": _Spec("predictions", "pairwise", ("loss", "h", "harvey_correction")),
    "paired_t": _Spec("folds", "pairwise", ()),
    "wilcoxon": _Spec("folds", "pairwise", ("zero_method", "method", "continuity")),
    "corrected_resampled_t": _Spec("folds", "pairwise", ("test_train_ratio", "n_folds")),
    "cv_5x2_t": _Spec("folds", "pairwise", ()),
    "anova": _Spec("folds", "omnibus", ()),
    "kruskal": _Spec("folds", "omnibus", ()),
    "friedman": _Spec("folds", "omnibus", ("higher_is_better", "method")),
}
#: Test names `compare` accepts, in the order of the SPEC's CLI list (plus "all" for :func:`compare_all`).
TEST_NAMES = tuple(TESTS)
#: Options that turn per-fold scores out of predictions (fold tests on predictions with a `fold`).
_FOLD_FROM_PREDICTIONS = ("use_scores", "threshold")


@dataclass(frozen=True)
class PairResult:
    """One pair's test within a comparison, with its p-value adjusted over all pairs."""

    model_a: str
    model_b: str
    result: TestResult
    pvalue_adjusted: float

    def to_dict(self) -> dict[str, Any]:
        """The pair's :meth:`TestResult.to_dict` plus ``model_a``, ``model_b`` and ``pvalue_adjusted``."""
        out = {"model_a": self.model_a, "model_b": self.model_b}
        out.update(self.result.to_dict())
        out["pvalue_adjusted"] = jsonable(self.pvalue_adjusted)
        return out


@dataclass(frozen=True)
class Comparison:
    """The outcome of :func:`compare`.

    ``result``: the omnibus test over all models, or the single test when two models are compared pairwise;
    None for a pairwise test over three or more models. ``pairs``: every pair (A, B) in the order of
    ``models`` with p-values adjusted by ``correction`` (``"nemenyi"`` for Friedman's default post-hoc, whose
    p-values are family-wise already); empty when two models are compared. ``sentence``: the overall
    plain-language summary.
    """

    test: str
    models: tuple[str, ...]
    result: TestResult | None
    pairs: tuple[PairResult, ...] = ()
    correction: str | None = None
    sentence: str = ""
    details: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "models", tuple(self.models))
        object.__setattr__(self, "pairs", tuple(self.pairs))
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict, what ``python -m assess compare`` prints.

        ``{"test", "method", "statistic", "pvalue", "df", "alternative", "effect": {"name", "value", "low", "high",
        "level"}, "assumptions": [{"name", "met", "detail"}], "sentence", "n", "models", "details",
        "correction", "pairs": [{"model_a", "model_b", <the same keys for the pair>, "pvalue_adjusted"}]}``.
        The top-level test fields are those of ``result``; when there is none (a pairwise test over 3+ models)
        they are null and ``sentence`` summarises the pairs. NaN and ±inf are null.
        """
        if self.result is not None:
            out = self.result.to_dict()
        else:
            out = {"test": self.test, "method": self.pairs[0].result.method if self.pairs else self.test,
                   "statistic": None, "pvalue": None, "df": None,
                   "alternative": self.pairs[0].result.alternative if self.pairs else None, "effect": None,
                   "assumptions": [], "sentence": "", "n": self.pairs[0].result.n if self.pairs else None,
                   "models": list(self.models), "details": {}}
        out["test"] = self.test
        out["models"] = list(self.models)
        out["sentence"] = self.sentence
        if self.details:
            out["details"] = {**out.get("details", {}), **jsonable(dict(self.details))}
        out["correction"] = self.correction
        out["pairs"] = [p.to_dict() for p in self.pairs]
        return out

    def to_frame(self) -> pd.DataFrame:
        """One row for the overall result (when there is one) and one per pair, with fixed columns:
        ``model_a, model_b, pvalue_adjusted, correction`` then :data:`FRAME_COLUMNS` of TestResult."""
        rows = []
        if self.result is not None:
            rows.append({"model_a": None, "model_b": None, **self.result._row(), "pvalue_adjusted": math.nan,
                         "correction": None})
        for p in self.pairs:
            rows.append({"model_a": p.model_a, "model_b": p.model_b, **p.result._row(),
                         "pvalue_adjusted": p.pvalue_adjusted, "correction": self.correction})
        return pd.DataFrame(rows, columns=["model_a", "model_b", "pvalue_adjusted", "correction"] + FRAME_COLUMNS)

    def pvalue_matrix(self, *, adjusted: bool = True) -> pd.DataFrame:
        """k × k p-values of the pairs (adjusted by default), diagonal NaN; needs at least 3 models' pairs."""
        if not self.pairs:
            raise AssessError(f"the comparison of {len(self.models)} models with `{self.test}` has no pairs")
        raw = {(p.model_a, p.model_b): (p.pvalue_adjusted if adjusted else p.result.pvalue) for p in self.pairs}
        return pvalue_matrix(raw, models=self.models, correction=None)


@dataclass(frozen=True)
class ComparisonSet:
    """The outcome of :func:`compare_all`: one :class:`Comparison` per suitable test, and the tests skipped
    with the reason."""

    comparisons: tuple[Comparison, ...]
    suggestions: tuple[Suggestion, ...]
    skipped: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "skipped", MappingProxyType(dict(self.skipped)))

    def to_dict(self) -> dict[str, Any]:
        """``{"tests": [Comparison.to_dict() + {"why"}, ...], "skipped": {test: reason}}``."""
        why = {s.test: s.why for s in self.suggestions}
        return {"tests": [{**c.to_dict(), "why": why.get(c.test)} for c in self.comparisons],
                "skipped": dict(self.skipped)}


def compare(data, *, test: str, models: Sequence[str] | None = None, metric: str | Callable | None = None,
            correction: str | None = "auto", confidence_level: float = 0.95, alternative: str = "two-sided",
            **options) -> Comparison:
    r"""Run one test over k ≥ 2 models; for more than two, every pair with adjusted p-values.

    Parameters
    ----------
    data : per-sample predictions — a mapping ``{model: Predictions}`` or a sequence of ``Predictions`` (named by
        ``Predictions.model``), aligned by sample id — or a tidy fold table, a DataFrame with columns ``model``,
        ``fold``, optionally ``repeat``, and one numeric column per metric.
    test : one of :data:`TEST_NAMES`: ``mcnemar cochran_q chi2 fisher_exact delong paired_bootstrap
        diebold_mariano`` need predictions; ``paired_t wilcoxon corrected_resampled_t cv_5x2_t anova kruskal
        friedman`` need per-fold scores (a fold table, or predictions with folds plus a ``metric`` callable).
    models : which models, in order (default: all). Pairs are (A, B) in this order; A − B is the effect's sign.
    metric : for a fold table, the metric column (may be omitted when the table has exactly one); for
        predictions (``paired_bootstrap``, fold tests on predictions with folds), a metric key of the registry
        (``"f1"``, ``"roc_auc"``: see :func:`assess.stats.bridge.registry_metric`) or any callable
        ``f(y_true, y, sample_weight=None)``; ``y`` is the scores when ``use_scores`` (default: what a registry
        metric needs, else labels).
    correction : for the pairs: ``"bonferroni"``, ``"holm"``, ``"fdr_bh"``, ``"fdr_by"``, None (raw p-values), or
        ``"auto"`` (default) = ``"holm"`` — family-wise error control, uniformly more powerful than Bonferroni
        under any dependence — except for ``friedman``, whose pairs are then Nemenyi's (family-wise already;
        ``"nemenyi"`` names it explicitly). A correction named for ``friedman`` runs Demšar's rank z-tests
        :math:`z = (R_A - R_B)/\sqrt{k(k+1)/(6N)}` with it instead.
    confidence_level : of every effect interval; "significant" in the sentences means p < 1 − confidence_level.
    alternative : for pairwise tests; omnibus tests and post-hoc pairs are two-sided.
    **options : test-specific options (see :data:`TESTS`): ``method``/``continuity`` (McNemar; ``continuity`` is
        Yates' correction for chi-squared and the continuity correction for Wilcoxon), ``threshold`` (labels from
        scores, default 0.5), ``n_resamples``/``seed``/``vectorized``/``use_scores`` (paired bootstrap; also
        ``use_scores`` for fold tests on predictions), ``loss``/``h``/``harvey_correction`` (Diebold–Mariano),
        ``test_train_ratio``/``n_folds`` (corrected t; ``n_folds`` defaults to the number of distinct folds),
        ``higher_is_better``/``method`` (Friedman), ``zero_method``/``method`` (Wilcoxon).
    """
    if test == "all":
        raise AssessError("`test='all'` runs every suitable test: call compare_all(data, ...) instead")
    if test not in TESTS:
        raise AssessError(f"`test` must be one of {', '.join(TEST_NAMES)} or 'all' (got {test!r})")
    spec = TESTS[test]
    if correction == "nemenyi" and test != "friedman":
        raise AssessError(f"`correction='nemenyi'` applies to Friedman's pairs only (got test {test!r})")
    if correction not in (None, "auto", "nemenyi") and correction not in CORRECTIONS:
        raise AssessError(f"`correction` must be one of 'auto', {', '.join(repr(c) for c in CORRECTIONS)} or None "
                          f"(got {correction!r})")
    if correction == "auto":
        correction = "nemenyi" if test == "friedman" else "holm"
    level = check_level(confidence_level)
    check_alternative(alternative)
    if spec.kind == "omnibus" and alternative != "two-sided":
        raise AssessError(f"`alternative` does not apply to the omnibus test `{test}` (got {alternative!r}); "
                          "its pairs are two-sided")
    is_table = isinstance(data, pd.DataFrame)
    allowed = set(spec.options)
    if spec.data == "folds" and not is_table:
        allowed |= set(_FOLD_FROM_PREDICTIONS)
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise AssessError(f"option `{unknown[0]}` does not apply to test `{test}` (its options: "
                          f"{', '.join(sorted(allowed)) or 'none'})")
    if spec.data == "predictions":
        if is_table:
            raise AssessError(f"test `{test}` needs per-sample predictions; a fold table has only per-fold scores "
                              "(use paired_t, wilcoxon, corrected_resampled_t, cv_5x2_t, anova, kruskal or friedman)")
        aligned = data if isinstance(data, AlignedPredictions) else align_predictions(data, models=models)
        _check_model_count(test, aligned.models)
        runner = _SAMPLE_RUNNERS[test]
        return runner(aligned, metric=metric, correction=correction, level=level, alternative=alternative,
                      **options)
    # fold tests
    if is_table:
        table, metric_name = data, _metric_column(data, metric)
    else:
        table, metric_name = fold_table_from_predictions(data, models=models, metric=metric, test=test,
                                                         threshold=options.pop("threshold", 0.5),
                                                         use_scores=options.pop("use_scores", None))
        models = list(dict.fromkeys(table["model"]))
    return _FOLD_RUNNERS[test](table, metric=metric_name, models=models, correction=correction, level=level,
                               alternative=alternative, **options)


def fold_table_from_predictions(data, *, models: Sequence[str] | None = None, metric: str | Callable | None,
                                test: str = "a fold test", threshold: float = 0.5,
                                use_scores: bool | None = None) -> tuple[pd.DataFrame, str]:
    """The per-fold scores (``model, fold, <metric>``) that fold tests compute from predictions with folds, and the
    metric column's name — what the tests then compare, and what a fold box plot should show."""
    aligned = data if isinstance(data, AlignedPredictions) else align_predictions(data, models=models)
    if isinstance(metric, str):
        metric = registry_metric(aligned.task, metric, classes=aligned.classes, threshold=threshold)
    if not callable(metric):
        raise AssessError(f"test `{test}` on predictions computes a metric per fold: pass `metric` as a "
                          f"metric key or a function f(y_true, y, sample_weight=None) (got {metric!r})")
    metric_name = getattr(metric, "__name__", "score")
    table = fold_scores(aligned, metric=metric, metric_name=metric_name,
                        use_scores=getattr(metric, "uses_scores", False) if use_scores is None else use_scores,
                        threshold=threshold)
    return table, metric_name


def compare_all(data, *, models: Sequence[str] | None = None, metric: str | Callable | None = None,
                correction: str | None = "auto", confidence_level: float = 0.95, question: str | None = None,
                **options) -> ComparisonSet:
    """Run every test :func:`suggest_tests` finds suitable for ``data`` (``--test all``).

    The question defaults to ``"cv_folds"`` for a fold table, else ``"two_models"`` or ``"several_models"`` by the
    number of models. Options apply to the tests that take them. A suggested test that cannot run on these
    data (e.g. a fold test on predictions without a metric callable) is listed in ``skipped`` with the reason.
    """
    is_table = isinstance(data, pd.DataFrame)
    if is_table:
        metric = _metric_column(data, metric)
        wide = fold_table(data, metric=metric, models=models, min_folds=1, purpose="comparing folds")
        names = [str(c) for c in wide.columns]
        n_folds = int(pd.Index(wide.index.get_level_values("fold")).nunique())
        n_repeats = int(pd.Index(wide.index.get_level_values("repeat")).nunique()) if wide.index.nlevels == 2 else 1
        sugg = suggest_tests(question=question or "cv_folds", n_models=len(names), data="folds",
                             n_folds=n_folds, n_repeats=n_repeats)
    else:
        aligned = data if isinstance(data, AlignedPredictions) else align_predictions(data, models=models)
        names = list(aligned.models)
        has_scores = all(aligned.scores[m] is not None for m in names)
        q = question or ("two_models" if len(names) == 2 else "several_models")
        sugg = suggest_tests(question=q, n_models=len(names), data="predictions", task=aligned.task,
                             has_scores=has_scores)
        data = aligned
    results, skipped = [], {}
    for s in sugg:
        if s.test not in TESTS:
            skipped[s.test] = "not a model comparison"
            continue
        allowed = set(TESTS[s.test].options) | (set(_FOLD_FROM_PREDICTIONS) if TESTS[s.test].data == "folds" else set())
        opts = {k: v for k, v in options.items() if k in allowed}
        uses_metric = is_table or TESTS[s.test].data == "folds" or s.test == "paired_bootstrap"
        try:
            results.append(compare(data, test=s.test, models=names, metric=metric if uses_metric else None,
                                   correction=correction,
                                   confidence_level=confidence_level, **opts))
        except AssessError as exc:
            skipped[s.test] = str(exc)
    return ComparisonSet(comparisons=tuple(results), suggestions=sugg, skipped=skipped)


SUBGROUP_TESTS = ("chi2", "fisher_exact", "kruskal", "anova")


def compare_subgroups(predictions: Predictions, *, test: str = "chi2", groups=None, correction: str | None = "auto",
                      confidence_level: float = 0.95, threshold: float = 0.5, continuity: bool = True) -> Comparison:
    """Does one model perform differently across subgroups (the ``"subgroups"`` question of :func:`suggest_tests`)?

    Subgroups are disjoint sets of samples, so they are compared as independent samples: classification by the
    groups × (correct, incorrect) table — ``"chi2"`` (omnibus, with pairwise chi-squared tests) or
    ``"fisher_exact"`` (pairwise) — and regression or forecasts by the absolute errors per group — ``"kruskal"``
    or ``"anova"`` (omnibus, with pairwise tests of the same kind). ``groups`` is one label per sample (default
    ``predictions.group``); pairs are adjusted with ``correction`` (``"auto"`` = Holm) in the order groups first
    appear. ``continuity`` is Yates' correction of the 2 × 2 chi-squared tests.
    """
    if test not in SUBGROUP_TESTS:
        raise AssessError(f"`test` must be one of {', '.join(SUBGROUP_TESTS)} for subgroups (got {test!r})")
    if correction == "auto":
        correction = "holm"
    if correction is not None and correction not in CORRECTIONS:
        raise AssessError(f"`correction` must be one of 'auto', {', '.join(repr(c) for c in CORRECTIONS)} or None "
                          f"(got {correction!r})")
    level = check_level(confidence_level)
    if not isinstance(predictions, Predictions):
        raise AssessError(f"`predictions` must be one model's Predictions (got {type(predictions).__name__})")
    labels = predictions.group if groups is None else groups
    if labels is None:
        raise AssessError(f"subgroup tests need a group per sample (`group` column); model `{predictions.model}` "
                          "has none")
    labels = np.asarray(labels).astype(str)
    if labels.shape[0] != predictions.n:
        raise AssessError(f"`groups` must have one label per sample ({predictions.n}) (got {labels.shape[0]})")
    names = list(pd.unique(labels))
    if len(names) < 2:
        raise AssessError(f"subgroup tests need at least 2 groups (got {len(names)}: {', '.join(names)})")
    aligned = align_predictions([predictions])
    model = aligned.models[0]
    if test in ("chi2", "fisher_exact"):
        correct = correctness_table(aligned, threshold=threshold)[model].to_numpy()
        table = pd.DataFrame({"correct": [int(correct[labels == g].sum()) for g in names],
                              "incorrect": [int((~correct[labels == g]).sum()) for g in names]}, index=names)
        if test == "chi2":
            omnibus = counts.chi2_independence(table.to_numpy(), correction=continuity, confidence_level=level,
                                               names=names)

            def pair(a, b):
                return counts.chi2_independence(table.loc[[a, b]].to_numpy(), correction=continuity,
                                                confidence_level=level, names=(a, b))
            return _pairwise("chi2", names, pair, correction, level, omnibus=omnibus)

        def pair(a, b):
            return counts.fisher_exact(table.loc[[a, b]].to_numpy(), confidence_level=level, names=(a, b))
        return _pairwise("fisher_exact", names, pair, correction, level)
    if aligned.task not in (Task.REGRESSION, Task.FORECAST):
        raise AssessError(f"`{test}` compares absolute errors of numeric predictions by subgroup (task is "
                          f"{aligned.task.value}); use chi2 or fisher_exact")
    if aligned.y_pred[model] is None:
        raise AssessError(f"model `{model}` has no predictions (y_pred)")
    errors = np.abs(np.asarray(aligned.y_true, dtype=float) - np.asarray(aligned.y_pred[model], dtype=float))
    by_group = {g: errors[labels == g] for g in names}
    fn = folds.anova if test == "anova" else folds.kruskal
    omnibus = fn(*by_group.values(), confidence_level=level, names=names, metric="absolute error")

    def pair(a, b):
        return fn(by_group[a], by_group[b], confidence_level=level, names=(a, b), metric="absolute error")
    return _pairwise(test, names, pair, correction, level, omnibus=omnibus)


# ------------------------------------------------------------------------------------------------- runners: samples


def _check_model_count(test: str, names: Sequence[str]) -> None:
    if len(names) < 2:
        raise AssessError(f"test `{test}` compares at least 2 models (got {len(names)}: {', '.join(names)})")


def _no_metric(test: str, metric) -> None:
    if metric is not None:
        raise AssessError(f"test `{test}` compares per-sample correctness; `metric` does not apply (got {metric!r})")


def _pairwise(test, names, run_pair, correction, level, *, omnibus=None) -> Comparison:
    """Run `run_pair(a, b)` for every pair; with two models and no omnibus, the single result is the result."""
    if len(names) == 2 and omnibus is None:
        res = run_pair(names[0], names[1])
        return Comparison(test=test, models=tuple(names), result=res, pairs=(), correction=None,
                          sentence=res.sentence)
    pairs = [(a, b, run_pair(a, b)) for a, b in itertools.combinations(names, 2)] if len(names) > 2 else []
    used = correction
    raw = np.array([r.pvalue for _, _, r in pairs], dtype=float)
    adj = raw if (used is None or used == "nemenyi" or not pairs) else adjust_pvalues(raw, method=used)
    pair_results = tuple(PairResult(a, b, r, float(p)) for (a, b, r), p in zip(pairs, adj))
    sentence = omnibus.sentence if omnibus is not None else ""
    if pair_results:
        sentence = (sentence + " " if sentence else "") + _pairs_sentence(pair_results, used, level)
    return Comparison(test=test, models=tuple(names), result=omnibus, pairs=pair_results,
                      correction=used if pair_results else None, sentence=sentence)


def _pairs_sentence(pairs: Sequence[PairResult], correction: str | None, level: float) -> str:
    alpha = alpha_of(level)
    label = {"bonferroni": "Bonferroni", "holm": "Holm", "fdr_bh": "Benjamini-Hochberg",
             "fdr_by": "Benjamini-Yekutieli", "nemenyi": "Nemenyi", None: "no"}[correction]
    sig = [p for p in pairs if p.pvalue_adjusted < alpha]
    after = f"after {label} correction" if correction not in (None, "nemenyi") else (
        "by the Nemenyi test" if correction == "nemenyi" else "without correction")
    if not sig:
        return f"No pair of models differs significantly {after} ({len(pairs)} pairs)."
    listed = "; ".join(f"{p.model_a} vs {p.model_b} (adjusted {fmt_p(p.pvalue_adjusted, alpha)})"
                       if correction is not None else f"{p.model_a} vs {p.model_b} ({fmt_p(p.pvalue_adjusted, alpha)})"
                       for p in sig)
    return (f"{len(sig)} of {len(pairs)} pairs differ significantly at the {fmt_level(alpha)} level {after}: "
            f"{listed}.")


def _run_mcnemar(aligned, *, metric, correction, level, alternative, method="exact", continuity=True,
                 threshold=0.5):
    _no_metric("mcnemar", metric)
    correct = correctness_table(aligned, threshold=threshold)

    def pair(a, b):
        return counts.mcnemar(correct[a].to_numpy(), correct[b].to_numpy(), method=method, continuity=continuity,
                              alternative=alternative, confidence_level=level, names=(a, b))
    return _pairwise("mcnemar", aligned.models, pair, correction, level)


def _run_cochran(aligned, *, metric, correction, level, alternative, method="exact", continuity=True,
                 threshold=0.5):
    _no_metric("cochran_q", metric)
    correct = correctness_table(aligned, threshold=threshold)
    omnibus = counts.cochran_q(correct.to_numpy(), names=aligned.models, confidence_level=level)

    def pair(a, b):
        return counts.mcnemar(correct[a].to_numpy(), correct[b].to_numpy(), method=method, continuity=continuity,
                              confidence_level=level, names=(a, b))
    return _pairwise("cochran_q", aligned.models, pair, correction, level, omnibus=omnibus)


def _run_chi2(aligned, *, metric, correction, level, alternative, continuity=True, threshold=0.5):
    _no_metric("chi2", metric)
    table = contingency_table(correctness_table(aligned, threshold=threshold))
    omnibus = counts.chi2_independence(table.to_numpy(), correction=continuity, confidence_level=level,
                                       names=aligned.models)

    def pair(a, b):
        return counts.chi2_independence(table.loc[[a, b]].to_numpy(), correction=continuity, confidence_level=level,
                                        names=(a, b))
    return _pairwise("chi2", aligned.models, pair, correction, level, omnibus=omnibus)


def _run_fisher(aligned, *, metric, correction, level, alternative, threshold=0.5):
    _no_metric("fisher_exact", metric)
    table = contingency_table(correctness_table(aligned, threshold=threshold))

    def pair(a, b):
        return counts.fisher_exact(table.loc[[a, b]].to_numpy(), alternative=alternative, confidence_level=level,
                                   names=(a, b))
    return _pairwise("fisher_exact", aligned.models, pair, correction, level)


def _run_delong(aligned, *, metric, correction, level, alternative):
    if aligned.task != Task.BINARY:
        raise AssessError(f"DeLong compares ROC AUCs of binary scores (task is {aligned.task.value})")
    if metric is not None:
        raise AssessError(f"test `delong` compares ROC AUCs; `metric` does not apply (got {metric!r})")
    for m in aligned.models:
        if aligned.scores[m] is None:
            raise AssessError(f"DeLong needs scores; model `{m}` has none")

    def pair(a, b):
        return scores.delong(aligned.y_true, aligned.scores[a], aligned.scores[b], alternative=alternative,
                             confidence_level=level, names=(a, b))
    return _pairwise("delong", aligned.models, pair, correction, level)


def _run_bootstrap(aligned, *, metric, correction, level, alternative, n_resamples=2000, seed=0,
                   vectorized=False, use_scores=None, threshold=0.5):
    if isinstance(metric, str):
        metric = registry_metric(aligned.task, metric, classes=aligned.classes, threshold=threshold)
    if not callable(metric):
        raise AssessError("test `paired_bootstrap` needs `metric`: a metric key or a function f(y_true, y, "
                          f"sample_weight=None) (got {metric!r})")
    name = getattr(metric, "__name__", "metric")

    wants_scores = getattr(metric, "uses_scores", False) if use_scores is None else use_scores

    def values(m):
        if wants_scores:
            if aligned.scores[m] is None:
                raise AssessError(f"model `{m}` has no scores; `use_scores=True` needs them")
            return aligned.scores[m]
        return predicted_labels(aligned, m, threshold=threshold)

    def pair(a, b):
        return scores.paired_bootstrap(aligned.y_true, values(a), values(b), metric=metric, n_resamples=n_resamples,
                                       confidence_level=level, alternative=alternative, seed=seed,
                                       sample_weight=aligned.weight, vectorized=vectorized, names=(a, b),
                                       metric_name=name)
    return _pairwise("paired_bootstrap", aligned.models, pair, correction, level)


def _run_dm(aligned, *, metric, correction, level, alternative, loss="squared", h=1, harvey_correction=True):
    if aligned.task not in (Task.REGRESSION, Task.FORECAST):
        raise AssessError(f"Diebold-Mariano compares numeric forecasts (task is {aligned.task.value})")
    if metric is not None:
        raise AssessError(f"test `diebold_mariano` uses `loss`, not `metric` (got metric={metric!r})")
    for m in aligned.models:
        if aligned.y_pred[m] is None:
            raise AssessError(f"Diebold-Mariano needs forecasts; model `{m}` has none")

    def pair(a, b):
        return scores.diebold_mariano(aligned.y_true, aligned.y_pred[a], aligned.y_pred[b], loss=loss, h=h,
                                      alternative=alternative, confidence_level=level,
                                      harvey_correction=harvey_correction, names=(a, b))
    return _pairwise("diebold_mariano", aligned.models, pair, correction, level)


_SAMPLE_RUNNERS = {"mcnemar": _run_mcnemar, "cochran_q": _run_cochran, "chi2": _run_chi2,
                   "fisher_exact": _run_fisher, "delong": _run_delong, "paired_bootstrap": _run_bootstrap,
                   "diebold_mariano": _run_dm}

# --------------------------------------------------------------------------------------------------- runners: folds

_LABELS = {"paired_t": "paired t-test", "wilcoxon": "Wilcoxon", "corrected_resampled_t": "corrected t-test",
           "cv_5x2_t": "5×2cv t-test", "anova": "ANOVA", "kruskal": "Kruskal-Wallis", "friedman": "Friedman"}


def _metric_column(table: pd.DataFrame, metric) -> str:
    if metric is not None:
        if not isinstance(metric, str):
            raise AssessError(f"for a fold table `metric` names a column (got {metric!r})")
        return metric
    keys = {"model", "fold", "repeat"}
    candidates = [c for c in table.columns if c not in keys and pd.api.types.is_numeric_dtype(table[c])]
    if len(candidates) == 1:
        return str(candidates[0])
    if not candidates:
        raise AssessError("the fold table has no numeric metric column (columns: "
                          f"{', '.join(map(str, table.columns))})")
    raise AssessError(f"the fold table has several metric columns ({', '.join(map(str, candidates))}); choose one "
                      "with `metric`")


def _run_fold_pairwise(test, fn, min_folds=2, **fixed):
    def runner(table, *, metric, models, correction, level, alternative, **options):
        wide = fold_table(table, metric=metric, models=models, min_folds=min_folds, purpose=_LABELS[test])
        names = [str(c) for c in wide.columns]
        _check_model_count(test, names)
        extra = dict(fixed)
        if test == "corrected_resampled_t" and options.get("test_train_ratio") is None \
                and options.get("n_folds") is None:
            fold_level = wide.index.get_level_values("fold") if "fold" in (wide.index.names or []) else wide.index
            options["n_folds"] = int(pd.Index(fold_level).nunique())
        if test == "wilcoxon" and "continuity" in options:
            options["correction"] = options.pop("continuity")

        def pair(a, b):
            return fn(wide[a].to_numpy(), wide[b].to_numpy(), alternative=alternative, confidence_level=level,
                      names=(a, b), metric=metric, **extra, **options)
        return _pairwise(test, names, pair, correction, level)
    return runner


def _run_5x2(table, *, metric, models, correction, level, alternative):
    wide = fold_table(table, metric=metric, models=models, min_folds=10, purpose="the 5×2cv t-test")
    names = [str(c) for c in wide.columns]
    _check_model_count("cv_5x2_t", names)
    if wide.index.nlevels != 2:
        raise AssessError("the 5×2cv t-test needs a `repeat` column: 5 repeats × 2 folds per model")
    reps = wide.index.get_level_values(0).unique()
    fls = wide.index.get_level_values(1).unique()
    if len(reps) != 5 or len(fls) != 2 or len(wide) != 10:
        raise AssessError(f"the 5×2cv t-test needs 5 repeats × 2 folds per model (got {len(reps)} repeats × "
                          f"{len(fls)} folds)")

    def pair(a, b):
        diff = (wide[a] - wide[b]).unstack(level=1).to_numpy()
        return folds.cv_5x2_t(diff, alternative=alternative, confidence_level=level, names=(a, b), metric=metric)
    return _pairwise("cv_5x2_t", names, pair, correction, level)


def _run_groups(test, fn):
    def runner(table, *, metric, models, correction, level, alternative):
        groups = fold_groups(table, metric=metric, models=models, min_folds=2 if test == "anova" else 1,
                             purpose=_LABELS[test])
        names = list(groups)
        _check_model_count(test, names)
        omnibus = fn(*groups.values(), confidence_level=level, names=names, metric=metric)

        def pair(a, b):
            return fn(groups[a], groups[b], confidence_level=level, names=(a, b), metric=metric)
        return _pairwise(test, names, pair, correction, level, omnibus=omnibus)
    return runner


def _run_friedman(table, *, metric, models, correction, level, alternative, higher_is_better=True, method="chi2"):
    wide = fold_table(table, metric=metric, models=models, min_folds=2, purpose="Friedman")
    names = [str(c) for c in wide.columns]
    _check_model_count("friedman", names)
    omnibus = folds.friedman(wide, higher_is_better=higher_is_better, method=method, confidence_level=level,
                             metric=metric)
    ranks = omnibus.details["average_ranks"]
    k, n_blocks = len(names), len(wide)
    se = math.sqrt(k * (k + 1) / (6.0 * n_blocks))
    cd = omnibus.details["critical_difference"]
    alpha = alpha_of(level)
    nem = folds.nemenyi(wide, higher_is_better=higher_is_better, alpha=alpha) if correction == "nemenyi" else None

    def pair(a, b):
        diff = ranks[a] - ranks[b]
        z = diff / se
        if nem is not None:
            p = float(nem.pvalues.loc[a, b])
            eff = Effect("average rank difference (A - B)", diff, diff - cd, diff + cd, level)
            method_name, label = "Nemenyi post-hoc", "Nemenyi"
        else:
            p = float(min(1.0, 2 * NORMAL.sf(abs(z))))
            half = float(NORMAL.ppf(1 - alpha / 2)) * se
            eff = Effect("average rank difference (A - B)", diff, diff - half, diff + half, level)
            method_name, label = "rank z-test after Friedman (Demšar 2006)", "rank z-test"
        if diff == 0:
            lead = f"{a} and {b} have the same average rank ({fmt_num(ranks[a])})"
        else:
            better, worse = (a, b) if diff < 0 else (b, a)
            lead = (f"{better}'s average rank ({fmt_num(ranks[better])}) is better than {worse}'s "
                    f"({fmt_num(ranks[worse])}) by {fmt_num(abs(diff))}"
                    + (f"; the critical difference is {fmt_num(cd)}" if nem is not None else ""))
        return TestResult(test="nemenyi" if nem is not None else "rank_z", method=method_name, statistic=z,
                          pvalue=p, df=None, alternative="two-sided", effect=eff, assumptions=(),
                          sentence=f"{lead}; {verdict(p, alpha, label)}.", n=n_blocks, models=(a, b),
                          details={"average_rank_a": ranks[a], "average_rank_b": ranks[b]})
    return _pairwise("friedman", names, pair, correction, level, omnibus=omnibus)


_FOLD_RUNNERS = {
    "paired_t": _run_fold_pairwise("paired_t", folds.paired_t, unit="folds"),
    "wilcoxon": _run_fold_pairwise("wilcoxon", folds.wilcoxon, min_folds=1, unit="folds"),
    "corrected_resampled_t": _run_fold_pairwise("corrected_resampled_t", folds.corrected_resampled_t, unit="folds"),
    "cv_5x2_t": _run_5x2,
    "anova": _run_groups("anova", folds.anova),
    "kruskal": _run_groups("kruskal", folds.kruskal),
    "friedman": _run_friedman,
}
