"""What the Metrics page shows of the unlabelled rows (issue 35 §3): the CBPE estimate per model as a table, the
sentences that say what it assumes and how the calibration was handled, and the backtest on labelled history by
equal chunks of rows in file order. The numbers come from `assess.analyses.estimation`; ui/estimation_widgets.py
draws them."""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import pandas as pd

from assess.analyses.estimation import ASSUMPTION, Estimate, backtest, estimate_predictions
from assess.core.decision import Decision, predicted_labels
from assess.core.errors import AssessError
from assess.core.formatting import UNDEFINED, bounds, count, number, percent_level
from assess.inputs.assessment import Assessment
from assess.metrics import get

__all__ = ["EstimateView", "assumption", "backtest_chunks", "backtest_table", "chunk_names", "estimate_view",
           "estimates_json", "heading"]

#: The backtest's chunks of labelled rows, at most, and the fewest rows a chunk may have.
CHUNKS, MIN_CHUNK_ROWS = 5, 50


@dataclass(frozen=True)
class EstimateView:
    """One model's estimate for the page: ``table`` (metric, estimate, interval), ``calibration`` (a sentence), or
    ``undefined`` (why there is none)."""

    model: str
    table: pd.DataFrame | None
    calibration: str
    undefined: str | None = None
    json: dict | None = None   # `Estimate.as_json`, as the command line's metrics JSON gives it under "estimated"


def heading(assessment: Assessment) -> str:
    """The section's heading, counting the rows each model's tab is estimated on: "Estimated on 81 unlabelled rows per
    model" (the file's 243 of three models read as each tab's); models with different counts: the file's, "… of 3
    models"; one model: "Estimated on 100 unlabelled rows"."""
    models = len(assessment.models)
    per_model = {0 if rows is None else len(rows) for rows in map(assessment.unlabelled_frame, assessment.models)}
    if models > 1 and len(per_model) == 1:
        return f"Estimated on {count(per_model.pop())} unlabelled rows per model"
    return f"Estimated on {count(assessment.n_unlabelled)} unlabelled rows" + \
        (f" of {count(models)} models" if models > 1 else "")


def assumption(level: float) -> str:
    return (f"Confidence-based performance estimation (CBPE): each unlabelled row counts in the confusion matrix by "
            f"its calibrated probability of each class. It assumes {ASSUMPTION}. Intervals: {percent_level(level)} "
            "prediction intervals of the value the rows will show once their labels arrive (the calibration refitted "
            "on bootstrap resamples of the labelled rows, the unlabelled rows' labels drawn from it).")


def estimate_view(assessment: Assessment, model: str, decision: Decision = Decision(), *, level: float = 0.95,
                  n_resamples: int = 1000, seed: int = 0) -> EstimateView:
    """One model's CBPE estimate on its unlabelled rows, ready to show."""
    unlabelled = assessment.unlabelled_predictions(model)
    if unlabelled is None:
        return EstimateView(model, None, "", "this model has no unlabelled rows")
    try:
        est = estimate_predictions(assessment.predictions(model), unlabelled, decision, level=level,
                                   n_resamples=n_resamples, seed=seed)
    except AssessError as exc:
        return EstimateView(model, None, "", str(exc))
    return EstimateView(model, _table(assessment, est), _calibration_sentence(est), json=est.as_json())


def estimates_json(assessment: Assessment, views) -> str:
    """The download of the page's estimates: ``n_unlabelled``, ``estimated`` ({model: as the command line's metrics
    JSON has it, or null}) and ``undefined_estimated`` (the reasons of the nulls)."""
    doc = {"n_unlabelled": assessment.n_unlabelled, "estimated": {v.model: v.json for v in views}}
    undefined = {v.model: v.undefined for v in views if v.undefined}
    return json.dumps(doc | ({"undefined_estimated": undefined} if undefined else {}), indent=2)


def _table(assessment: Assessment, est: Estimate) -> pd.DataFrame:
    rows = [dict(metric=get(assessment.task, key).name, estimate=number(value),
                 interval=bounds(*est.intervals[key]) or UNDEFINED) for key, value in est.values.items()]
    return pd.DataFrame(rows)


def _calibration_sentence(est: Estimate) -> str:
    what = {"none": "Scores used as they are", "platt": "Scores recalibrated by Platt scaling",
            "isotonic": "Scores recalibrated by isotonic regression"}[est.calibration]
    return f"{what} on {count(est.n_labelled)} labelled rows: {est.calibration_reason}."


def backtest_chunks(n: int) -> np.ndarray:
    """Each labelled row's chunk (0, 1, …): up to `CHUNKS` equal chunks in file order, each of at least
    `MIN_CHUNK_ROWS` rows; an empty array when there are too few rows for two."""
    k = min(CHUNKS, n // MIN_CHUNK_ROWS)
    return np.empty(0, dtype=np.int64) if k < 2 else (np.arange(n) * k) // n


def chunk_names(chunks: np.ndarray) -> list[str]:
    """"rows 1–200", … for each chunk, numbered within the labelled rows."""
    edges = np.flatnonzero(np.r_[True, chunks[1:] != chunks[:-1], True])
    return [f"rows {count(a + 1)}–{count(b)}" for a, b in zip(edges[:-1], edges[1:])]


def backtest_table(assessment: Assessment, model: str, decision: Decision = Decision(), *, level: float = 0.95,
                   n_resamples: int = 200, seed: int = 0, groups: np.ndarray | None = None,
                   names: list[str] | None = None) -> pd.DataFrame | None:
    """The backtest of one model (`assess.analyses.estimation.backtest`) on equal chunks of its labelled rows, or on
    ``groups`` (a group code per labelled row, named by ``names[code]``; e.g. time periods), its groups named and its
    keys by the metrics' names; None without two groups, or without probabilities."""
    labelled = assessment.predictions(model)
    chunks = backtest_chunks(labelled.n) if groups is None else np.asarray(groups)
    if len(np.unique(chunks)) < 2 or labelled.scores is None:
        return None
    try:
        predicted = predicted_labels(labelled.task, labelled.y_pred, labelled.scores, decision, model=model)
        table = backtest(labelled.y_true, labelled.scores, chunks, classes=labelled.classes, level=level,
                         n_resamples=n_resamples, seed=seed, predicted=predicted)
    except (AssessError, ValueError):
        return None
    names = chunk_names(chunks) if names is None else names
    table = table.sort_values("group", kind="stable")     # groups in their order (periods in time order)
    return table.assign(group=[names[g] for g in table["group"]],
                        metric=[get(assessment.task, key).name for key in table["key"]])
