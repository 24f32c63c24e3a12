"""What the Compare page asks and answers, apart from its widgets: which questions the data can answer (and why not
the others), the metrics the tests compare, the design of the data and the suitable tests, running the chosen test,
and the result as the tables and chart inputs the page shows.

The data are either an assessment's predictions or an uploaded table of per-fold scores (`CompareData`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from assess.core.decision import Decision
from assess.core.errors import AssessError
from assess.core.formatting import UNDEFINED, bounds, percent_level
from assess.inputs.assessment import Assessment
from assess.metrics import get
from assess.metrics.registry import applicable_to, headline_of
from assess.stats import (INDEPENDENT, PAIRED, QUESTIONS, TESTS, Design, compare, compare_all, compare_subgroups,
                          data_design, fold_table_from_predictions, suggest_tests)
from assess.stats.compare import is_weighted
from assess.stats.folds import FriedmanDetails
from assess.stats.inputs import comparison_predictions
from assess.stats.scores import DieboldMarianoDetails

DESIGN_WORDS = {PAIRED: "Paired samples", INDEPENDENT: "Independent samples"}
#: Result columns under the names people read (the table keeps its keys for the CSV and JSON downloads).
RESULT_HEADERS = {"model_a": "Model A", "model_b": "Model B", "method": "Method", "statistic": "Statistic",
                  "df": "df", "pvalue": "p-value", "pvalue_adjusted": "Adjusted p", "effect": "Effect",
                  "effect_value": "Effect size", "effect_low": "Low", "effect_high": "High", "n": "n"}
#: The questions uploaded per-fold scores can answer.
FOLD_QUESTIONS = ("two_models", "several_models", "cv_folds")


def test_title(key: str) -> str:
    """A test's name for people ("McNemar's test"), never its id (``mcnemar``)."""
    return TESTS[key].title if key in TESTS else key


@dataclass(frozen=True)
class CompareData:
    """The models to compare and the shape of their data: folds, repeats, subgroup columns, blocks (folds or
    series); ``folds``: uploaded per-fold scores (``model``, ``fold``, metric columns), else the predictions'."""

    models: tuple[str, ...]
    n_folds: int | None
    n_repeats: int | None = None
    has_groups: bool = False
    blocks: bool = False
    folds: pd.DataFrame | None = None
    metric_columns: tuple[str, ...] = ()


def data_of_predictions(assessment: Assessment) -> CompareData:
    """The predictions' shape; repeated cross-validation (a ``repeat`` beside the ``fold``) counts its folds per
    repeat (the most of any repeat) and its repeats."""
    first = assessment.predictions()
    n_folds = n_repeats = None
    if first.fold is not None:
        blocks = pd.DataFrame({"repeat": first.repeat if first.repeat is not None else "", "fold": first.fold})
        per_repeat = blocks.drop_duplicates().groupby("repeat")["fold"].nunique()
        n_folds = int(per_repeat.max())
        n_repeats = len(per_repeat) if first.repeat is not None else None
    return CompareData(tuple(assessment.models), n_folds, n_repeats, has_groups=assessment.roles.groups != (),
                       blocks=first.fold is not None or first.series is not None)


def data_of_folds(frame: pd.DataFrame, metric_columns) -> CompareData:
    """Uploaded per-fold scores (`assess.stats.inputs.read_fold_table`); the fewest folds of any model count."""
    return CompareData(tuple(dict.fromkeys(frame["model"])), int(frame.groupby("model")["fold"].nunique().min()),
                       int(frame["repeat"].nunique()) if "repeat" in frame else None, folds=frame,
                       metric_columns=tuple(metric_columns))


@dataclass(frozen=True)
class Questions:
    """The questions offered ({key: words}), those not offered with why, and the one chosen first."""

    offered: dict[str, str]
    unavailable: tuple[tuple[str, str], ...]
    default: str | None


def questions_for(data: CompareData) -> Questions:
    """The questions ``data`` can answer: no error-rate question here; fold scores answer only the model questions;
    subgroups need a subgroup column, the CV question folds, several models three of them, and every question but
    subgroups two models."""
    questions = {k: v for k, v in QUESTIONS.items() if k != "error_rate"}
    if data.folds is not None:
        questions = {k: v for k, v in questions.items() if k in FOLD_QUESTIONS}
    elif not data.has_groups:
        questions.pop("subgroups", None)
    unavailable = []   # said under the radio instead of failing after Run
    if data.folds is None and (data.n_repeats or 1) > 1:
        # repeated cross-validation: every sample is a row once per repeat, so per-sample tests would count it
        # n_repeats times as if independent; the fold tests compare the repeats' folds (`assess.stats.compare`)
        why = (f"the rows hold {data.n_repeats} repeats of cross-validation (each sample once per repeat): a "
               "per-sample test would count every sample that many times; the cross-validation question compares "
               "the folds")
        unavailable.extend((QUESTIONS[k], why) for k in questions if k != "cv_folds")
        questions = {k: v for k, v in questions.items() if k == "cv_folds"}
    if data.folds is None and data.n_folds is None and "cv_folds" in questions:
        questions.pop("cv_folds")
        unavailable.append((QUESTIONS["cv_folds"], "the file has no cross-validation fold column (mark one on the "
                                                   "Data page, or upload per-fold scores)"))
    if len(data.models) < 3 and "several_models" in questions:
        questions.pop("several_models")
        unavailable.append((QUESTIONS["several_models"], f"it needs at least 3 models; the file has "
                                                         f"{len(data.models)}"))
    if len(data.models) < 2:
        questions = {k: v for k, v in questions.items() if k == "subgroups"}
    default = ("cv_folds" if data.folds is not None or "cv_folds" in questions and len(questions) == 1
               else "two_models" if "two_models" in questions
               else next(iter(questions), None))
    return Questions(questions, tuple(unavailable), default)


def output_choices(assessment: Assessment) -> dict[str | None, str]:
    """{output: words} of a multi-output regression — None, the average over the outputs (what the metrics and the
    report give), first — else empty (`assess.stats.inputs.comparison_predictions`)."""
    if not assessment.outputs:
        return {}
    return {None: f"Average over the {len(assessment.outputs)} outputs", **{o: o for o in assessment.outputs}}


def metric_choices(assessment: Assessment) -> dict[str, str]:
    """{key: name} of the metrics the tests compare; empty for a task whose metrics are not in the registry yet."""
    try:
        return {s.key: s.name for s in applicable_to(assessment)   # internal clustering indices: not
                if s.kind != "count" and s.needs != "features"}     # resampled by the tests
    except ValueError:
        return {}


def default_metric(assessment: Assessment, names: dict[str, str]) -> str:
    """The metric the page opens on: the file's headline metric (`registry.headline_of`, which the command line's
    ``compare`` also defaults to), else the first it can compare."""
    key = headline_of(assessment)
    return key if key in names else next(iter(names))


@dataclass(frozen=True)
class Plan:
    """The data of the chosen models (predictions by model, or the fold table), their design and the suitable tests,
    first choice first; ``no_tests``: why no test suits them (then ``suggestions`` is empty)."""

    data: object
    design: Design
    suggestions: tuple
    data_kind: str
    higher_is_better: bool
    no_tests: str | None = None

    @property
    def recommended(self) -> str:
        return next((s.test for s in self.suggestions if s.recommended), self.suggestions[0].test)


def plan(assessment: Assessment | None, data: CompareData, question: str, models: tuple[str, ...],
         output: str | None, metric: str | None) -> Plan:
    """Design and suitable tests of ``models`` for ``question``; an `AssessError` says why the data have no design,
    ``no_tests`` why no test suits them."""
    predictions = None if assessment is None else comparison_predictions(assessment, models, output=output)
    if question == "subgroups":
        design = Design(INDEPENDENT, "subgroups are disjoint sets of samples")
    else:
        design = data_design(data.folds if data.folds is not None else predictions, models=list(models),
                             metric=metric if data.folds is not None else None)
    suggestions, no_tests = (), None
    try:
        suggestions = suggest_tests(
            question=question, n_models=len(models),
            data="folds" if (data.folds is not None or question == "cv_folds") else "predictions",
            paired=design.kind == PAIRED, task=None if assessment is None else assessment.task,
            has_scores=predictions is not None and all(p.scores is not None for p in predictions.values()),
            n_folds=data.n_folds, n_repeats=data.n_repeats, blocks=data.blocks,
            weighted=predictions is not None and is_weighted(predictions),
            metric=metric if data.folds is None else None)   # a fold table's metric is a column, not a key
    except AssessError as exc:
        no_tests = str(exc)
    higher = data.folds is not None or metric is None or get(assessment.task, metric).direction != "lower"
    return Plan(data.folds if data.folds is not None else predictions, design, suggestions,
                "folds" if data.folds is not None else "predictions", higher, no_tests)


def prediction_plan(assessment: Assessment, question: str, models: tuple[str, ...], output: str | None,
                    metric: str | None) -> Plan:
    """`plan` of the assessment's predictions (what the page caches)."""
    return plan(assessment, data_of_predictions(assessment), question, models, output, metric)


def run_test(plan: Plan, task, question: str, test: str, models: tuple[str, ...], metric: str | None, *,
             correction: str, confidence_level: float, alternative: str, decision: Decision, options: dict):
    """The chosen test on the plan's data (one model's subgroups for the subgroup question)."""
    if question == "subgroups":
        return compare_subgroups(plan.data[models[0]], test=test, correction=correction,
                                 confidence_level=confidence_level, decision=decision, **options)
    uses_metric = TESTS[test].takes_metric(plan.data_kind, task)
    return compare(plan.data, test=test, models=list(models), metric=metric if uses_metric else None,
                   correction=correction, confidence_level=confidence_level, alternative=alternative,
                   decision=decision, **options)


def run_all(plan: Plan, question: str, models: tuple[str, ...], metric: str | None, *, correction: str,
            confidence_level: float, decision: Decision):
    return compare_all(plan.data, models=list(models), metric=metric, correction=correction,
                       confidence_level=confidence_level, question=question, decision=decision)


@dataclass(frozen=True)
class ResultTable:
    """The result rows as shown: columns every row shares said once (``method`` above the table, ``effect`` as its
    column's header), the interval's bounds in one cell; ``headers`` for people."""

    frame: pd.DataFrame
    headers: dict[str, str]
    method: str | None


def result_table(result, confidence_level: float) -> ResultTable:
    """Twelve columns do not fit a 1024-px screen: what every row shares is said once and the interval's two bounds
    share one cell, written as every metric's interval is (`assess.core.formatting.bounds`: "0.030–0.073",
    "-2.482 to 0.482"); the numbers stay numbers."""
    table = result.to_frame()
    show = table[[c for c in RESULT_HEADERS if c in table.columns]]
    show = show.loc[:, show.notna().any()].copy()  # e.g. no pair columns for a single two-model result
    shared = {c: show[c].iloc[0] for c in ("method", "effect")
              if c in show.columns and len(show) and show[c].nunique(dropna=False) == 1}
    headers = dict(RESULT_HEADERS)
    if "effect" in shared:
        headers["effect_value"] = f"{str(shared['effect'])[:1].upper()}{str(shared['effect'])[1:]}"
    if {"effect_low", "effect_high"} <= set(show.columns):
        where = show.columns.get_loc("effect_low")
        show.insert(where, "effect_interval", [bounds(lo, hi) or UNDEFINED for lo, hi in zip(show["effect_low"],
                                                                                              show["effect_high"])])
        headers["effect_interval"] = f"{percent_level(confidence_level)} interval"
    show = show.drop(columns=[c for c in ("effect_low", "effect_high", *shared) if c in show.columns])
    return ResultTable(show, headers, shared.get("method"))


def horizon_tables(result) -> list[tuple[tuple[str, str], pd.DataFrame]]:
    """((model A, model B), table) of each Diebold–Mariano result tested horizon by horizon."""
    results = ([result.result] if result.result else []) + [p.result for p in result.pairs]
    return [(r.models, r.details.table()) for r in results
            if isinstance(r.details, DieboldMarianoDetails) and r.details.by_horizon]


def effects(result) -> list[tuple[str, object]]:
    """("A − B", effect) of each pair — ("A vs B", effect) when the effect is not a difference (Cramér's V, an odds
    ratio) — or of the one two-model result; empty when none is finite."""
    def label(a, b, effect):
        return f"{a} − {b}" if effect.is_difference else f"{a} vs {b}"

    found = [(label(p.model_a, p.model_b, p.result.effect), p.result.effect) for p in result.pairs
             if p.result.effect is not None]
    if not found and result.result is not None and result.result.effect is not None and len(result.models) == 2:
        found = [(label(*result.models, result.result.effect), result.result.effect)]
    return found if any(np.isfinite(eff.value) for _, eff in found) else []


def critical_difference(result) -> FriedmanDetails | None:
    """The Friedman details when the result has a finite critical difference to draw."""
    details = None if result.result is None else result.result.details
    return details if isinstance(details, FriedmanDetails) and np.isfinite(details.critical_difference) else None


def fold_scores(plan: Plan, models: tuple[str, ...], metric: str | None, decision: Decision) -> pd.DataFrame | None:
    """The per-fold scores of ``metric`` for a box plot: the uploaded table, or computed from predictions with
    folds; None without folds or that metric."""
    scores = plan.data if plan.data_kind == "folds" else None
    if scores is None and plan.data[models[0]].fold is not None:
        scores, _ = fold_table_from_predictions(plan.data, metric=metric, decision=decision)
    if scores is None or metric not in scores.columns:
        return None
    return scores[scores["model"].isin(models)]

