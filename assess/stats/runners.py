"""How each test runs over k models: one runner per :class:`assess.stats.registry.TestSpec`.

A runner takes the data in the shape its test needs — :class:`~assess.stats.shaping.AlignedPredictions` (paired
tests on predictions), :class:`~assess.stats.shaping.SeparatePredictions` (tests for independent samples; paired
data reach them through :func:`~assess.stats.shaping.separate`), or a tidy fold table (fold tests; Welch's t and
Mann–Whitney also take one) — plus the keywords ``models, metric, correction, confidence_level, alternative`` and
the test's options (already checked by :func:`assess.stats.compare`), and returns a
:class:`~assess.stats._result.Comparison`: the single result for two models, else every pair with adjusted p-values
(and the omnibus test where there is one).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from assess.core.data import Task
from assess.core.decision import Decision, predicted_labels
from assess.core.errors import AssessError
from assess.core.formatting import confidence_interval, p_value, percent_level, significant
from assess.intervals import ConfidenceInterval
from assess.stats import counts, folds, horizons, scores
from assess.stats._common import NORMAL, alpha_of, verdict
from assess.stats._result import Comparison, Effect, PairResult, TestResult
from assess.stats.bridge import registry_metric
from assess.stats.corrections import adjust_pvalues
from assess.stats.shaping import (AlignedPredictions, SeparatePredictions, contingency_table, correctness_table,
                                  fold_groups, fold_table, loss_label, model_correct,
                                  resolve_loss, sample_losses, separate)
from assess.core.defaults import DEFAULT_RESAMPLES

# ------------------------------------------------------------------------------------------------------ pairs


def check_model_count(test: str, names: Sequence[str]) -> None:
    if len(names) < 2:
        raise AssessError(f"test `{test}` compares at least 2 models (got {len(names)}: {', '.join(names)})")


def pairwise(test, names, run_pair, correction, confidence_level, *, omnibus=None) -> Comparison:
    """Run `run_pair(a, b)` for every pair; with two models and no omnibus, the single result is the result."""
    if len(names) == 2 and omnibus is None:
        res = run_pair(names[0], names[1])
        return Comparison(test=test, models=tuple(names), result=res, pairs=(), correction=None,
                          sentence=res.sentence)
    pairs = [(a, b, run_pair(a, b)) for a, b in itertools.combinations(names, 2)] if len(names) > 2 else []
    raw = np.array([r.pvalue for _, _, r in pairs], dtype=float)
    adj = raw if (correction is None or correction == "nemenyi" or not pairs) else adjust_pvalues(raw,
                                                                                                   method=correction)
    pair_results = tuple(PairResult(a, b, r, float(p)) for (a, b, r), p in zip(pairs, adj))
    sentence = omnibus.sentence if omnibus is not None else ""
    if pair_results:
        sentence = (sentence + " " if sentence else "") + _pairs_sentence(pair_results, correction, confidence_level)
    return Comparison(test=test, models=tuple(names), result=omnibus, pairs=pair_results,
                      correction=correction if pair_results else None, sentence=sentence)


def _pairs_sentence(pairs: Sequence[PairResult], correction: str | None, confidence_level: float) -> str:
    alpha = alpha_of(confidence_level)
    label = {"bonferroni": "Bonferroni", "holm": "Holm", "fdr_bh": "Benjamini-Hochberg",
             "fdr_by": "Benjamini-Yekutieli", "nemenyi": "Nemenyi", None: "no"}[correction]
    sig = [p for p in pairs if p.pvalue_adjusted < alpha]
    after = f"after {label} correction" if correction not in (None, "nemenyi") else (
        "by the Nemenyi test" if correction == "nemenyi" else "without correction")
    if not sig:
        return f"No pair of models differs significantly {after} ({len(pairs)} pairs)."
    listed = "; ".join(f"{p.model_a} vs {p.model_b} ("
                       + ("adjusted " if correction is not None else "") + f"{p_value(p.pvalue_adjusted, alpha)})"
                       for p in sig)
    return (f"{len(sig)} of {len(pairs)} pairs differ significantly at the {percent_level(alpha)} level {after}: "
            f"{listed}.")


def refuse_metric(test: str, metric, what: str = "compares per-sample correctness") -> None:
    """Refuse a ``metric`` given to a test that takes none (it compares ``what``)."""
    if metric is not None:
        raise AssessError(f"test `{test}` {what}; `metric` does not apply (got {metric!r})")


def _as_separate(data) -> SeparatePredictions:
    return data if isinstance(data, SeparatePredictions) else separate(data)


def _metric_callable(test: str, task: Task, classes, metric) -> Callable:
    if isinstance(metric, str):
        metric = registry_metric(task, metric, classes=classes)
    if not callable(metric):
        raise AssessError(f"test `{test}` needs `metric`: a metric key or a function f(y_true, y, "
                          f"sample_weight=None) (got {metric!r})")
    return metric


def _metric_input(test: str, task: Task, classes, model: str, metric, y_pred, scores_, decision: Decision):
    """What a metric callable takes of a model: its scores when ``metric.uses_scores``, else its labels."""
    if getattr(metric, "uses_scores", False):
        if scores_ is None:
            raise AssessError(f"model `{model}` has no scores; the metric of `{test}` needs them")
        return scores_
    return predicted_labels(task, y_pred, scores_, decision, labels=classes, model=model)


# ------------------------------------------------------------------------------------------ paired: predictions


def mcnemar(aligned: AlignedPredictions, *, models, metric, correction, confidence_level, alternative,
            method="exact", continuity=True, decision=Decision()) -> Comparison:
    refuse_metric("mcnemar", metric)
    correct = correctness_table(aligned, decision=decision)

    def pair(a, b):
        return counts.mcnemar(correct[a].to_numpy(), correct[b].to_numpy(), method=method, continuity=continuity,
                              alternative=alternative, confidence_level=confidence_level, names=(a, b))
    return pairwise("mcnemar", aligned.models, pair, correction, confidence_level)


def cochran_q(aligned: AlignedPredictions, *, models, metric, correction, confidence_level, alternative,
              method="exact", continuity=True, decision=Decision()) -> Comparison:
    refuse_metric("cochran_q", metric)
    correct = correctness_table(aligned, decision=decision)
    omnibus = counts.cochran_q(correct.to_numpy(), names=aligned.models, confidence_level=confidence_level)

    def pair(a, b):
        return counts.mcnemar(correct[a].to_numpy(), correct[b].to_numpy(), method=method, continuity=continuity,
                              confidence_level=confidence_level, names=(a, b))
    return pairwise("cochran_q", aligned.models, pair, correction, confidence_level, omnibus=omnibus)


def delong(aligned: AlignedPredictions, *, models, metric, correction, confidence_level, alternative) -> Comparison:
    if aligned.task != Task.BINARY:
        raise AssessError(f"DeLong compares ROC AUCs of binary scores (task is {aligned.task.value})")
    refuse_metric("delong", metric, "compares ROC AUCs")
    for m in aligned.models:
        if aligned.scores[m] is None:
            raise AssessError(f"DeLong needs scores; model `{m}` has none")

    def pair(a, b):
        return scores.delong(aligned.y_true, aligned.scores[a], aligned.scores[b], alternative=alternative,
                             confidence_level=confidence_level, names=(a, b))
    return pairwise("delong", aligned.models, pair, correction, confidence_level)


def paired_bootstrap(aligned: AlignedPredictions, *, models, metric, correction, confidence_level, alternative,
                     n_resamples=DEFAULT_RESAMPLES, seed=0, decision=Decision()) -> Comparison:
    metric = _metric_callable("paired_bootstrap", aligned.task, aligned.classes, metric)
    name = getattr(metric, "__name__", "metric")

    def values(m):
        return _metric_input("paired_bootstrap", aligned.task, aligned.classes, m, metric, aligned.y_pred[m],
                             aligned.scores[m], decision)

    def pair(a, b):
        res = scores.paired_bootstrap(aligned.y_true, values(a), values(b), metric=metric, n_resamples=n_resamples,
                                      confidence_level=confidence_level, alternative=alternative, seed=seed,
                                      sample_weight=aligned.weight, vectorized=getattr(metric, "vectorized", False),
                                      names=(a, b), metric_name=name)
        if aligned.task.is_classification or getattr(metric, "higher_is_better", True):
            return res
        return dataclasses.replace(res, sentence=_error_metric_sentence(res, name, aligned.target,
                                                                        confidence_level))
    return pairwise("paired_bootstrap", aligned.models, pair, correction, confidence_level)


#: Error metrics in sentences: their units as a power of y_true's (relative errors have none), and their words.
_UNIT_POWER = {"mse": 2, "sse": 2, "mape": 0, "smape": 0, "mspe": 0, "rmspe": 0}
_METRIC_WORDS = {"mae": "mean absolute error", "mse": "mean squared error", "rmse": "root mean squared error",
                 "sse": "sum of squared errors", "max_error": "largest error", "median_absolute_error":
                 "median absolute error", "mape": "MAPE", "smape": "sMAPE", "mspe": "MSPE", "rmspe": "RMSPE"}


def _error_metric_sentence(res: TestResult, name: str, target: str | None, confidence_level: float) -> str:
    """'forest's mae is lower than ridge's by 1.15 (y_true units) on 442 samples (95% CI …); …' — an error
    metric (lower is better) in the units of y_true (squared units for mse)."""
    a, b = res.models
    diff, ci_ = res.effect.value, res.effect.interval
    unit = scores.units_of(target, _UNIT_POWER.get(name, 1))
    units = f" ({unit})" if unit else ""
    name = _METRIC_WORDS.get(name, name)
    if diff == 0:
        lead = f"{a} and {b} have the same {name} on {res.n:,} samples"
    else:
        better, worse = (b, a) if diff > 0 else (a, b)
        ci = (confidence_interval(ci_.low, ci_.high, confidence_level) if diff > 0
              else confidence_interval(-ci_.high, -ci_.low, confidence_level))
        lead = (f"{better}'s {name} is lower than {worse}'s by {significant(abs(diff))}{units} on {res.n:,} samples"
                + (f" ({ci})" if ci else ""))
    return f"{lead}; {verdict(res.pvalue, alpha_of(confidence_level), 'paired bootstrap')}."


def diebold_mariano(aligned: AlignedPredictions, *, models, metric, correction, confidence_level, alternative,
                    loss="squared", h=None, harvey_correction=True) -> Comparison:
    """Forecasts with a horizon or series column: per horizon and series in time order, pooled by time point
    (:func:`assess.stats.horizons.diebold_mariano_by_horizon`); otherwise one test in time order (file order
    without time stamps) at horizon ``h`` (default 1)."""
    if aligned.task not in (Task.REGRESSION, Task.FORECAST):
        raise AssessError(f"Diebold–Mariano compares numeric forecasts (task is {aligned.task.value})")
    if metric is not None:
        raise AssessError(f"test `diebold_mariano` uses `loss`, not `metric` (got metric={metric!r})")
    for m in aligned.models:
        if aligned.y_pred[m] is None:
            raise AssessError(f"Diebold–Mariano needs forecasts; model `{m}` has none")
    grouped = aligned.horizon is not None or aligned.series is not None
    order = _time_order(aligned.time) if not grouped else slice(None)

    def pair(a, b):
        common = dict(loss=loss, alternative=alternative, confidence_level=confidence_level,
                      harvey_correction=harvey_correction, names=(a, b), target=aligned.target)
        if grouped:
            return horizons.diebold_mariano_by_horizon(aligned.y_true, aligned.y_pred[a], aligned.y_pred[b],
                                                       horizon=aligned.horizon, series=aligned.series,
                                                       time=aligned.time, h=h, **common)
        return scores.diebold_mariano(aligned.y_true[order], aligned.y_pred[a][order], aligned.y_pred[b][order],
                                      h=1 if h is None else h, **common)
    return pairwise("diebold_mariano", aligned.models, pair, correction, confidence_level)


def _time_order(time) -> np.ndarray | slice:
    """Rows in time order (stable), or as they are without time stamps; a time stamp twice is an error (one
    series, one horizon: each time point has one forecast)."""
    if time is None:
        return slice(None)
    stamps = pd.Series(np.asarray(time))
    if stamps.isna().any():
        raise AssessError(f"the time stamp is missing for {int(stamps.isna().sum())} forecasts (first at row "
                          f"{int(np.flatnonzero(stamps.isna().to_numpy())[0])}); Diebold–Mariano orders forecasts "
                          "in time")
    dup = stamps.duplicated().to_numpy()
    if dup.any():
        i = int(np.flatnonzero(dup)[0])
        raise AssessError(f"time {stamps.iloc[i]!r} has two forecasts (row {i}); with one series and one horizon "
                          "Diebold–Mariano needs one forecast per time point (add a `series` or `horizon` column)")
    return np.argsort(stamps.to_numpy(), kind="stable")


# ------------------------------------------------------------------------------------ independent: predictions


def _correct_table(data, decision: Decision) -> pd.DataFrame:
    """Models × (correct, incorrect) counts, each model on its own samples (or the shared ones)."""
    if isinstance(data, AlignedPredictions):
        return contingency_table(correctness_table(data, decision=decision))
    right = {m: model_correct(data.predictions[m], decision=decision) for m in data.models}
    return pd.DataFrame({"correct": [int(right[m].sum()) for m in data.models],
                         "incorrect": [int((~right[m]).sum()) for m in data.models]}, index=list(data.models))


def chi2(data, *, models, metric, correction, confidence_level, alternative, continuity=False,
         decision=Decision()) -> Comparison:
    refuse_metric("chi2", metric)
    table = _correct_table(data, decision)
    omnibus = counts.chi2_independence(table.to_numpy(), correction=continuity, confidence_level=confidence_level,
                                       names=data.models)

    def pair(a, b):
        return counts.chi2_independence(table.loc[[a, b]].to_numpy(), correction=continuity,
                                        confidence_level=confidence_level, names=(a, b))
    return pairwise("chi2", data.models, pair, correction, confidence_level, omnibus=omnibus)


def fisher_exact(data, *, models, metric, correction, confidence_level, alternative, decision=Decision()) -> Comparison:
    refuse_metric("fisher_exact", metric)
    table = _correct_table(data, decision)

    def pair(a, b):
        return counts.fisher_exact(table.loc[[a, b]].to_numpy(), alternative=alternative,
                                   confidence_level=confidence_level, names=(a, b))
    return pairwise("fisher_exact", data.models, pair, correction, confidence_level)


def unpaired_delong(data, *, models, metric, correction, confidence_level, alternative) -> Comparison:
    data = _as_separate(data)
    if data.task != Task.BINARY:
        raise AssessError(f"DeLong compares ROC AUCs of binary scores (task is {data.task.value})")
    refuse_metric("unpaired_delong", metric, "compares ROC AUCs")
    preds = data.predictions
    for m in data.models:
        if preds[m].scores is None:
            raise AssessError(f"DeLong needs scores; model `{m}` has none")

    def pair(a, b):
        return scores.unpaired_delong(preds[a].y_true, preds[a].scores, preds[b].y_true, preds[b].scores,
                                      alternative=alternative, confidence_level=confidence_level, names=(a, b))
    return pairwise("unpaired_delong", data.models, pair, correction, confidence_level)


def unpaired_bootstrap(data, *, models, metric, correction, confidence_level, alternative,
                       n_resamples=DEFAULT_RESAMPLES, seed=0, decision=Decision()) -> Comparison:
    data = _as_separate(data)
    metric = _metric_callable("unpaired_bootstrap", data.task, data.classes, metric)
    name = getattr(metric, "__name__", "metric")
    preds = data.predictions

    def values(m):
        return _metric_input("unpaired_bootstrap", data.task, data.classes, m, metric, preds[m].y_pred,
                             preds[m].scores, decision)

    def pair(a, b):
        return scores.unpaired_bootstrap(preds[a].y_true, values(a), preds[b].y_true, values(b), metric=metric,
                                         n_resamples=n_resamples, confidence_level=confidence_level,
                                         alternative=alternative, seed=seed, weight_a=preds[a].weight,
                                         weight_b=preds[b].weight, vectorized=getattr(metric, "vectorized", False),
                                         names=(a, b), metric_name=name)
    return pairwise("unpaired_bootstrap", data.models, pair, correction, confidence_level)


def _two_samples(test: str, fn, **fixed):
    """Welch's t or Mann–Whitney between every pair: on per-sample losses of predictions, or on the per-fold scores
    of a fold table (one group of folds per model, not paired)."""
    def runner(data, *, models, metric, correction, confidence_level, alternative, loss="auto",
               decision=Decision(), **options):
        if isinstance(data, pd.DataFrame):
            groups = fold_groups(data, metric=metric, models=models, min_folds=2, purpose=_LABELS[test])
            names = list(groups)
            words = dict(metric=metric, unit="folds", higher_is_better=True)
        else:
            refuse_metric(test, metric, "compares per-sample losses (choose them with `loss`)")
            data = _as_separate(data)
            names = list(data.models)
            loss = resolve_loss(data.task, loss, has_scores=all(data.predictions[m].scores is not None
                                                                for m in names))
            groups = {m: sample_losses(data.predictions[m], loss=loss, decision=decision) for m in names}
            words = dict(metric=loss_label(loss), unit="samples", higher_is_better=False)
        check_model_count(test, names)

        def pair(a, b):
            return fn(groups[a], groups[b], alternative=alternative, confidence_level=confidence_level,
                      names=(a, b), **words, **fixed, **options)
        return pairwise(test, names, pair, correction, confidence_level)
    return runner


welch_t = _two_samples("welch_t", scores.welch_t)
mann_whitney = _two_samples("mann_whitney", scores.mann_whitney)

# ------------------------------------------------------------------------------------------------------ folds

_LABELS = {"paired_t": "paired t-test", "wilcoxon": "Wilcoxon", "corrected_resampled_t": "corrected t-test",
           "cv_5x2_t": "5×2cv t-test", "anova": "ANOVA", "kruskal": "Kruskal-Wallis", "friedman": "Friedman",
           "welch_t": "Welch's t-test", "mann_whitney": "Mann-Whitney"}


def _fold_pairwise(test, fn, min_folds=2, **fixed):
    def runner(table, *, models, metric, correction, confidence_level, alternative, loss="absolute",
               decision=None, **options):
        if test == "wilcoxon" and "continuity" in options:
            options["correction"] = options.pop("continuity")
        if isinstance(table, AlignedPredictions):
            return _paired_errors(test, fn, table, correction, metric=metric, loss=loss,
                                  confidence_level=confidence_level, alternative=alternative, **options)
        wide = fold_table(table, metric=metric, models=models, min_folds=min_folds, purpose=_LABELS[test])
        names = [str(c) for c in wide.columns]
        check_model_count(test, names)
        if test == "corrected_resampled_t" and options.get("test_train_ratio") is None \
                and options.get("n_folds") is None:
            fold_level = wide.index.get_level_values("fold") if "fold" in (wide.index.names or []) else wide.index
            options["n_folds"] = int(pd.Index(fold_level).nunique())
            # scores computed from a predictions file of repeated CV know their folds' sizes: n₂/n₁ from them
            if table.attrs.get("test_train_ratio") is not None:
                options.update(test_train_ratio=table.attrs["test_train_ratio"],
                               ratio_source="from the fold sizes: each fold's rows over the rest of its repeat's, "
                                            "averaged")

        def pair(a, b):
            return fn(wide[a].to_numpy(), wide[b].to_numpy(), alternative=alternative,
                      confidence_level=confidence_level, names=(a, b), metric=metric, **fixed, **options)
        return pairwise(test, names, pair, correction, confidence_level)
    return runner


def _paired_errors(test, fn, aligned: AlignedPredictions, adjustment, *, metric, loss, confidence_level,
                   alternative, **options) -> Comparison:
    """Paired t or Wilcoxon on the per-sample absolute or squared errors of numeric predictions (ISO/IEC TS 4213
    7.2, 7.6 with the samples as the pairs), the sentence in the units of ``y_true``: the mean (t) or
    Hodges–Lehmann median (Wilcoxon) difference of the errors, A − B, lower is better. ``adjustment`` corrects the
    pairs' p-values (``options`` may hold Wilcoxon's continuity ``correction``)."""
    refuse_metric(test, metric, "compares per-sample errors (choose them with `loss`)")
    for m in aligned.models:
        if aligned.y_pred[m] is None:
            raise AssessError(f"model `{m}` has no predictions (y_pred)")
    preds = separate(aligned).predictions
    errors = {m: sample_losses(preds[m], loss=loss) for m in aligned.models}
    noun = "forecasts" if aligned.task == Task.FORECAST else "predictions"

    def pair(a, b):
        res = fn(errors[a], errors[b], alternative=alternative, confidence_level=confidence_level, names=(a, b),
                 metric=loss_label(loss), unit="samples", **options)
        eff = res.effect
        label = "paired t-test" if test == "paired_t" else "Wilcoxon"
        if test == "paired_t":
            lead = scores.loss_lead((a, b), loss, aligned.target, eff.value, eff.interval.low, eff.interval.high,
                                    confidence_level, f" on the same {res.n:,} samples", noun)
        else:
            lead = _median_lead((a, b), loss, aligned.target, eff.value, eff.interval.low, eff.interval.high,
                                confidence_level, res.n, noun)
        sentence = f"{lead}; {verdict(res.pvalue, alpha_of(confidence_level), label)}."
        return dataclasses.replace(res, sentence=sentence)
    return pairwise(test, aligned.models, pair, adjustment, confidence_level)


def _median_lead(names, loss, target, diff, low, high, confidence_level, n, noun) -> str:
    """'forest's absolute errors are typically 2.1 (y_true units) smaller than ridge's (Hodges-Lehmann median
    difference over 442 samples; 95% CI 0.9 to 3.3)'."""
    a, b = names
    word, units = scores.loss_words(loss, target)
    if diff == 0 or not math.isfinite(diff):
        return f"{a}'s and {b}'s {word}s on the same {n:,} samples do not differ typically (median difference 0)"
    better, worse = (b, a) if diff > 0 else (a, b)
    ci = (confidence_interval(low, high, confidence_level) if diff > 0
          else confidence_interval(-high, -low, confidence_level))
    return (f"{better}'s {word}s are typically {significant(abs(diff))} ({units}) smaller than {worse}'s "
            f"(Hodges-Lehmann median difference over {n:,} samples" + (f"; {ci})" if ci else ")"))


paired_t = _fold_pairwise("paired_t", folds.paired_t, unit="folds")
wilcoxon = _fold_pairwise("wilcoxon", folds.wilcoxon, min_folds=1, unit="folds")
corrected_resampled_t = _fold_pairwise("corrected_resampled_t", folds.corrected_resampled_t, unit="folds")


def cv_5x2_t(table, *, models, metric, correction, confidence_level, alternative) -> Comparison:
    wide = fold_table(table, metric=metric, models=models, min_folds=10, purpose="the 5×2cv t-test")
    names = [str(c) for c in wide.columns]
    check_model_count("cv_5x2_t", names)
    if wide.index.nlevels != 2:
        raise AssessError("the 5×2cv t-test needs a `repeat` column: 5 repeats × 2 folds per model")
    reps = wide.index.get_level_values(0).unique()
    fls = wide.index.get_level_values(1).unique()
    if len(reps) != 5 or len(fls) != 2 or len(wide) != 10:
        raise AssessError(f"the 5×2cv t-test needs 5 repeats × 2 folds per model (got {len(reps)} repeats × "
                          f"{len(fls)} folds)")

    def pair(a, b):
        diff = (wide[a] - wide[b]).unstack(level=1).to_numpy()
        return folds.cv_5x2_t(diff, alternative=alternative, confidence_level=confidence_level, names=(a, b),
                              metric=metric)
    return pairwise("cv_5x2_t", names, pair, correction, confidence_level)


def _groups(test, fn):
    def runner(table, *, models, metric, correction, confidence_level, alternative) -> Comparison:
        groups = fold_groups(table, metric=metric, models=models, min_folds=2 if test == "anova" else 1,
                             purpose=_LABELS[test])
        names = list(groups)
        check_model_count(test, names)
        omnibus = fn(*groups.values(), confidence_level=confidence_level, names=names, metric=metric)

        def pair(a, b):
            return fn(groups[a], groups[b], confidence_level=confidence_level, names=(a, b), metric=metric)
        return pairwise(test, names, pair, correction, confidence_level, omnibus=omnibus)
    return runner


anova = _groups("anova", folds.anova)
kruskal = _groups("kruskal", folds.kruskal)


def friedman(table, *, models, metric, correction, confidence_level, alternative, higher_is_better=None,
             method="chi2") -> Comparison:
    if higher_is_better is None:    # from the metric: error metrics of numeric predictions rank the lowest first
        higher_is_better = table.attrs.get("higher_is_better", True)
    wide = fold_table(table, metric=metric, models=models, min_folds=2, purpose="Friedman")
    names = [str(c) for c in wide.columns]
    check_model_count("friedman", names)
    omnibus = folds.friedman(wide, higher_is_better=higher_is_better, method=method,
                             confidence_level=confidence_level, metric=metric,
                             blocks=table.attrs.get("blocks", "folds"))
    ranks = omnibus.details.average_ranks
    k, n_blocks = len(names), len(wide)
    se = math.sqrt(k * (k + 1) / (6.0 * n_blocks))
    cd = omnibus.details.critical_difference
    alpha = alpha_of(confidence_level)
    nem = folds.nemenyi(wide, higher_is_better=higher_is_better, alpha=alpha) if correction == "nemenyi" else None

    def pair(a, b):
        diff = ranks[a] - ranks[b]
        z = diff / se
        if nem is not None:
            p = float(nem.pvalues.loc[a, b])
            ci = ConfidenceInterval(diff - cd, diff + cd, confidence_level, "critical difference (Nemenyi)")
            method_name, label = "Nemenyi post-hoc", "Nemenyi"
        else:
            p = float(min(1.0, 2 * NORMAL.sf(abs(z))))
            half = float(NORMAL.ppf(1 - alpha / 2)) * se
            ci = ConfidenceInterval(diff - half, diff + half, confidence_level, "normal (rank z)")
            method_name, label = "rank z-test after Friedman (Demšar 2006)", "rank z-test"
        if diff == 0:
            lead = f"{a} and {b} have the same average rank ({significant(ranks[a])})"
        else:
            better, worse = (a, b) if diff < 0 else (b, a)
            lead = (f"{better}'s average rank ({significant(ranks[better])}) is better than {worse}'s "
                    f"({significant(ranks[worse])}) by {significant(abs(diff))}"
                    + (f"; the critical difference is {significant(cd)}" if nem is not None else ""))
        return TestResult(test="nemenyi" if nem is not None else "rank_z", method=method_name, statistic=z,
                          pvalue=p, df=None, alternative="two-sided",
                          effect=Effect("average rank difference (A - B)", diff, ci), assumptions=(),
                          sentence=f"{lead}; {verdict(p, alpha, label)}.", n=n_blocks, models=(a, b),
                          details=folds.RankPairDetails(ranks[a], ranks[b]))
    return pairwise("friedman", names, pair, correction, confidence_level, omnibus=omnibus)
