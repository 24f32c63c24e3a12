r"""Is the estimate stable: metrics per cross-validation fold with their spread, and learning curves.

Per fold (:func:`fold_metrics`): every metric of :func:`assess.metrics.evaluate.evaluate` on each fold's rows
(:func:`assess.metrics.breakdown.evaluate_groups`), and per model and metric the mean over the J folds, their
standard deviation and an interval for the mean (ISO/IEC TS 4213:2022 5.3; k-fold cross-validation as in reference
files 001_0dba7a4db4998f0e.txt (Qahtan, cross-validation) and 004_de86ae8f5c4f03c1.txt §5 (the K scores are
averaged); 002_9dbbacdbf507b5ca.txt (Iocchi, "K-Fold Cross Validation": error = the mean of the fold errors δ_i)):

- one k-fold run: the t interval :math:`\bar x \pm t_{J-1,\,1-\alpha/2}\, s/\sqrt J`, which treats the folds as
  independent (they share training data, so it is somewhat too narrow);
- repeated k-fold (a ``repeat`` column, J = r·k folds): the corrected resampled t interval of Nadeau & Bengio
  (2003, *Machine Learning* 52:239–281), as recommended by Bouckaert & Frank (2004, PAKDD):
  :math:`\bar x \pm t_{J-1,\,1-\alpha/2}\sqrt{(1/J + n_2/n_1)\,s^2}` with :math:`n_2/n_1 = 1/(k-1)`, the
  test-to-training size ratio of k-fold CV.

Either interval is cut to the metric's range (the registry's ``range``: [0, 1] for a recall, [0, ∞) for an error),
which the symmetric t interval does not know: near a bound it would otherwise promise values the metric cannot
take. The cut bound is still a bound of a t interval, so its coverage is the t interval's.

The pooled value (all rows at once, as on the Metrics page) is beside them. On repeated cross-validation each
(repeat, fold) is one fold — scored as `cross_val_score` scores it — and the pooled value pools the rows of all
repeats, every sample counted r times (for a mean over rows such as accuracy: the mean of the repeats' values).

Learning curves (:func:`learning_curve`; reference file 004_de86ae8f5c4f03c1.txt §6, "how much we benefit from
adding more training data"): when predictions come from models trained on growing
training sets (a ``train_size`` column), the metric per training size and model, mean over folds with a t interval
(the fold band), and whether more data still helps: the least-squares slope of the metric against
:math:`\log_2` (training size) over the last ``last`` sizes — the gain per doubling of the training set — with its
t interval (per-fold points, ``n − 2`` df). The curve "still improves" when the interval lies on the better side of 0.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as sps

from assess import intervals
from assess.core.decision import Decision
from assess.core.errors import AssessError
from assess.core.formatting import name_in_sentence, percent_level
from assess.inputs.assessment import Assessment
from assess.inputs.columns import label_strings, numeric_column, quote
from assess.metrics.breakdown import evaluate_groups
from assess.metrics.evaluate import evaluate
from assess.metrics.registry import get

__all__ = ["FoldSummary", "fold_metrics", "LearningCurve", "learning_curve", "train_size_column",
           "TRAIN_SIZE_NAMES"]

#: Column names read as the training-set size of a learning curve.
TRAIN_SIZE_NAMES = ("train_size", "training_size", "n_train", "train_n", "train_samples")


@dataclass(frozen=True, eq=False)
class FoldSummary:
    """``per_fold``: ``model``, ``repeat`` (None without a repeat column), ``fold``, ``n``, ``key``, ``name``,
    ``value``, ``reason``. ``summary``: per model and metric ``pooled``, ``mean``, ``sd``, ``low``, ``high``,
    ``n_folds``, ``method`` (``"t over folds"`` or ``"Nadeau–Bengio corrected t"``)."""

    per_fold: pd.DataFrame
    summary: pd.DataFrame
    repeated: bool
    folds_per_repeat: int
    confidence_level: float

    def to_dict(self) -> dict:
        """``{model: {key: {"pooled", "mean", "sd", "low", "high", "n_folds", "method", "folds": {fold: value}}}}``;
        with repeats the fold names are ``"<repeat>/<fold>"``."""
        out: dict = {}
        for rec in self.summary.to_dict("records"):
            out.setdefault(rec["model"], {})[rec["key"]] = {
                "pooled": _num(rec["pooled"]), "mean": _num(rec["mean"]), "sd": _num(rec["sd"]),
                "low": _num(rec["low"]), "high": _num(rec["high"]), "n_folds": int(rec["n_folds"]),
                "method": rec["method"], "folds": {}}
        for rec in self.per_fold.to_dict("records"):
            name = rec["fold"] if rec["repeat"] is None else f"{rec['repeat']}/{rec['fold']}"
            out[rec["model"]][rec["key"]]["folds"][name] = _num(rec["value"])
        return out


def _num(v):
    return None if v is None or not np.isfinite(v) else float(v)


def _t_interval(values: np.ndarray, confidence_level: float, ratio: float | None,
                bounds: tuple[float, float] = (-math.inf, math.inf)) -> tuple[float, float, float, float]:
    """Mean, SD and the (corrected when ``ratio``) t interval of the finite ``values``, cut to the metric's range
    ``bounds`` (an accuracy interval never passes 1)."""
    x = values[np.isfinite(values)]
    j = x.size
    if j == 0:
        return math.nan, math.nan, math.nan, math.nan
    mean = float(x.mean())
    if j < 2:
        return mean, math.nan, math.nan, math.nan
    sd = float(x.std(ddof=1))
    # the layer's t interval of a mean, t_{J-1} s/√J (`assess.intervals.mean_ci`); Nadeau–Bengio widens its half
    # width to t_{J-1} √((1/J + n2/n1) s²), i.e. by √(1 + J n2/n1)
    plain = intervals.mean_ci(x, confidence_level=confidence_level)
    half = (plain.high - plain.low) / 2 * math.sqrt(1.0 + j * (ratio or 0.0))
    return mean, sd, max(mean - half, bounds[0]), min(mean + half, bounds[1])


def fold_metrics(assessment: Assessment, *, models=None, keys=None, decision: Decision = Decision(),
                 beta: float = 1.0, k: int = 2, confidence_level: float = 0.95) -> FoldSummary:
    """Every metric of ``keys`` per fold (and repeat) of every model of ``models``; see the module docstring.
    ``decision``, ``beta`` and ``k`` are those of :func:`evaluate` (classification only)."""
    if not 0 < confidence_level < 1:
        raise AssessError(f"`confidence_level` must be in (0, 1) (got {confidence_level!r})")
    roles = assessment.roles
    if roles.fold is None:
        raise AssessError(f"{assessment.table.name} has no fold column: per-fold metrics need one (a `fold` column, "
                          "or choose it on the Data page / with --fold)")
    frame = assessment.frame
    repeat_col = roles.repeat
    options = {"decision": decision, "beta": beta, "k": k} if assessment.task.is_classification else {}
    per_fold, summary = [], []
    folds_per_repeat = 0
    for model in (models or assessment.models):
        pred = assessment.predictions(model)
        rows = assessment.model_rows[model]
        fold = label_strings(frame[roles.fold].iloc[rows]).fillna("(missing)").astype(str).to_numpy()
        repeat = (label_strings(frame[repeat_col].iloc[rows]).fillna("(missing)").astype(str).to_numpy()
                  if repeat_col else None)
        block = fold if repeat is None else np.char.add(np.char.add(repeat.astype(str), "\x1f"), fold.astype(str))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pooled = evaluate(pred, keys, baselines=False, **options)
            groups = list(evaluate_groups(pred, block, keys, **options))
        if len(groups) < 2:
            raise AssessError(f"{assessment.table.name}: model {quote(model)} has {len(groups)} fold; per-fold "
                              "metrics need at least 2")
        for g, idx, report in groups:
            r_name, _, f_name = str(g).rpartition("\x1f") if repeat is not None else (None, "", str(g))
            for r in report.results:
                per_fold.append({"model": model, "repeat": r_name, "fold": f_name, "n": idx.size, "key": r.key,
                                 "name": r.name, "value": r.value, "reason": r.reason})
        j = len(groups)
        n_folds = len(np.unique(fold))
        folds_per_repeat = max(folds_per_repeat, n_folds)
        corrected = repeat is not None and j > n_folds
        ratio = 1.0 / (n_folds - 1) if corrected and n_folds > 1 else None
        table = pd.DataFrame([x for x in per_fold if x["model"] == model])
        method = (f"Nadeau–Bengio corrected t ({j // n_folds} × {n_folds}-fold)" if corrected
                  else f"t over {j} folds")
        for r in pooled.results:
            values = table.loc[table["key"] == r.key, "value"].to_numpy(dtype=float)
            mean, sd, low, high = _t_interval(values, confidence_level, ratio, get(assessment.task, r.key).range)
            summary.append({"model": model, "key": r.key, "name": r.name, "pooled": r.value, "mean": mean, "sd": sd,
                            "low": low, "high": high, "n_folds": int(np.isfinite(values).sum()),
                            "method": method})
    return FoldSummary(pd.DataFrame(per_fold), pd.DataFrame(summary), repeat_col is not None, folds_per_repeat,
                       float(confidence_level))


# ------------------------------------------------------------------------------------------------ learning curves


def train_size_column(assessment: Assessment) -> str | None:
    """The learning-curve column (:data:`TRAIN_SIZE_NAMES`, any case), or None."""
    lowered = {str(c).strip().lower(): c for c in assessment.frame.columns}
    return next((lowered[n] for n in TRAIN_SIZE_NAMES if n in lowered), None)


@dataclass(frozen=True, eq=False)
class LearningCurve:
    """``points``: per model and training size ``mean``, ``sd``, ``low``, ``high`` (the fold band), ``n_folds``;
    ``per_fold``: ``model``, ``train_size``, ``fold``, ``value``; ``trend``: per model the ``slope`` (gain per doubling
    of the training set, in the metric's units, sign as the metric), ``low``, ``high``, ``sizes`` used, and
    ``verdict`` (a sentence)."""

    key: str
    name: str
    column: str
    points: pd.DataFrame
    per_fold: pd.DataFrame
    trend: pd.DataFrame
    confidence_level: float


def learning_curve(assessment: Assessment, key: str, *, models=None, decision: Decision = Decision(),
                   confidence_level: float = 0.95, last: int = 3, column: str | None = None) -> LearningCurve:
    """The metric ``key`` against the training size per model, with fold bands and the slope of the last ``last``
    sizes; see the module docstring."""
    column = column or train_size_column(assessment)
    if column is None:
        raise AssessError(f"{assessment.table.name} has no training-size column ({', '.join(TRAIN_SIZE_NAMES)}): "
                          "a learning curve needs predictions of models trained on growing training sets")
    spec = get(assessment.task, key)
    if isinstance(last, bool) or not isinstance(last, int) or last < 2:
        raise AssessError(f"`last` must be a whole number ≥ 2 (got {last!r})")
    sizes_all = numeric_column(assessment.frame, column)
    if not np.isfinite(sizes_all).all() or (sizes_all <= 0).any():
        bad = int(np.flatnonzero(~(np.isfinite(sizes_all) & (sizes_all > 0)))[0])
        raise AssessError(f"{assessment.table.name}: column {quote(column)} must hold positive training sizes (row "
                          f"{bad + 2}: {quote(assessment.frame[column].iloc[bad])})")
    options = {"decision": decision} if assessment.task.is_classification else {}
    fold_col = assessment.roles.fold
    per_fold, points, trend = [], [], []
    for model in (models or assessment.models):
        pred = assessment.predictions(model)
        rows = assessment.model_rows[model]
        sizes = sizes_all[rows]
        folds = (label_strings(assessment.frame[fold_col].iloc[rows]).fillna("").astype(str).to_numpy()
                 if fold_col else np.full(rows.size, "all"))
        block = np.char.add(np.char.add(np.char.mod("%.17g", sizes), "\x1f"), folds.astype(str))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for g, idx, report in evaluate_groups(pred, block, [key], **options):
                size, _, fold = str(g).partition("\x1f")
                per_fold.append({"model": model, "train_size": float(size), "fold": fold,
                                 "value": report[key].value})
        table = pd.DataFrame([x for x in per_fold if x["model"] == model])
        for size, sub in table.groupby("train_size", sort=True):
            mean, sd, low, high = _t_interval(sub["value"].to_numpy(dtype=float), confidence_level, None, spec.range)
            points.append({"model": model, "train_size": size, "mean": mean, "sd": sd, "low": low, "high": high,
                           "n_folds": int(np.isfinite(sub["value"].to_numpy(dtype=float)).sum())})
        trend.append({"model": model, **_trend(table, spec, last, confidence_level)})
    return LearningCurve(key, spec.name, str(column), pd.DataFrame(points), pd.DataFrame(per_fold),
                         pd.DataFrame(trend), float(confidence_level))


def _trend(table: pd.DataFrame, spec, last: int, confidence_level: float) -> dict:
    """Least-squares slope of the metric on log2(training size) over the last ``last`` sizes, its t interval and a
    verdict."""
    sizes = np.sort(table["train_size"].unique())
    used = sizes[-last:]
    sub = table[table["train_size"].isin(used) & np.isfinite(table["value"].to_numpy(dtype=float))]
    x, y = np.log2(sub["train_size"].to_numpy(dtype=float)), sub["value"].to_numpy(dtype=float)
    out = {"slope": math.nan, "low": math.nan, "high": math.nan, "sizes": [float(s) for s in used],
           "verdict": "Too few training sizes to judge whether more data helps."}
    if used.size < 2 or y.size < 3:
        return out
    res = sps.linregress(x, y)
    half = float(sps.t.ppf(0.5 + confidence_level / 2, y.size - 2)) * float(res.stderr)
    slope = float(res.slope)
    low, high = slope - half, slope + half
    better_up = spec.direction != "lower"
    improving = low > 0 if better_up else high < 0
    worsening = high < 0 if better_up else low > 0
    span = f"from {used[0]:,.0f} to {used[-1]:,.0f} training samples"
    gain = (f"{slope:+.3g} {name_in_sentence(spec.name)} per doubling "
            f"({percent_level(confidence_level)} CI {low:+.3g} to {high:+.3g})")
    if improving:
        verdict = f"Still improving {span}: {gain}; more data is likely to help."
    elif worsening:
        verdict = f"Getting worse {span}: {gain}."
    else:
        verdict = f"Levelled off {span}: {gain}, no clear gain from more data."
    return out | {"slope": slope, "low": low, "high": high, "verdict": verdict}
