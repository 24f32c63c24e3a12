"""Compare k models with one test: pairwise (with adjusted p-values) or omnibus plus post-hoc pairs.

The one entry point behind the Compare page and ``python -m assess compare FILE --test NAME [--models A B ...]
[--metric K] [--correction NAME]``: :func:`compare` for one test, :func:`compare_all` for ``--test all``. Every fact
about a test (its design, data, options, details) is in :mod:`assess.stats.registry`; the runners are in
:mod:`assess.stats.runners`. Multiple comparisons: ISO/IEC TS 4213 7.10 (see :mod:`assess.stats.corrections`).

The design is read from the data (:func:`assess.stats.shaping.sample_design`): models with the same sample ids (or,
without ids, the same rows and ground truth) are *paired*; models with disjoint ids (or different rows) are
*independent*. A paired test refuses independent data (pairing them would be invented). A test for independent
samples on paired data runs, and its "independent samples per model" assumption reads *not met*, naming the paired
test to use — the same treatment ANOVA and Kruskal–Wallis give folds of one cross-validation.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from assess.core.data import Predictions, Task
from assess.core.decision import Decision
from assess.core.errors import AssessError
from assess.metrics.registry import get, headline
from assess.stats import folds, runners
from assess.stats._common import check_alternative, check_confidence_level, metric_words
from assess.stats._result import (INDEPENDENT, INDEPENDENT_SAMPLES, PAIRED, Assumption, Comparison, ComparisonSet,
                                  Design, TestResult)
from assess.stats.bridge import registry_metric
from assess.stats.corrections import CORRECTIONS
from assess.stats.registry import FOLDS, OMNIBUS, PREDICTIONS, TEST_NAMES, TESTS, TestSpec
from assess.stats.shaping import (AlignedPredictions, SeparatePredictions, align_predictions, arrange_predictions,
                                  fold_design, fold_scores, fold_table, loss_label, resolve_loss,
                                  sample_losses)
from assess.stats.suggest import suggest_tests, wilcoxon_out_of_reach
from assess.stats.verdict import one_verdict

#: What to run instead when a test for independent samples meets paired data, by what the test needs.
_PAIRED_INSTEAD = {"labels": "McNemar (two models) or Cochran's Q", "scores": "DeLong (delong)",
                   "a metric": "the paired bootstrap (paired_bootstrap)",
                   "losses": "a paired test of the losses (paired_bootstrap, or diebold_mariano for numbers)",
                   "fold scores": "friedman, corrected_resampled_t or wilcoxon"}


def compare(data, *, test: str, models: Sequence[str] | None = None, metric: str | Callable | None = None,
            correction: str | None = "auto", confidence_level: float = 0.95, alternative: str = "two-sided",
            decision: Decision = Decision(), **options) -> Comparison:
    r"""Run one test over k ≥ 2 models; for more than two, every pair with adjusted p-values.

    Parameters
    ----------
    data : per-sample predictions — a mapping ``{model: Predictions}`` or a sequence of ``Predictions`` (named by
        ``Predictions.model``); the models share their samples (paired: same ids, or no ids and the same rows) or
        each has its own (independent: disjoint ids, or no ids and different rows) — or a tidy fold table, a
        DataFrame with columns ``model``, ``fold``, optionally ``repeat``, and one numeric column per metric.
    test : one of :data:`~assess.stats.registry.TEST_NAMES` (see :data:`~assess.stats.registry.TESTS` for what each
        needs). Paired tests (McNemar, Cochran's Q, DeLong, paired bootstrap, Diebold–Mariano, the fold tests
        but ANOVA and Kruskal–Wallis) refuse independent data; tests for independent samples (chi-squared, Fisher,
        unpaired DeLong, unpaired bootstrap, Welch's t, Mann–Whitney) run on paired data with their independence
        assumption marked as not met.
    models : which models, in order (default: all). Pairs are (A, B) in this order; A − B is the effect's sign.
    metric : for a fold table, the metric column (may be omitted when the table has exactly one); for
        predictions (bootstraps — default the task's headline metric, as `compare_all` — and fold tests on
        predictions with folds), a metric key of the registry (``"f1"``,
        ``"roc_auc"``: see :func:`assess.stats.bridge.registry_metric`) or any callable
        ``f(y_true, y, sample_weight=None)`` — ``y`` is the scores when ``metric.uses_scores`` is true, else the
        labels; with ``metric.vectorized`` true it takes a 2-D ``sample_weight`` (see
        :func:`assess.stats.paired_bootstrap`).
    correction : for the pairs: ``"bonferroni"``, ``"holm"``, ``"fdr_bh"``, ``"fdr_by"``, None (raw p-values), or
        ``"auto"`` (default) = ``"holm"`` — family-wise error control, uniformly more powerful than Bonferroni
        under any dependence — except for ``friedman``, whose pairs are then Nemenyi's (family-wise already;
        ``"nemenyi"`` names it explicitly). A correction named for ``friedman`` runs Demšar's rank z-tests
        :math:`z = (R_A - R_B)/\sqrt{k(k+1)/(6N)}` with it instead.
    confidence_level : of every effect interval; "significant" in the sentences means p < 1 − confidence_level.
    alternative : for pairwise tests; omnibus tests and post-hoc pairs are two-sided.
    decision : where the labels of label-based tests come from (:class:`assess.core.decision.Decision`; default: the
        ``y_pred`` column, else score ≥ 0.5 or the arg-max); tests of scores alone ignore it.
    **options : the test's options, :attr:`TestSpec.options` (e.g. ``method``/``continuity`` of McNemar,
        ``n_resamples``/``seed`` of the bootstraps); each is checked against its type and choices.

    The result's ``design`` says which design the data have and why.
    """
    if test == "all":
        raise AssessError("`test='all'` runs every suitable test: call compare_all(data, ...) instead")
    spec, correction, confidence_level = checked_arguments(test, correction, confidence_level, alternative)
    is_table = isinstance(data, pd.DataFrame)
    options = checked_options(spec, options, FOLDS if is_table else PREDICTIONS, None if is_table else _task_of(data))
    if not isinstance(decision, Decision):
        raise AssessError(f"`decision` must be an assess.core.decision.Decision (got {type(decision).__name__})")
    common = dict(correction=correction, confidence_level=confidence_level, alternative=alternative)
    # paired t and Wilcoxon compare per-sample errors of numeric predictions, but per-fold scores of repeated
    # cross-validation, whose rows repeat every sample
    on_folds = is_table or spec.data == (FOLDS,) or (spec.per_sample and (not spec.compares_errors(_task_of(data))
                                                                          or _repeated(data)))
    if is_table:
        if FOLDS not in spec.data:
            raise AssessError(f"test `{test}` needs per-sample predictions; a fold table has only per-fold scores "
                              f"(use {', '.join(k for k, s in TESTS.items() if FOLDS in s.data)})")
        metric = _metric_column(data, metric)
        design = fold_design(data, metric=metric, models=models)
        result = spec.runner(data, models=models, metric=metric, **common, **options)
    elif on_folds:
        table, metric_name = fold_table_from_predictions(data, models=models, metric=metric, test=test,
                                                         decision=decision)
        design = fold_design(table, metric=metric_name)
        result = spec.runner(table, models=list(dict.fromkeys(table["model"])), metric=metric_name, **common,
                             **options)
        metric = metric_name
    else:
        arranged, design = arrange_predictions(data, models=models)
        runners.check_model_count(test, arranged.models)
        if isinstance(arranged, AlignedPredictions) and arranged.n_repeats > 1:
            raise AssessError(f"test `{test}` takes every row as a sample, but the rows hold {arranged.n_repeats} "
                              "repeats of cross-validation (each sample once per repeat): it would count every "
                              f"sample {arranged.n_repeats} times as if independent. Compare the folds instead "
                              "(corrected_resampled_t, or cv_5x2_t for 5 repeats × 2 folds), or keep one repeat")
        if spec.design == PAIRED and design.kind == INDEPENDENT:
            others = ", ".join(k for k, s in TESTS.items() if s.design == INDEPENDENT and PREDICTIONS in s.data)
            raise AssessError(f"test `{test}` compares models on the same samples, but {design.reason}; tests for "
                              f"independent samples: {others}")
        if spec.uses_decision:
            options["decision"] = decision
        if metric is None and spec.needs == "a metric":   # as `compare_all` and the Compare page: the headline
            metric = default_metric(arranged.task, _has_scores(arranged))[0]
        result = spec.runner(arranged, models=models, metric=metric, **common, **options)
        if not spec.weighted and is_weighted(arranged):
            result = dataclasses.replace(result, sentence=f"{result.sentence} {UNWEIGHTED_CAUTION}")
    what = compared_quantity(spec, metric, options, None if on_folds else _task_of(data),
                             None if on_folds else _has_scores(arranged))
    return with_design(result, spec, design, on_folds, what=what)


def compared_quantity(spec: TestSpec, metric=None, options: dict | None = None, task: Task | None = None,
                      has_scores: bool | None = None) -> str:
    """What a test compares, in words: accuracy for the tests of right and wrong, ROC AUC for DeLong's, the metric
    (a fold table's column, a metric key in the registry's words), the per-sample loss for the tests of losses."""
    if spec.needs == "labels":
        return "per-label accuracy" if spec.key == "mcnemar_per_label" else "accuracy"
    if spec.needs == "scores":
        return "ROC AUC"
    if task is None or spec.needs == "a metric":   # a fold table, or per-fold scores computed from predictions
        return metric_words(getattr(metric, "__name__", metric) if metric is not None else "the metric")
    loss = (options or {}).get("loss", spec.option("loss").default)
    return loss_label(resolve_loss(task, loss, has_scores=bool(has_scores)))


UNWEIGHTED_CAUTION = ("Caution: this test counts every row once, without the file's sample weights, so its values "
                      "can differ from the weighted metrics; the paired bootstrap uses the weights.")


def is_weighted(data) -> bool:
    """Whether the rows of ``data`` (aligned or separate predictions, or a mapping of model → Predictions) carry
    sample weights (a weight column, as the out-of-core engines see it too)."""
    if isinstance(data, AlignedPredictions):
        return data.weight is not None
    predictions = data.predictions if isinstance(data, SeparatePredictions) else data
    return any(p.weight is not None for p in predictions.values())


def _has_scores(arranged: AlignedPredictions | SeparatePredictions) -> bool:
    """Whether every model of arranged predictions has scores."""
    if isinstance(arranged, SeparatePredictions):
        return all(p.scores is not None for p in arranged.predictions.values())
    return all(arranged.scores[m] is not None for m in arranged.models)


def _task_of(data) -> Task | None:
    """The task of predictions given as a mapping, a sequence or arranged (None when there are none)."""
    if isinstance(data, (AlignedPredictions, SeparatePredictions)):
        return data.task
    values = list(data.values()) if isinstance(data, dict) else list(data)
    return values[0].task if values and isinstance(values[0], Predictions) else None


def fold_table_from_predictions(data, *, models: Sequence[str] | None = None, metric: str | Callable | None,
                                test: str = "a fold test", decision: Decision = Decision()
                                ) -> tuple[pd.DataFrame, str]:
    """The per-fold scores (``model, fold, <metric>``) that fold tests compute from predictions with folds, and the
    metric column's name — what the tests then compare, and what a fold box plot should show. The models must
    share their samples (the folds are then the same)."""
    aligned = data if isinstance(data, AlignedPredictions) else align_predictions(data, models=models)
    if metric is None:   # the headline metric, as the bootstraps default to (`default_metric`)
        metric, _ = default_metric(aligned.task, all(aligned.scores[m] is not None for m in aligned.models))
    if isinstance(metric, str):
        metric = registry_metric(aligned.task, metric, classes=aligned.classes)
    if not callable(metric):
        raise AssessError(f"test `{test}` on predictions computes a metric per fold: pass `metric` as a "
                          f"metric key or a function f(y_true, y, sample_weight=None) (got {metric!r})")
    metric_name = getattr(metric, "__name__", "score")
    table = fold_scores(aligned, metric=metric, metric_name=metric_name,
                        use_scores=getattr(metric, "uses_scores", False), decision=decision)
    table.attrs["higher_is_better"] = getattr(metric, "higher_is_better", True)
    return table, metric_name


def data_design(data, *, models: Sequence[str] | None = None, metric: str | None = None) -> Design:
    """The design of predictions (:func:`~assess.stats.shaping.sample_design`) or of a fold table
    (:func:`~assess.stats.shaping.fold_design`), with the reason: what the page and ``--test all`` show."""
    if isinstance(data, pd.DataFrame):
        return fold_design(data, metric=_metric_column(data, metric), models=models)
    return arrange_predictions(data, models=models)[1]


def compare_all(data, *, models: Sequence[str] | None = None, metric: str | Callable | None = None,
                correction: str | None = "auto", confidence_level: float = 0.95, question: str | None = None,
                decision: Decision = Decision(), **options) -> ComparisonSet:
    """Run every test :func:`suggest_tests` finds suitable for ``data`` and its design (``--test all``).

    The question defaults to ``"cv_folds"`` for a fold table, else ``"two_models"`` or ``"several_models"`` by the
    number of models; the design (paired or independent) comes from the data and is reported with its reason.
    Options (and the ``decision``) apply to the tests that take them. A suggested test that cannot run on these data (e.g. a bootstrap
    without a metric) is listed in ``skipped`` with the reason, and so is the paired bootstrap of an unweighted ROC AUC
    once DeLong's test has answered the same question analytically. ``verdict`` is the one answer
    (:mod:`assess.stats.verdict`): the test it follows by a stated rule, why, and the pairs the tests disagree on.
    """
    is_table = isinstance(data, pd.DataFrame)
    if is_table:
        metric = _metric_column(data, metric)
        design = fold_design(data, metric=metric, models=models)
        paired = design.kind == PAIRED
        if paired:
            wide = fold_table(data, metric=metric, models=models, min_folds=1, purpose="comparing folds")
            names = [str(c) for c in wide.columns]
            n_folds = int(pd.Index(wide.index.get_level_values("fold")).nunique())
            n_repeats = (int(pd.Index(wide.index.get_level_values("repeat")).nunique()) if wide.index.nlevels == 2
                         else 1)
        else:
            names = [str(m) for m in (models or dict.fromkeys(data["model"].astype(str)))]
            n_folds = n_repeats = None
        sugg = suggest_tests(question=question or "cv_folds", n_models=len(names), data="folds", paired=paired,
                             n_folds=n_folds, n_repeats=n_repeats)
    else:
        data, design = arrange_predictions(data, models=models)
        if isinstance(metric, str):
            get(data.task, metric)   # an unknown key is the user's error, not a bootstrap "skipped" in silence
        names = list(data.models)
        has_scores = _has_scores(data)
        # repeated cross-validation: the rows repeat every sample, so only its folds are compared
        repeats = data.n_repeats if isinstance(data, AlignedPredictions) and data.fold is not None else 1
        q = question or ("cv_folds" if repeats > 1 else "two_models" if len(names) == 2 else "several_models")
        blocks = isinstance(data, AlignedPredictions) and (data.fold is not None or data.series is not None)
        # the first choice tests the metric compared: the one named, else the headline the bootstraps fall back to
        led_by = metric if isinstance(metric, str) else headline(data.task, has_scores=has_scores) if metric is None \
            else None
        sugg = suggest_tests(question=q, n_models=len(names), data="predictions", task=data.task,
                             has_scores=has_scores, paired=design.kind == PAIRED, blocks=blocks,
                             weighted=is_weighted(data), metric=led_by,
                             **(_fold_design(data) if repeats > 1 else {}))
    metric_reason = None
    # The bootstraps cannot run without a metric; the other tests keep their own default (correctness, losses).
    if metric is None and not is_table and any(s.test in TESTS and TESTS[s.test].needs == "a metric" for s in sugg):
        metric, metric_reason = default_metric(data.task, has_scores)
    results, skipped = [], {}
    if is_table and paired and (why := wilcoxon_out_of_reach(n_folds, n_repeats)):
        skipped["wilcoxon"] = why
    for s in sugg:
        if s.test not in TESTS:
            skipped[s.test] = "not a model comparison"
            continue
        if (s.test == "paired_bootstrap" and metric == "roc_auc" and not is_table and not is_weighted(data)
                and any(r.test == "delong" for r in results)):
            # Unweighted ROC AUC: DeLong's test (run above) answers the same question — the same AUC difference on
            # the same samples — analytically, its variance the exact U-statistic one (DeLong et al. 1988), where
            # the bootstrap would ask it again at ~1,000× the cost. Sample weights keep the bootstrap: DeLong's test
            # counts every row once, so only the bootstrap compares the weighted AUCs.
            skipped[s.test] = ("DeLong's test above compares the same ROC AUC difference analytically; "
                               "the paired bootstrap would ask the same question again at about 1,000× the cost")
            continue
        spec = TESTS[s.test]
        kind = FOLDS if is_table else PREDICTIONS
        allowed = {o.name for o in spec.options_for(kind, None if is_table else data.task)}
        opts = {k: v for k, v in options.items() if k in allowed}
        uses_metric = spec.takes_metric(kind, None if is_table else data.task) and (
            metric_reason is None or spec.needs == "a metric")
        try:
            results.append(compare(data, test=s.test, models=names, metric=metric if uses_metric else None,
                                   correction=correction, confidence_level=confidence_level, decision=decision,
                                   **opts))
        except AssessError as exc:
            skipped[s.test] = str(exc)
    verdict = one_verdict(results, metric=getattr(metric, "__name__", metric),
                          folds=is_table or question == "cv_folds", weighted=not is_table and is_weighted(data),
                          confidence_level=confidence_level)
    return ComparisonSet(comparisons=tuple(results), suggestions=sugg, skipped=skipped, design=design,
                         metric=metric if metric_reason else None, metric_reason=metric_reason, verdict=verdict)


#: Why the bootstrap compares the task's headline metric (:func:`assess.metrics.registry.headline`) when no metric
#: was chosen: it is the quantity the other suggested tests compare, so the results agree in what they are about.
_HEADLINE_REASONS = {
    "roc_auc": "the bootstrap compares ROC AUC, threshold-free and the quantity DeLong's test compares",
    "accuracy": "the bootstrap compares accuracy, the quantity McNemar's and Cochran's Q tests compare",
    "f1_micro": "the bootstrap compares the micro-averaged F1 over all labels",
    "adjusted_rand_index": "the bootstrap compares the adjusted Rand index, chance-corrected agreement with the "
                           "reference classes",
    "mae": "the bootstrap compares the mean absolute error, the loss the paired t and Wilcoxon tests compare",
}


def default_metric(task: Task, has_scores: bool) -> tuple[str, str]:
    """(metric key, why) for the tests that compare a metric (the bootstraps) when none was chosen: the task's
    headline metric, the one every surface leads with."""
    key = headline(task, has_scores=has_scores)
    return key, f"no metric chosen: {_HEADLINE_REASONS[key]}"


SUBGROUP_TESTS = ("chi2", "fisher_exact", "kruskal", "anova")


def compare_subgroups(predictions: Predictions, *, test: str = "chi2", groups=None, correction: str | None = "auto",
                      confidence_level: float = 0.95, decision: Decision = Decision(), continuity: bool = False
                      ) -> Comparison:
    """Does one model perform differently across subgroups (the ``"subgroups"`` question of :func:`suggest_tests`)?

    Subgroups are disjoint sets of samples, so they are compared as independent samples: classification by the
    groups × (correct, incorrect) table — ``"chi2"`` (omnibus, with pairwise chi-squared tests) or
    ``"fisher_exact"`` (pairwise) — and regression or forecasts by the absolute errors per group — ``"kruskal"``
    or ``"anova"`` (omnibus, with pairwise tests of the same kind). ``groups`` is one label per sample (default
    ``predictions.group``); pairs are adjusted with ``correction`` (``"auto"`` = Holm) in the order groups first
    appear. ``continuity`` is Yates' correction of the 2 × 2 chi-squared tests (off by default: the package's
    convention, `assess.stats.counts.chi2_independence`).
    """
    if test not in SUBGROUP_TESTS:
        raise AssessError(f"`test` must be one of {', '.join(SUBGROUP_TESTS)} for subgroups (got {test!r})")
    correction = "holm" if correction == "auto" else _check_correction(correction, test)
    confidence_level = check_confidence_level(confidence_level)
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
    design = Design(INDEPENDENT, "subgroups are disjoint sets of samples")
    common = dict(models=None, metric=None, correction=correction, confidence_level=confidence_level,
                  alternative="two-sided", decision=decision)
    if test in ("chi2", "fisher_exact"):
        parts = SeparatePredictions(predictions.task, tuple(predictions.classes), tuple(names),
                                    {g: _subset(predictions, labels == g, g) for g in names})
        if test == "chi2":
            result = runners.chi2(parts, continuity=continuity, **common)
        else:
            result = runners.fisher_exact(parts, **common)
        return with_design(result, TESTS[test], design, False)
    if predictions.task not in (Task.REGRESSION, Task.FORECAST):
        raise AssessError(f"`{test}` compares absolute errors of numeric predictions by subgroup (task is "
                          f"{predictions.task.value}); use chi2 or fisher_exact")
    if predictions.y_pred is None:
        raise AssessError(f"model `{predictions.model}` has no predictions (y_pred)")
    errors = sample_losses(predictions, loss="absolute")   # a multi-output row: the mean over its outputs
    by_group = {g: errors[labels == g] for g in names}
    fn = folds.anova if test == "anova" else folds.kruskal
    omnibus = fn(*by_group.values(), confidence_level=confidence_level, names=names, metric="absolute error")

    def pair(a, b):
        return fn(by_group[a], by_group[b], confidence_level=confidence_level, names=(a, b), metric="absolute error")
    result = runners.pairwise(test, names, pair, correction, confidence_level, omnibus=omnibus)
    return dataclasses.replace(result, design=design)


# ------------------------------------------------------------------------------------------------------ helpers


def _check_correction(correction, test: str):
    if correction == "nemenyi" and test != "friedman":
        raise AssessError(f"`correction='nemenyi'` applies to Friedman's pairs only (got test {test!r})")
    if correction not in (None, "auto", "nemenyi") and correction not in CORRECTIONS:
        raise AssessError(f"`correction` must be one of 'auto', {', '.join(repr(c) for c in CORRECTIONS)} or None "
                          f"(got {correction!r})")
    if correction == "auto":
        return "nemenyi" if test == "friedman" else "holm"
    return correction


def checked_arguments(test: str, correction, confidence_level, alternative: str) -> tuple[TestSpec, str | None, float]:
    """(the test's spec, the correction with "auto" resolved, the confidence level as a float): the checks of a
    comparison's arguments, in memory (`compare`) and out of core (`assess.engine.compare`). The alternative must be
    one the tests know, and two-sided for an omnibus test (its pairs are two-sided)."""
    if test not in TESTS:
        raise AssessError(f"`test` must be one of {', '.join(TEST_NAMES)} or 'all' (got {test!r})")
    spec = TESTS[test]
    correction = _check_correction(correction, test)
    confidence_level = check_confidence_level(confidence_level)
    check_alternative(alternative)
    if spec.kind == OMNIBUS and alternative != "two-sided":
        raise AssessError(f"`alternative` does not apply to the omnibus test `{test}` (got {alternative!r}); "
                          "its pairs are two-sided")
    return spec, correction, confidence_level


def checked_options(spec: TestSpec, options: dict, data: str, task=None) -> dict:
    """``options`` checked against the test's options for this data kind (and task): each one's type and choices;
    an option the test does not take is refused with the test's own options named."""
    allowed = {o.name: o for o in spec.options_for(data, task)}
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise AssessError(f"option `{unknown[0]}` does not apply to test `{spec.key}` (its options: "
                          f"{', '.join(sorted(allowed)) or 'none'})")
    return {k: allowed[k].check(v, spec.key) for k, v in options.items()}


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


def _repeated(data) -> bool:
    """Whether predictions (a mapping, a sequence or arranged) hold more than one repeat of cross-validation."""
    if isinstance(data, AlignedPredictions):
        return data.n_repeats > 1
    preds = data.predictions.values() if isinstance(data, SeparatePredictions) else \
        data.values() if isinstance(data, dict) else data
    return any(p.repeat is not None and len(pd.unique(p.repeat)) > 1 for p in preds)


def _fold_design(aligned: AlignedPredictions) -> dict:
    """``n_folds`` (most per repeat) and ``n_repeats`` of aligned predictions of repeated cross-validation."""
    blocks = pd.DataFrame({"repeat": aligned.repeat, "fold": aligned.fold}).drop_duplicates()
    return {"n_folds": int(blocks.groupby("repeat")["fold"].nunique().max()), "n_repeats": aligned.n_repeats}


def _subset(pred: Predictions, mask: np.ndarray, name: str) -> Predictions:
    def take(arr):
        return None if arr is None else np.asarray(arr)[mask]
    return Predictions(pred.task, pred.classes, take(pred.y_true), take(pred.y_pred), take(pred.scores),
                       weight=take(pred.weight), fold=take(pred.fold), ids=take(pred.ids), model=name)


def with_design(result: Comparison, spec: TestSpec, design: Design, folds_data: bool, *,
                what: str | None = None) -> Comparison:
    """The comparison with its design; for a test for independent samples, its independence assumption filled in
    from the design (met, not met with the paired test to use instead, or unknown for same-id folds). The pairs'
    summary of 3+ models ("2 of 3 pairs differ …", which the report quotes as its verdict) leads with the test and
    ``what`` it compares (default `compared_quantity` of the spec: accuracy, ROC AUC) — it named neither."""
    if result.result is None and result.pairs and spec.key != "better_than_random":
        what = what or compared_quantity(spec)
        result = dataclasses.replace(result, sentence=f"{spec.title} on {what}: {result.sentence[:1].lower()}"
                                                      f"{result.sentence[1:]}")
    if spec.design == INDEPENDENT:
        if design.kind == INDEPENDENT:
            stated = Assumption(INDEPENDENT_SAMPLES, True, design.reason)
        elif folds_data:
            stated = Assumption(INDEPENDENT_SAMPLES, None,
                                f"{design.reason}; folds of one cross-validation are paired, so "
                                f"{_PAIRED_INSTEAD['fold scores']} would use that")
        else:
            stated = Assumption(INDEPENDENT_SAMPLES, False,
                                f"{design.reason}: this test ignores the pairing; use "
                                f"{_PAIRED_INSTEAD[spec.needs]} instead")
        result = dataclasses.replace(
            result, result=_state(result.result, stated),
            pairs=tuple(dataclasses.replace(p, result=_state(p.result, stated)) for p in result.pairs))
        if stated.met is False:
            result = dataclasses.replace(result, sentence=f"{result.sentence} Caution: {stated.detail}.")
    return dataclasses.replace(result, design=design)


def _state(result: TestResult | None, stated: Assumption) -> TestResult | None:
    if result is None or not any(a.name == INDEPENDENT_SAMPLES for a in result.assumptions):
        return result
    return dataclasses.replace(result, assumptions=tuple(stated if a.name == INDEPENDENT_SAMPLES else a
                                                         for a in result.assumptions))
