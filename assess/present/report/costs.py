"""The report's costs section: what the decisions cost when the user stated what each kind of error costs (the
settings' cost matrix), and what the models cost to run when the file measured it (ISO/IEC TS 4213:2022 6.6).

Misclassification costs: each model's expected cost per sample at the report's decision under the settings' cost
matrix, by :func:`assess.analyses.decision_costs.confusions` — the Confusion page's computation and its rule for a
cost matrix (finite cells; a negative cell is a benefit). For a binary model with scores the report also gives the
threshold of least expected cost: with the cost matrix :math:`C` (rows the true class, columns the predicted class,
negative class first), since :math:`TN = N - FP` and :math:`TP = P - FN`,

.. math:: \\bar c(t) = \\frac{C_{00} N + C_{11} P + (C_{01} - C_{00})\\,FP(t) + (C_{10} - C_{11})\\,FN(t)}{N + P}

is least where :math:`c_{FP} FP + c_{FN} FN` is, with :math:`c_{FP} = C_{01} - C_{00}` and
:math:`c_{FN} = C_{10} - C_{11}`: the Curves page's "min cost" suggestion
(:func:`assess.analyses.operating_points.suggested_thresholds`, ties to the higher threshold, "flag nothing" when no
threshold is cheaper), read from the one sort of the model's scores.

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
from assess.analyses.decision_costs import confusions, expected_cost
from assess.analyses.operating_points import binary_matrix, suggested_thresholds
from assess.core.data import Task
from assess.core.decision import Decision
from assess.core.errors import AssessError
from assess.core.formatting import significant
from assess.inputs.assessment import Assessment
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
    document: dict      # the metrics JSON's cost, efficiency and cost_headline (`assess.analyses.cost.cost_document`)


def misclassification_costs(assessment: Assessment, models: Sequence[str], matrix, *, decision: Decision,
                            rule: str) -> MisclassificationCosts:
    """Expected cost per sample of each model at ``decision`` (``rule`` says it in words), and the cost-optimal
    threshold of each binary model with scores. Raises `AssessError` when the matrix does not fit the task."""
    try:
        found = confusions(assessment, models, decision=decision, costs=matrix)
    except AssessError as exc:
        raise AssessError(f"{exc}: no misclassification costs in the report") from None
    if found.skipped:
        raise AssessError(f"{found.skipped[0][1]}: no misclassification costs in the report")
    c = np.asarray(matrix, dtype=np.float64)
    rows = []
    for m in found.models:
        row = DecisionCost(m.model, rule, m.samples, m.errors, m.expected)
        pred = assessment.predictions(m.model)
        if assessment.task is Task.BINARY and pred.scores is not None:
            row = _with_optimum(row, pred, c)
        rows.append(row)
    return MisclassificationCosts(found.classes, tuple(tuple(float(v) for v in r) for r in c), tuple(rows),
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
    text = (f"At the report's decision ({best.rule}) {best.model} costs least: {significant(best.expected, 4)} "
            "per sample"
            + ("." if len(known) == 1 else
               f", against {', '.join(f'{r.model} {significant(r.expected, 4)}' for r in known if r is not best)}."))
    cheaper = [r for r in known if r.optimal_expected is not None and r.optimal_expected < r.expected - 1e-12]
    for r in cheaper:
        # a share of a net cost ≤ 0 (benefits outweigh costs) means nothing: the saving per sample is said instead
        saving = (f"{1 - r.optimal_expected / r.expected:.0%} less" if r.expected > 0 else
                  f"{significant(r.expected - r.optimal_expected, 4)} less per sample")
        text += (f" {r.model} at its cost-optimal threshold ({r.optimal_rule}) would cost "
                 f"{significant(r.optimal_expected, 4)} per sample ({saving}).")
    if not cheaper and any(r.optimal_expected is not None for r in known):
        text += " The chosen threshold is already the cheapest for every model with scores."
    return text


def running_costs(assessment: Assessment, models: Sequence[str], *, decision: Decision, confidence_level: float,
                  n_resamples: int, seed: int, ci: str | None = "auto") -> RunningCosts | None:
    """The cost table and headline of the Cost page (:mod:`assess.analyses.cost`), or None when the file measured no cost."""
    if not cost.has_cost(assessment):
        return None
    costs = cost.cost_from_assessment(assessment, models=list(models), ci=ci, confidence_level=confidence_level,
                                      n_resamples=n_resamples, seed=seed)
    metric = headline_of(assessment)
    document = cost.cost_document(assessment, costs, models=list(models), metric=metric, decision=decision,
                                  confidence_level=confidence_level, n_resamples=n_resamples, seed=seed)
    sentence = document["cost_headline"] or ""
    if document.get("cost_headline_reason"):   # the comparison behind the sentence cannot run: the costs still stand
        sentence = f"No comparison of cost and {metric}: {document['cost_headline_reason']}"
    return RunningCosts(cost.cost_frame(costs), sentence, costs, document)
