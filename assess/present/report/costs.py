"""The report's costs section: what the decisions cost when the user stated what each kind of error costs (the
settings' cost matrix), and what the models cost to run when the file measured it (ISO/IEC TS 4213:2022 6.6).

Misclassification costs. With the cost matrix :math:`C` (rows the true class, columns the predicted class, in the
order of the file's classes — binary: the other class, then the positive one) and a model's confusion matrix
:math:`M` at the report's decision, the expected cost per sample is

.. math:: \\bar c = \\frac{\\sum_{ij} M_{ij} C_{ij}}{\\sum_{ij} M_{ij}}

(:func:`assess.present.charts.expected_cost`, the Confusion page's number). For a binary model with scores the report also
gives the threshold of least expected cost: since :math:`TN = N - FP` and :math:`TP = P - FN`,

.. math:: \\bar c(t) = \\frac{C_{00} N + C_{11} P + (C_{01} - C_{00})\\,FP(t) + (C_{10} - C_{11})\\,FN(t)}{N + P}

is least where :math:`c_{FP} FP + c_{FN} FN` is, with :math:`c_{FP} = C_{01} - C_{00}` and
:math:`c_{FN} = C_{10} - C_{11}`: the Curves page's "min cost" suggestion
(:func:`assess.analyses.operating_points.suggested_thresholds`, ties to the higher threshold, "flag nothing" when no threshold is
cheaper), read from the one sort of the model's scores.

Computational cost: the Cost page's and ``metrics`` CLI's numbers (:mod:`assess.analyses.cost`) — latency, throughput and
energy per model with bootstrap intervals, and the sentence weighing the best model against a cheaper one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from assess import curves
from assess.analyses import cost
from assess.analyses.operating_points import binary_matrix, confusion_matrix, suggested_thresholds
from assess.core.data import Task
from assess.core.decision import Decision, predicted_labels
from assess.core.errors import AssessError
from assess.inputs.assessment import Assessment
from assess.present.charts import expected_cost
from assess.metrics.registry import headline_of


@dataclass(frozen=True)
class DecisionCost:
    """One model's expected misclassification cost per sample at the report's decision (``rule``), and, for a
    binary model with scores, at its cost-optimal threshold (``optimal_rule``; None without scores)."""

    model: str
    rule: str
    samples: float
    errors: float
    expected: float
    optimal_threshold: float | None = None
    optimal_rule: str | None = None
    optimal_expected: float | None = None


@dataclass(frozen=True)
class MisclassificationCosts:
    classes: tuple[str, ...]
    matrix: tuple[tuple[float, ...], ...]
    models: tuple[DecisionCost, ...]
    sentence: str


@dataclass(frozen=True)
class RunningCosts:
    """The file's computational costs (:mod:`assess.analyses.cost`): the display table and the headline sentence."""

    table: pd.DataFrame
    sentence: str
    costs: dict


def misclassification_costs(assessment: Assessment, models: Sequence[str], matrix, *, decision: Decision,
                            rule: str) -> MisclassificationCosts:
    """Expected cost per sample of each model at ``decision`` (``rule`` says it in words), and the cost-optimal
    threshold of each binary model with scores. Raises `AssessError` when the matrix does not fit the task."""
    task = assessment.task
    if task not in (Task.BINARY, Task.MULTICLASS):
        raise AssessError(f"a cost matrix applies to binary and multi-class decisions; this file is "
                          f"{task.value}, so the report has no misclassification costs")
    c = np.asarray(matrix, dtype=np.float64)
    classes = tuple(assessment.predictions(models[0]).classes)
    k = len(classes)
    if c.shape != (k, k):
        raise AssessError(f"the cost matrix is {c.shape[0]} × {c.shape[1] if c.ndim == 2 else 1} but the file has "
                          f"{k} classes ({', '.join(classes)}): no misclassification costs in the report")
    if not np.isfinite(c).all() or (c < 0).any():
        raise AssessError("the cost matrix must hold finite costs ≥ 0: no misclassification costs in the report")
    rows = []
    for m in models:
        pred = assessment.predictions(m)
        codes = predicted_labels(task, pred.y_pred, pred.scores, decision, labels=pred.classes, model=m)
        cm = confusion_matrix(pred.y_true, codes, k, pred.weight)
        row = DecisionCost(m, rule, float(cm.sum()), float(cm.sum() - np.trace(cm)), expected_cost(cm, c))
        if task is Task.BINARY and pred.scores is not None:
            row = _with_optimum(row, pred, c)
        rows.append(row)
    return MisclassificationCosts(classes, tuple(tuple(float(v) for v in r) for r in c), tuple(rows),
                                  _sentence(rows))


def _with_optimum(row: DecisionCost, pred, c: np.ndarray) -> DecisionCost:
    """``row`` with the threshold of least expected cost: the "min cost" suggestion of the Curves page for
    :math:`c_{FP} = C_{01} - C_{00}`, :math:`c_{FN} = C_{10} - C_{11}` (when either is negative an error would be
    cheaper than the right answer; no threshold is suggested then)."""
    cost_fp, cost_fn = c[0, 1] - c[0, 0], c[1, 0] - c[1, 1]
    if cost_fp < 0 or cost_fn < 0:
        return row
    counts = curves.threshold_counts(pred.y_true, pred.scores, sample_weight=pred.weight)
    best = next(s for s in suggested_thresholds(counts, cost_fp=cost_fp, cost_fn=cost_fn) if s.key == "min_cost")
    nothing = counts.thresholds.size == 0 or best.threshold > counts.thresholds[0]
    rule = "flag nothing (every sample predicted negative)" if nothing else f"score ≥ {best.threshold:.4g}"
    return DecisionCost(**{**row.__dict__, "optimal_threshold": float(best.threshold), "optimal_rule": rule,
                           "optimal_expected": expected_cost(binary_matrix(counts, best.threshold), c)})


def _sentence(rows: list[DecisionCost]) -> str:
    """The cheapest model at the decision, and how much its cost-optimal threshold would save."""
    known = [r for r in rows if np.isfinite(r.expected)]
    if not known:
        return "No model has a defined expected cost (no samples)."
    best = min(known, key=lambda r: r.expected)
    text = (f"At the report's decision ({best.rule}) {best.model} costs least: {best.expected:.4g} per sample"
            + ("." if len(known) == 1 else
               f", against {', '.join(f'{r.model} {r.expected:.4g}' for r in known if r is not best)}."))
    cheaper = [r for r in known if r.optimal_expected is not None and r.optimal_expected < r.expected - 1e-12]
    for r in cheaper:
        share = 1 - r.optimal_expected / r.expected if r.expected > 0 else 0.0
        text += (f" {r.model} at its cost-optimal threshold ({r.optimal_rule}) would cost {r.optimal_expected:.4g} "
                 f"per sample ({share:.0%} less).")
    if not cheaper and any(r.optimal_expected is not None for r in known):
        text += " The chosen threshold is already the cheapest for every model with scores."
    return text


def running_costs(assessment: Assessment, models: Sequence[str], *, decision: Decision, confidence_level: float,
                  resamples: int, seed: int) -> RunningCosts | None:
    """The cost table and headline of the Cost page (:mod:`assess.analyses.cost`), or None when the file measured no cost."""
    if not cost.has_cost(assessment):
        return None
    costs = cost.cost_from_assessment(assessment, models=list(models), confidence_level=confidence_level,
                                      resamples=resamples, seed=seed)
    metric = headline_of(assessment)
    kwargs = {"decision": decision} if assessment.task.is_classification else {}
    try:
        line = cost.headline(assessment, costs, metric=metric, confidence_level=confidence_level,
                             resamples=resamples, seed=seed, **kwargs)
        sentence = line.sentence if line is not None else ""
    except AssessError as exc:      # the comparison behind the sentence cannot run: the costs still stand
        sentence = f"No comparison of cost and {metric}: {exc}"
    return RunningCosts(cost.cost_frame(costs), sentence, costs)
