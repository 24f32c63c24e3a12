r"""Confidence-based performance estimation (CBPE): how good a classifier is on rows whose labels have not arrived.

If the scores are calibrated, :math:`\hat p_{ic} = P(y_i = c \mid s_i)`, the confusion matrix of rows without labels
has the expected cells (the labels are the only unknown; the predicted labels :math:`\hat y_i` are known)

.. math::

    \mathrm{E}\,C_{ab} = \sum_i \hat p_{ia}\,[\hat y_i = b]
    \qquad\text{binary: } \mathrm{E}\,T_P = \sum_i \hat p_i \hat y_i,\ \mathrm{E}\,F_P = \sum_i (1 - \hat p_i) \hat y_i,
    \ \mathrm{E}\,F_N = \sum_i \hat p_i (1 - \hat y_i)

and accuracy, precision, recall and F1 are read from those cells (multi-class: macro averages over the classes). ROC
AUC is the Mann–Whitney form with each row a positive of weight :math:`\hat p_i` and a negative of weight
:math:`1 - \hat p_i`, ranked by the model's own score (ties count one half); multi-class: the macro one-vs-rest mean.
This is NannyML's CBPE (Sokol et al., nannyml.readthedocs.io, "Confidence-based Performance Estimation").

The one assumption: **no concept drift** — P(y | score) on the unlabelled rows is what it was on the labelled ones.
The input distribution may shift (that is what the estimate follows); the link from score to outcome may not.

Calibration (the estimate is only as good as :math:`\hat p`): the labelled rows' expected calibration error and its
simultaneous Clopper–Pearson interval (`assess.metrics.calibration_error.ece_interval`, one-vs-rest per class at level
:math:`1 - \alpha/k` for k classes) decide. The scores are kept as they are only when every interval lies within
`ECE_TOLERANCE` (shown calibrated). When an interval excludes 0 they are miscalibrated beyond noise and are
recalibrated on the labelled rows: by isotonic regression (scikit-learn's ``IsotonicRegression``) from
`ISOTONIC_MIN_ROWS` labelled rows on — it is free of shape assumptions but overfits smaller sets (scikit-learn's user
guide on calibration) — and otherwise by Platt scaling on the logit of the score, :math:`\sigma(a\,\mathrm{logit}(s)
+ b)` fitted by maximum likelihood (identity at :math:`a = 1, b = 0`; the two-parameter logistic regression that
scikit-learn's ``LogisticRegression(penalty=None)`` fits, here by Newton steps over all resamples at once). When the
labelled rows are too few to tell (an interval neither excludes 0 nor lies within the tolerance — the simultaneous
interval is conservative, and 120 rows of a forest's under-confident scores, ECE 0.18, still include 0), Platt
scaling too: it includes the identity, so calibrated scores lose little, and its uncertainty is in the interval.
Multi-class scores are recalibrated class by class (one-vs-rest) and renormalised to sum to 1.

Interval: a prediction interval for the metric the unlabelled rows will show once their labels arrive. Each resample
refits the calibration on a bootstrap resample of the labelled rows (`assess.intervals.bootstrap.bootstrap_ci`, the
calibration's own uncertainty) and draws every unlabelled row's label from its recalibrated probability (the labels'
uncertainty); the percentile interval of the metric on those drawn labels is reported. Resampling the unlabelled rows
instead would target a different quantity — the mean of :math:`\hat p` over a population of rows — and cover the
realised metric badly when the scores are confident (rows all at :math:`\hat p = 0.8` have a resampled accuracy of
exactly 0.8, while 100 of them realise 0.8 ± 0.08).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import sparse, special

from assess.core.data import Task
from assess.core.decision import Decision, predicted_labels
from assess.core.errors import AssessError
from assess.core.formatting import percent_level
from assess.curves.counts import threshold_counts
from assess.intervals.bootstrap import bootstrap_ci
from assess.metrics.calibration_error import bin_totals, ece_interval

__all__ = ["ASSUMPTION", "BINARY_KEYS", "ECE_TOLERANCE", "ISOTONIC_MIN_ROWS", "MULTICLASS_KEYS", "Estimate",
           "backtest", "estimate", "estimate_predictions", "estimated_section"]

BINARY_KEYS = ("accuracy", "precision", "recall", "f1", "roc_auc")
MULTICLASS_KEYS = ("accuracy", "precision_macro", "recall_macro", "f1_macro", "roc_auc_ovr")
#: From this many labelled rows on, miscalibrated scores are recalibrated by isotonic regression, below by Platt.
ISOTONIC_MIN_ROWS = 1_000
#: The scores are kept as they are only when their ECE interval lies within this (they are shown calibrated); an
#: interval that excludes 0 means miscalibration beyond noise, and one that does neither (too few rows to tell) gets
#: Platt scaling, whose two parameters include the identity.
ECE_TOLERANCE = 0.05
ASSUMPTION = ("no concept drift: the chance of each class given the score, P(y | score), is the same on the unlabelled "
              "rows as on the labelled rows the calibration was checked on")
_CALIBRATIONS = ("auto", "none", "platt", "isotonic")
_EPS = 1e-6
_CHUNK = 4_000_000   # most label draws (rows × classes × resamples), or resample counts, held at once


@dataclass(frozen=True)
class Estimate:
    """CBPE estimates on ``n_unlabelled`` rows, each with its interval; ``calibration`` the method applied ("none",
    "platt" or "isotonic") and ``calibration_reason`` why, ``ece`` the labelled rows' ECE before it (per class for
    multi-class) with its ``ece_interval`` (low, high)."""

    values: dict[str, float]
    intervals: dict[str, tuple[float, float]]
    level: float
    n_labelled: int
    n_unlabelled: int
    calibration: str
    calibration_reason: str
    ece: tuple[float, ...]
    ece_interval: tuple[tuple[float, float], ...]
    n_resamples: int
    seed: int

    def as_json(self) -> dict:
        """``{key: {"value", "low", "high"}}`` for every key, and ``"calibration"`` (method, reason, ECE) and the
        ``"assumption"``; undefined values are None."""
        def num(v):
            return float(v) if np.isfinite(v) else None
        out = {k: {"value": num(v), "low": num(self.intervals[k][0]), "high": num(self.intervals[k][1])}
               for k, v in self.values.items()}
        return {**out, "n_unlabelled": self.n_unlabelled, "n_labelled": self.n_labelled, "confidence_level": self.level,
                "method": f"CBPE; bootstrap of the calibration rows with labels drawn for the unlabelled rows, "
                          f"{self.n_resamples:,} resamples, seed {self.seed}",
                "calibration": {"method": self.calibration, "reason": self.calibration_reason,
                                "ece": [num(e) for e in self.ece],
                                "ece_interval": [[num(lo), num(hi)] for lo, hi in self.ece_interval]},
                "assumption": ASSUMPTION}


# --- calibration ---------------------------------------------------------------------------------------------------

def _logit(p: np.ndarray) -> np.ndarray:
    q = np.clip(p, _EPS, 1 - _EPS)
    return np.log(q) - np.log1p(-q)


def _platt(x: np.ndarray, y: np.ndarray, w: np.ndarray, iterations: int = 50) -> np.ndarray:
    r"""(b, 2) maximum-likelihood :math:`(a, c)` of :math:`P(y=1) = \sigma(a x + c)` for each row of weights ``w``
    (b, n): Newton's method from the identity, all resamples at once, each step halved until the weighted negative
    log-likelihood :math:`\sum_i w_i (\log(1 + e^{z_i}) - y_i z_i)` does not rise (scores of exactly 0 or 1 put the
    logits far out, where a full step overshoots). A tiny ridge (1e-9 × Σw) keeps the 2 × 2 system solvable when a
    resample separates the classes."""
    b = w.shape[0]
    theta = np.tile([1.0, 0.0], (b, 1))
    ridge = 1e-9 * w.sum(axis=1) + 1e-12

    def loss(th, rows=slice(None)):
        z = th[:, :1] * x + th[:, 1:]
        return (w[rows] * (np.logaddexp(0.0, z) - y * z)).sum(axis=1)

    current = loss(theta)
    for _ in range(iterations):
        mu = special.expit(theta[:, :1] * x + theta[:, 1:])
        r, v = w * (y - mu), w * mu * (1 - mu)
        g = np.stack([r @ x, r.sum(axis=1)], axis=1)
        haa, hac, hcc = v @ (x * x) + ridge, v @ x, v.sum(axis=1) + ridge
        det = haa * hcc - hac * hac
        step = np.stack([(hcc * g[:, 0] - hac * g[:, 1]) / det, (haa * g[:, 1] - hac * g[:, 0]) / det], axis=1)
        if np.abs(step).max() < 1e-8:
            break
        t, pending = np.ones(b), np.arange(b)
        for _ in range(40):   # halve the step of the resamples whose loss would rise, and only theirs
            trial = loss(theta[pending] + t[pending, None] * step[pending], pending)
            fine = trial <= current[pending] + 1e-10 * np.abs(current[pending])
            current[pending[fine]] = trial[fine]
            t[pending[~fine]] /= 2
            pending = pending[~fine]
            if not pending.size:
                break
        t[pending] = 0.0      # no step lowers it: at the optimum to rounding
        theta = theta + t[:, None] * step
    return theta


def _by_score(s: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(distinct scores (U,), weight of the positives at each (b, U), weight of the negatives (b, U)): both fits
    depend on the rows only through these sums — the likelihood is a sum over rows, and isotonic regression pools
    tied scores first — so a file's 900,000 labelled rows of 4-decimal scores are fitted as 10,001 points."""
    u, inverse = np.unique(s, return_inverse=True)
    onehot = sparse.csr_matrix((np.ones(s.size), (inverse, np.arange(s.size))), shape=(u.size, s.size))
    pos = np.asarray(onehot @ (w * y).T).T
    return u, pos, np.asarray(onehot @ w.T).T - pos


def _calibrators(method: str, y_onehot: np.ndarray, p: np.ndarray, w: np.ndarray):
    """For each class column j of ``p`` (n, k) and each row of weights ``w`` (b, n): a function mapping scores (m,)
    to recalibrated probabilities (b, m)."""
    fits = []
    for j in range(p.shape[1]):
        y = y_onehot[:, j].astype(np.float64)
        u, pos, neg = _by_score(p[:, j], y, w)
        if method == "platt":
            if 2 * u.size < len(y):   # each distinct score twice: once as the positives' point, once as the negatives'
                x, w_fit = np.r_[_logit(u), _logit(u)], np.hstack([pos, neg])
                y = np.r_[np.ones(u.size), np.zeros(u.size)]
            else:                     # (nearly) all scores distinct: the rows themselves are fewer points
                x, w_fit = _logit(p[:, j]), w
            theta = _platt(x, y, w_fit)
            fits.append(lambda t, th=theta: special.expit(th[:, :1] * _logit(t) + th[:, 1:]))
        else:
            # imported here: scikit-learn loads scipy.stats, which the command line defers (assess.cli.lazy_imports)
            from sklearn.isotonic import IsotonicRegression
            total = pos + neg
            models = []
            for row_pos, row_total in zip(pos, total):
                seen = row_total > 0
                models.append(IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip").fit(
                    u[seen], row_pos[seen] / row_total[seen], sample_weight=row_total[seen]) if seen.any() else None)
            fits.append(lambda t, ms=models: np.stack([m.predict(t) if m is not None else np.full(t.shape, np.nan)
                                                       for m in ms]))
    return fits


def _recalibrated(method: str, y_onehot, p_lab, p_unl, w) -> np.ndarray:
    """(b, m, k) recalibrated probabilities of the unlabelled rows under each row of weights ``w`` (b, n)."""
    if method == "none":
        return np.broadcast_to(p_unl, (w.shape[0], *p_unl.shape))
    out = np.stack([f(p_unl[:, j]) for j, f in enumerate(_calibrators(method, y_onehot, p_lab, w))], axis=-1)
    if out.shape[-1] > 1:   # multi-class: one-vs-rest fits, renormalised
        total = out.sum(axis=-1, keepdims=True)
        out = np.divide(out, total, out=np.full_like(out, 1.0 / out.shape[-1]), where=total > 0)
    return out


def _check_calibration(y_onehot: np.ndarray, p: np.ndarray, level: float):
    """(ECE per class, its simultaneous interval per class, whether any interval excludes 0): one-vs-rest for
    multi-class at level 1 − α/k (Bonferroni over the classes)."""
    k = p.shape[1]
    level_each = 1.0 - (1.0 - level) / k
    eces, intervals = [], []
    for j in range(k):
        counts = threshold_counts(y_onehot[:, j].astype(np.int8), p[:, j])
        _, rows, pos, score_sum = bin_totals(counts)
        # the ECE's second form (assess.metrics.calibration_error): Σ_b |Σ_{i∈b} (y_i − p_i)| / n
        eces.append(float(np.abs(pos - score_sum).sum() / rows.sum()))
        ci = ece_interval(counts, confidence_level=level_each)
        intervals.append((ci.low, ci.high))
    return tuple(eces), tuple(intervals), any(lo > 0 for lo, _ in intervals)


# --- metrics from (expected or drawn) labels -----------------------------------------------------------------------

def _auc(soft: np.ndarray, score: np.ndarray) -> np.ndarray:
    r"""Mann–Whitney AUC, ties one half, of rows each a positive of weight ``soft`` and a negative of weight
    1 − ``soft`` (b, m), ranked by ``score`` (m,): :math:`\sum_g N_g (P_{>g} + P_g / 2) / (P N)` over groups g of tied
    scores in decreasing order. With 0/1 labels it is the ordinary AUC."""
    order = np.argsort(-score, kind="stable")
    s = score[order]
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
    pos = np.add.reduceat(soft[:, order], starts, axis=1)
    neg = np.add.reduceat(1.0 - soft[:, order], starts, axis=1)
    above = np.cumsum(pos, axis=1) - pos
    with np.errstate(invalid="ignore", divide="ignore"):
        return (neg * (above + pos / 2)).sum(axis=1) / (pos.sum(axis=1) * neg.sum(axis=1))


def _metrics(labels: np.ndarray, predicted: np.ndarray, scores: np.ndarray, keys) -> np.ndarray:
    """(b, len(keys)) metrics of the m rows from ``labels`` (b, m, k): each row's probability of each class (the
    expected cells) or a drawn one-hot label (a realisation), the predicted class codes ``predicted`` (m,) and the
    scores (m, k) for the AUC. Binary (k = 2): the class-1 cells; multi-class: macro over the classes."""
    b, m, k = labels.shape
    onehot = np.eye(k)[predicted]                                      # (m, k)
    cells = np.einsum("bma,mc->bac", labels, onehot)                   # (b, true, predicted)
    diag = np.diagonal(cells, axis1=1, axis2=2)                        # (b, k)
    rows, cols = cells.sum(axis=2), cells.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision, recall, f1 = diag / cols, diag / rows, 2 * diag / (rows + cols)
        if k == 2:
            averaged = dict(precision=precision[:, 1], recall=recall[:, 1], f1=f1[:, 1],
                            roc_auc=_auc(labels[:, :, 1], scores[:, 1]))
        else:
            aucs = np.stack([_auc(labels[:, :, c], scores[:, c]) for c in range(k)], axis=1)
            averaged = dict(precision_macro=_mean(precision), recall_macro=_mean(recall), f1_macro=_mean(f1),
                            roc_auc_ovr=_mean(aucs))
    averaged["accuracy"] = diag.sum(axis=1) / m
    return np.stack([averaged[key] for key in keys], axis=1)


def _mean(per_class: np.ndarray) -> np.ndarray:
    """Macro mean over the classes where the value is defined (NaN when none is)."""
    with np.errstate(invalid="ignore"):
        return np.nanmean(np.where(np.isfinite(per_class), per_class, np.nan), axis=1) \
            if np.isfinite(per_class).any() else np.full(per_class.shape[0], np.nan)


# --- the estimate --------------------------------------------------------------------------------------------------

def _as_matrix(p, k: int, which: str) -> np.ndarray:
    """(n, k) class probabilities from P(positive) (n,) or (n, k); multi-class rows renormalised to sum to 1 (a
    row's expected cells must add up to one row; validation warns of rows that do not), a row of zeros read as
    uniform."""
    p = np.asarray(p, dtype=np.float64)
    if k == 2 and p.ndim == 1:
        p = np.column_stack([1.0 - p, p])
    if p.ndim != 2 or p.shape[1] != k:
        raise ValueError(f"the {which} rows' scores must be P(positive) (n,) for two classes or (n, {k}) "
                         "probabilities")
    if not np.isfinite(p).all() or (p < 0).any() or (p > 1).any():
        raise AssessError(f"CBPE needs probabilities in [0, 1], and the {which} rows' scores have values outside it "
                          "or missing")
    if k > 2:
        total = p.sum(axis=1, keepdims=True)
        p = np.divide(p, total, out=np.full_like(p, 1.0 / k), where=total > 0)
    return p


def estimate(y_labelled, p_labelled, p_unlabelled, *, classes, keys=None, level: float = 0.95,
             n_resamples: int = 1000, seed: int = 0, calibration: str = "auto", predicted=None) -> Estimate:
    """CBPE of ``keys`` (default: `BINARY_KEYS` or `MULTICLASS_KEYS`) on the unlabelled rows (module docstring).

    ``y_labelled``: class codes 0..k−1 of the labelled rows (binary: 1 = positive); ``p_labelled``/``p_unlabelled``:
    P(positive) (n,) for two classes or (n, k) class probabilities; ``classes``: the k class names (binary:
    (negative, positive)). ``predicted``: the unlabelled rows' predicted class codes (default: score ≥ 0.5 for two
    classes, the highest probability otherwise). ``calibration``: "auto" (checked, recalibrated if needed), "none",
    "platt" or "isotonic"."""
    if calibration not in _CALIBRATIONS:
        raise ValueError(f"`calibration` must be one of {_CALIBRATIONS} (got {calibration!r})")
    k = len(classes)
    keys = tuple(keys or (BINARY_KEYS if k == 2 else MULTICLASS_KEYS))
    y = np.asarray(y_labelled, dtype=np.int64)
    p_lab, p_unl = _as_matrix(p_labelled, k, "labelled"), _as_matrix(p_unlabelled, k, "unlabelled")
    n, m = len(y), len(p_unl)
    if n == 0 or m == 0:
        raise AssessError("CBPE needs labelled rows (to check the calibration on) and unlabelled rows (to estimate)")
    if predicted is None:
        predicted = (p_unl[:, 1] >= 0.5).astype(np.int64) if k == 2 else p_unl.argmax(axis=1)
    predicted = np.asarray(predicted, dtype=np.int64)
    y_onehot = np.eye(k, dtype=np.int8)[y]
    # binary: the positive class's column alone is checked and fitted (its calibration fixes the other's)
    fit_cols = slice(1, 2) if k == 2 else slice(None)
    eces, ece_cis, miscalibrated = _check_calibration(y_onehot[:, fit_cols], p_lab[:, fit_cols], level)
    method, reason = _decide(calibration, miscalibrated, n, eces, ece_cis, level)

    def recalibrate(w):
        q = _recalibrated(method, y_onehot[:, fit_cols], p_lab[:, fit_cols], p_unl[:, fit_cols], w)
        return np.concatenate([1.0 - q, q], axis=-1) if k == 2 else q

    point = _metrics(recalibrate(np.ones((1, n))), predicted, p_unl, keys)[0]
    draws = np.random.default_rng(np.random.SeedSequence([seed, 35]))   # the labels' own stream, seeded

    def statistic(counts):
        q = recalibrate(counts.astype(np.float64))                           # (b, m, k)
        cut = np.cumsum(q, axis=-1)
        u = draws.random(q.shape[:2])[..., None]
        drawn = np.minimum((u > cut).sum(axis=-1), k - 1)                    # a categorical draw per row
        return _metrics(np.eye(k)[drawn], predicted, p_unl, keys)

    # without recalibration the labelled rows play no part in a resample: one stands for them all (not drawn n times)
    rows = n if method != "none" else 1
    per_chunk = max(1, min(_CHUNK // (m * k), _CHUNK // rows))   # resamples whose draws and counts fit in memory
    result = bootstrap_ci(statistic, n=rows, point=point, n_resamples=n_resamples, confidence_level=level, seed=seed,
                          chunk_cells=rows * per_chunk)
    return Estimate({key: float(v) for key, v in zip(keys, point)},
                    {key: (ci.low, ci.high) for key, ci in zip(keys, result.intervals)}, level, n, m, method, reason,
                    eces, ece_cis, int(n_resamples), int(seed))


def _decide(calibration: str, miscalibrated: bool, n: int, eces, cis, level: float) -> tuple[str, str]:
    worst = int(np.argmax([hi for _, hi in cis]))
    # one pair of parentheses in the reason (the page reads it after "Scores … on N labelled rows:")
    said = (f"ECE {eces[worst]:.3f}, {percent_level(level)} simultaneous interval "
            f"{cis[worst][0]:.3f}–{cis[worst][1]:.3f}")
    if calibration != "auto":
        return calibration, f"{calibration} chosen ({said}, on the labelled rows)"
    if miscalibrated and n >= ISOTONIC_MIN_ROWS:
        return "isotonic", (f"the scores are miscalibrated on the labelled rows ({said}: it excludes 0); isotonic "
                            f"regression on {n:,} labelled rows (enough for its free shape)")
    if miscalibrated:
        return "platt", (f"the scores are miscalibrated on the labelled rows ({said}: it excludes 0); Platt scaling, "
                         f"as {n:,} labelled rows are fewer than the {ISOTONIC_MIN_ROWS:,} isotonic regression needs")
    if max(hi for _, hi in cis) <= ECE_TOLERANCE:
        return "none", f"the scores are calibrated on the labelled rows ({said}: within {ECE_TOLERANCE:g})"
    return "platt", (f"{n:,} labelled rows cannot show the scores calibrated ({said}: it reaches above "
                     f"{ECE_TOLERANCE:g}); Platt scaling keeps calibrated scores nearly as they are and carries its "
                     "own uncertainty into the interval")


def estimate_predictions(labelled, unlabelled, decision: Decision = Decision(), **options) -> Estimate:
    """`estimate` from two `assess.core.data.Predictions` of one model: its labelled rows and its unlabelled ones
    (`assess.inputs.assessment.Assessment.unlabelled_predictions`), the unlabelled rows' predicted labels by
    ``decision`` as every metric's are (`assess.core.decision.predicted_labels`). Weights are not used (every row
    counts once)."""
    if labelled.task not in (Task.BINARY, Task.MULTICLASS) or labelled.scores is None \
            or unlabelled.scores is None:
        raise AssessError("CBPE needs a binary or multi-class file with probability scores")
    if labelled.task is Task.MULTICLASS and (labelled.y_true < 0).any():
        raise AssessError("CBPE needs every labelled row's class among the scored classes")
    predicted = predicted_labels(unlabelled.task, unlabelled.y_pred, unlabelled.scores, decision,
                                 model=unlabelled.model)
    if (predicted < 0).any():
        raise AssessError("CBPE needs every unlabelled row's predicted label among the classes")
    return estimate(labelled.y_true, labelled.scores, unlabelled.scores, classes=labelled.classes,
                    predicted=predicted, **options)


def estimated_section(assessment, models, *, decision: Decision = Decision(), level: float = 0.95,
                      n_resamples: int = 1000, seed: int = 0) -> dict:
    """The metrics JSON's part for a file with unlabelled rows: ``"n_unlabelled"``, ``"estimated": {model:
    Estimate.as_json() or null}`` and, for each null, its reason under ``"undefined_estimated"``; {} when every row
    is labelled."""
    if not assessment.n_unlabelled:
        return {}
    estimated, undefined = {}, {}
    for model in models:
        unlabelled = assessment.unlabelled_predictions(model)
        try:
            if unlabelled is None:
                raise AssessError("the model has no unlabelled rows")
            estimated[model] = estimate_predictions(assessment.predictions(model), unlabelled, decision, level=level,
                                                    n_resamples=n_resamples, seed=seed).as_json()
        except AssessError as exc:
            estimated[model], undefined[model] = None, str(exc)
    return {"n_unlabelled": assessment.n_unlabelled, "estimated": estimated} \
        | ({"undefined_estimated": undefined} if undefined else {})


def backtest(y, p, groups, *, classes, keys=None, level: float = 0.95, n_resamples: int = 200, seed: int = 0,
             calibration: str = "auto", predicted=None) -> pd.DataFrame:
    """How close CBPE comes on labelled history: each group (a period, a chunk of rows) is estimated as if its labels
    were missing, calibrated on the labelled rows of every *other* group, and set beside the metric its labels give.

    One row per (group, key): ``group``, ``n``, ``key``, ``estimated``, ``low``, ``high``, ``realised``,
    ``calibration``; groups in order of first appearance. ``predicted``: every row's predicted class code (default
    as in `estimate`)."""
    k = len(classes)
    keys = tuple(keys or (BINARY_KEYS if k == 2 else MULTICLASS_KEYS))
    y = np.asarray(y, dtype=np.int64)
    p = _as_matrix(p, k, "labelled")
    if predicted is None:
        predicted = (p[:, 1] >= 0.5).astype(np.int64) if k == 2 else p.argmax(axis=1)
    predicted = np.asarray(predicted, dtype=np.int64)
    groups = np.asarray(groups)
    rows = []
    for g in pd.unique(groups):
        inside = groups == g
        if inside.all():
            raise AssessError("a backtest needs at least two groups: the others calibrate the one estimated")
        est = estimate(y[~inside], p[~inside], p[inside], classes=classes, keys=keys, level=level,
                       n_resamples=n_resamples, seed=seed, calibration=calibration, predicted=predicted[inside])
        realised = _metrics(np.eye(k)[y[inside]][None], predicted[inside], p[inside], keys)[0]
        for key, value in zip(keys, realised):
            low, high = est.intervals[key]
            rows.append(dict(group=g, n=int(inside.sum()), key=key, estimated=est.values[key], low=low, high=high,
                             realised=float(value), calibration=est.calibration))
    return pd.DataFrame(rows)
