r"""Bootstrap intervals out of core: resample the grouped table, never the rows.

Rows that share their class and score key are interchangeable in every metric, so drawing n rows with replacement
(stratified by class, as the in-memory bootstrap draws them) is the same as one multinomial draw per class over the
*units* of the grouped table — the (score key, class) cells with their row counts :math:`f_u`:

.. math:: (c_u)_{u \in \text{class}} \sim \mathrm{Multinomial}\bigl(n_\text{class},\; (f_u / n_\text{class})_u\bigr)

(:func:`assess.intervals.bootstrap_ci` with ``frequencies``). A resample is a vector of unit counts, whose cost
depends on the number of distinct scores, not on the number of rows.

- Label metrics (binary cells, the multi-class confusion matrix) are resampled by the very statistic of the
  in-memory path (`assess.metrics.resampling.binary_cells_statistic` /
  `multiclass_cells_statistic` without weights, which already works on the cells), with the same seed: the same
  draws, the same interval, exactly.
- Binary score metrics (ROC AUC, AP, log loss, Brier, KS, …): the units laid out as rows of unit weight and
  resampled with their frequencies through `assess.metrics.resampling.binary_score_statistic`, so each resample
  is evaluated by the registry's own ``resampled`` formulas on the resampled score-group counts. In distribution
  this is the in-memory row bootstrap; the draws differ, so the endpoints agree within Monte-Carlo error.

Not resampled out of core (the result's note says so, with ``--engine memory``): weighted files (a resample draws
rows with their own weights, which the grouped sums no longer hold), the score metrics of a score grid (a bin holds
rows of different scores, so per-row losses are not constant within a unit), and regression files.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from assess import intervals
from assess.core.data import Task
from assess.metrics import resampling

#: Why a bootstrap interval is missing out of core, by cause.
WEIGHTED = "no bootstrap interval out of core for weighted files (the resample needs each row's weight; use " \
           "--engine memory)"
GRID = "no bootstrap interval for score metrics on a score grid (use --engine memory, or raise --exact-limit)"


def bootstrap_intervals(task: Task, table, specs, values: dict, *, n_resamples: int, confidence_level: float, seed,
                        method: str, weighted: bool, exact: bool, sequential: bool = False) -> tuple[dict, dict]:
    """({key: (low, high, method text)}, {key: note}) for the bootstrap ``specs`` of one model's grouped
    ``table`` (`assess.engine.binary.ModelTable`, or one with a multi-class ``state``); ``values`` maps each key to
    its point value. ``sequential`` (``ci="auto"``): each run stops as the in-memory one does, once its bounds are
    as precise as they are shown (`assess.intervals.bootstrap_ci`), so both give the same interval."""
    if weighted:
        return {}, {m.key: WEIGHTED for m in specs}
    if task is Task.MULTILABEL:
        return {}, {m.key: "no bootstrap interval for multi-label files out of core (use --engine memory)"
                    for m in specs}
    label = [m for m in specs if m.needs == "labels" and np.isfinite(values[m.key])]
    score = [m for m in specs if m.needs != "labels" and np.isfinite(values[m.key])]
    notes = {}
    if score and (task is not Task.BINARY or not exact or table.pos_in is None):
        notes = {m.key: GRID if task is Task.BINARY else
                 "no bootstrap interval for multi-class score metrics out of core (use --engine memory)"
                 for m in score}
        score = []
    runs = []
    if label:
        maker = resampling.binary_cells_statistic if task is Task.BINARY else resampling.multiclass_cells_statistic
        runs.append((label,) + maker(table.state, label, None, None, None))
    if score:
        runs.append((score,) + _score_statistic(table, score))
    # the in-memory path's seeding (`assess.metrics.evaluate._bootstrap`): one child seed per run, labels first
    seeds = np.random.SeedSequence(int(seed) if isinstance(seed, (int, np.integer)) else 0).spawn(max(len(runs), 1))
    out = {}
    for i, (sp, stat, layout) in enumerate(runs):
        point = np.array([values[m.key] for m in sp])
        res = intervals.bootstrap_ci(stat, point=point, n_resamples=n_resamples, confidence_level=confidence_level,
                                     seed=seeds[i], method=method, sequential=sequential, **layout)
        for j, m in enumerate(sp):
            rows = "stratified" + (", over the grouped table's score groups"
                                   if i == len(runs) - 1 and sp is score else "")
            ci_ = res.intervals[j]
            out[m.key] = (ci_.low, ci_.high, replace(ci_.how, seed=seed, rows=rows))
    return out, notes


def _score_statistic(table, specs):
    """Statistic and layout over the grouped table's units (module docstring): one unit per score key and class
    present, positives first as `resampling.binary_score_statistic` lays rows out, with the unit's row count as
    its frequency."""
    scores = table.state.counts.thresholds
    keep_pos, keep_neg = table.rows_pos > 0, table.rows_neg > 0
    unit_scores = np.concatenate([scores[keep_pos], scores[keep_neg]])
    unit_class = np.concatenate([np.ones(int(keep_pos.sum()), bool), np.zeros(int(keep_neg.sum()), bool)])
    freq = np.rint(np.concatenate([table.rows_pos[keep_pos], table.rows_neg[keep_neg]])).astype(np.int64)
    stat, layout = resampling.binary_score_statistic(table.state, specs, unit_class, unit_scores,
                                                     np.ones(unit_scores.shape[0]))
    return stat, dict(layout, frequencies=freq)
