r"""Binary classification metrics as formulas over confusion counts (ISO/IEC TS 4213 3.2, 6.2, 6.3).

Conventions
-----------
``y_true``/``y_pred`` are 0/1 with 1 the positive class (``Predictions.classes[1]``). ``y_pred`` is the labels
:func:`assess.core.decision.predicted_labels` gave (the file's column, or ``score >= threshold``).
Counts are weighted sums when sample weights are given (:math:`T_P = \sum_i w_i [y_i = 1][\hat y_i = 1]`, …), so
every count is a float and ``n`` is the total weight (the number of rows without weights).

Every label metric is a function of the four cells :math:`(T_P, F_P, T_N, F_N)` and accepts arrays with leading
axes: the bootstrap evaluates a whole chunk of resamples with one call, and :mod:`assess.metrics.threshold` the
metric at every distinct threshold. Ranking metrics (ROC AUC, average precision, PR AUC, KS) come from
:func:`assess.curves.threshold_counts` — one sort per model — and, for resamples, from the ``resampled_*`` formulas
at the end of this module over the cumulative counts of that same sort reweighted by the resample counts (no new
sort). A score metric without such a formula is resampled through its point function on a batch state whose
``tps``/``fps`` carry the resampled cumulative counts.

Undefined values are NaN and the reason is emitted as :class:`~assess.core.warnings.UndefinedMetricWarning` (for a single
data set; resamples stay silent): precision with no predicted positive, recall with no positive, LR+ when FPR = 0,
the diagnostic odds ratio when FP·FN = 0, MCC when a row or column of the confusion matrix is empty, ….
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from assess import curves
from assess.core.formatting import count
from assess.inputs.probabilities import outside_unit_interval
from assess.metrics._common import note_undefined, ratio

#: The log loss clips the probability of the true class to [LOG_LOSS_EPS, 1 - LOG_LOSS_EPS] before its logarithm, as
#: scikit-learn's ``log_loss`` does (the float64 machine epsilon, 2.2e-16), so a confident wrong 0/1 prediction costs
#: -ln(eps) ≈ 36 nats instead of infinity. The one value of every log loss: binary and multi-class, in memory,
#: resampled and in the engines' SQL (`assess.engine.expressions`).
LOG_LOSS_EPS = float(np.finfo(np.float64).eps)

__all__ = [
    "BinaryState",
    "binary_state",
]


@dataclass(frozen=True, eq=False)
class BinaryState:
    """The shared quantities of one binary assessment (or of a chunk of resamples, ``batch=True``).

    ``tp fp tn fn`` are the (weighted) cells, floats or arrays with leading resample axes. ``counts`` is the one
    :class:`~assess.curves.ThresholdCounts` of the scores (point state only); ``tps``/``fps`` the cumulative counts
    per distinct score, shape ``(..., D)`` (for a point state the arrays of ``counts``; for resamples without a
    ``resampled_*`` formula, see :meth:`assess.metrics.resampling.ResampledRanks.batch_state`).
    ``log_loss_sum``/``brier_sum`` are weighted sums of per-row losses and ``weight_sum`` their denominator.
    ``labels_from`` is the phrase reasons use to say where the labels came from ("at threshold 0.5", "in y_pred").
    ``cells_sq`` holds the sums of squared weights per cell (point state only), for the effective sample size of
    proportion intervals.
    """

    tp: object
    fp: object
    tn: object
    fn: object
    beta: float = 1.0
    labels_from: str = "in y_pred"
    counts: curves.ThresholdCounts | None = None
    tps: np.ndarray | None = None
    fps: np.ndarray | None = None
    log_loss_sum: object = None
    brier_sum: object = None
    weight_sum: object = None
    proba_reason: str | None = None
    batch: bool = False
    cells_sq: dict = field(default_factory=dict)

    @property
    def has_scores(self) -> bool:
        return self.tps is not None

    @property
    def n(self):
        return self.tp + self.fp + self.tn + self.fn


def _cells(y: np.ndarray, yp: np.ndarray, w: np.ndarray | None):
    if w is None:
        # Unweighted: three counts of booleans instead of an int64 code per row (10x less memory traffic).
        n, pos, pred_pos = y.shape[0], np.count_nonzero(y), np.count_nonzero(yp)
        tp = np.count_nonzero(y & yp)
        c = np.array([n - pos - pred_pos + tp, pred_pos - tp, pos - tp, tp], dtype=np.float64)
        sq = c
    else:
        code = 2 * y.astype(np.intp) + yp.astype(np.intp)   # 0 tn, 1 fp, 2 fn, 3 tp
        c = np.bincount(code, weights=w, minlength=4)
        sq = np.bincount(code, weights=w * w, minlength=4)
    cells = {"tn": float(c[0]), "fp": float(c[1]), "fn": float(c[2]), "tp": float(c[3])}
    cells_sq = {"tn": float(sq[0]), "fp": float(sq[1]), "fn": float(sq[2]), "tp": float(sq[3])}
    return cells, cells_sq


def per_row_losses(y: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Per-row log loss and squared error of probabilities ``p`` of the positive class.

    Log loss clips the probability of the true class to :math:`[\epsilon, 1 - \epsilon]` (`LOG_LOSS_EPS`).
    """
    p_true = np.where(y, p, 1.0 - p)                  # probability given to the true class
    log_loss = -np.log(np.clip(p_true, LOG_LOSS_EPS, 1 - LOG_LOSS_EPS))
    brier = (1.0 - p_true) ** 2
    return log_loss, brier


def loss_sums(y: np.ndarray, p: np.ndarray, weight: np.ndarray | None) -> tuple[float, float]:
    """(Σ w·log loss, Σ w·squared error) of `per_row_losses`, computed in place: the point state needs only the sums,
    and at 1e7 rows the temporaries of the per-row version cost a quarter of all the metrics' time."""
    p_true = np.where(y, p, 1.0 - p)                  # probability given to the true class
    miss = np.subtract(1.0, p_true)
    np.square(miss, out=miss)
    brier = float(miss.sum() if weight is None else np.dot(weight, miss))
    np.clip(p_true, LOG_LOSS_EPS, 1 - LOG_LOSS_EPS, out=p_true)
    np.log(p_true, out=p_true)
    log_loss = -float(p_true.sum() if weight is None else np.dot(weight, p_true))
    return log_loss, brier


def binary_state(y_true: np.ndarray, y_pred: np.ndarray, scores: np.ndarray | None, weight: np.ndarray | None, *,
                 labels_from: str = "in y_pred", beta: float = 1.0) -> BinaryState:
    """Build the point state once: the cells, the one ``threshold_counts`` and the loss sums (validated input).

    ``y_pred`` holds the decided labels; ``labels_from`` says in reasons where they came from (see
    :meth:`assess.core.decision.Decision.labels_from`).
    """
    y = np.asarray(y_true) == 1
    yp = np.asarray(y_pred) == 1
    cells, cells_sq = _cells(y, yp, weight)
    kw = {}
    if scores is not None and np.ndim(scores) == 0:
        kw = _constant_score_state(y, float(scores), weight)
    elif scores is not None:
        counts = curves.threshold_counts(y, scores, sample_weight=weight)
        outside = outside_unit_interval(scores, "the score column")
        if outside is not None:
            reason = f"{outside.message}: the scores are not probabilities"
            ll = bs = float("nan")
        else:
            reason = None
            ll, bs = loss_sums(y, scores, weight)
        wsum = float(y.shape[0] if weight is None else weight.sum())
        kw = dict(counts=counts, tps=counts.tps, fps=counts.fps, log_loss_sum=ll, brier_sum=bs, weight_sum=wsum,
                  proba_reason=reason)
    return BinaryState(**cells, beta=beta, labels_from=labels_from, cells_sq=cells_sq, **kw)


def _constant_score_state(y: np.ndarray, p: float, weight: np.ndarray | None) -> dict:
    """State fields for one score ``p`` given to every row (the ISO 5.3.13 baselines), in closed form: one threshold
    group holding all positives and negatives, and loss sums from the class weights — no per-row arrays, no sort."""
    w_pos = float(np.count_nonzero(y)) if weight is None else float(weight[y].sum())
    w_neg = float(y.shape[0] - np.count_nonzero(y)) if weight is None else float(weight[~y].sum())
    counts = curves.ThresholdCounts(thresholds=np.array([p]), tps=np.array([w_pos]), fps=np.array([w_neg]),
                                    n_pos=w_pos, n_neg=w_neg, n=int(y.shape[0]), weighted=weight is not None)
    if 0 <= p <= 1:
        eps = LOG_LOSS_EPS
        ll = -(w_pos * np.log(np.clip(p, eps, 1 - eps)) + w_neg * np.log(np.clip(1 - p, eps, 1 - eps)))
        bs = w_pos * (1 - p) ** 2 + w_neg * p ** 2
        reason = None
    else:
        ll = bs = float("nan")
        reason = f"scores are not probabilities (the constant score {p:g} is outside [0, 1])"
    return dict(counts=counts, tps=counts.tps, fps=counts.fps, log_loss_sum=float(ll), brier_sum=float(bs),
                weight_sum=w_pos + w_neg, proba_reason=reason)


# ------------------------------------------------------------------------------------------------------------------
# Counts
# ------------------------------------------------------------------------------------------------------------------

def tp(s: BinaryState):
    r"""True positives (ISO 4213 3.2.4): :math:`T_P = \sum_i w_i [y_i = 1][\hat y_i = 1]`."""
    return s.tp


def fp(s: BinaryState):
    r"""False positives, type I errors (ISO 4213 3.2.3): :math:`F_P = \sum_i w_i [y_i = 0][\hat y_i = 1]`."""
    return s.fp


def tn(s: BinaryState):
    r"""True negatives (ISO 4213 3.2.5): :math:`T_N = \sum_i w_i [y_i = 0][\hat y_i = 0]`."""
    return s.tn


def fn(s: BinaryState):
    r"""False negatives, type II errors (ISO 4213 3.2.2): :math:`F_N = \sum_i w_i [y_i = 1][\hat y_i = 0]`."""
    return s.fn


def n(s: BinaryState):
    r"""Total (weighted) count :math:`n = T_P + F_P + T_N + F_N`."""
    return s.n


# ------------------------------------------------------------------------------------------------------------------
# Proportions (ISO 4213 3.2.6, 3.2.9–3.2.12, 6.3.3–6.3.4)
# ------------------------------------------------------------------------------------------------------------------

def prevalence(s: BinaryState):
    r"""Share of positives: :math:`(T_P + F_N) / n`."""
    return ratio(s.tp + s.fn, s.n, batch=s.batch, reason="no rows with nonzero weight")


def accuracy(s: BinaryState):
    r"""Accuracy (ISO 4213 3.2.6): :math:`a = (T_P + T_N) / (T_P + F_P + T_N + F_N)`."""
    return ratio(s.tp + s.tn, s.n, batch=s.batch, reason="no rows with nonzero weight")


def error_rate(s: BinaryState):
    r"""Error rate :math:`(F_P + F_N) / n = 1 - a` (Iocchi, reference 002, "sample error")."""
    return ratio(s.fp + s.fn, s.n, batch=s.batch, reason="no rows with nonzero weight")


def _no_pred_pos(s):
    return f"no predicted positives {s.labels_from}"


def _no_pred_neg(s):
    return f"no predicted negatives {s.labels_from}"


def precision(s: BinaryState):
    r"""Precision, positive predictive value (ISO 4213 3.2.9): :math:`p = T_P / (T_P + F_P)`."""
    return ratio(s.tp, s.tp + s.fp, batch=s.batch, reason=_no_pred_pos(s))


def recall(s: BinaryState):
    r"""Recall, sensitivity, true positive rate (ISO 4213 3.2.10): :math:`r = T_P / (T_P + F_N)`."""
    return ratio(s.tp, s.tp + s.fn, batch=s.batch, reason="y_true has no positives")


def specificity(s: BinaryState):
    r"""Specificity, true negative rate (ISO 4213 3.2.11): :math:`s = T_N / (T_N + F_P)`."""
    return ratio(s.tn, s.tn + s.fp, batch=s.batch, reason="y_true has no negatives")


def fpr(s: BinaryState):
    r"""False positive rate, fall-out (ISO 4213 3.2.12): :math:`F_P / (F_P + T_N)`."""
    return ratio(s.fp, s.fp + s.tn, batch=s.batch, reason="y_true has no negatives")


def fnr(s: BinaryState):
    r"""False negative rate, miss rate: :math:`F_N / (F_N + T_P) = 1 - r`."""
    return ratio(s.fn, s.fn + s.tp, batch=s.batch, reason="y_true has no positives")


def npv(s: BinaryState):
    r"""Negative predictive value, Qahtan's :math:`P(-ve)` (reference 001): :math:`T_N / (T_N + F_N)`."""
    return ratio(s.tn, s.tn + s.fn, batch=s.batch, reason=_no_pred_neg(s))


def fdr(s: BinaryState):
    r"""False discovery rate (ISO 4213 clause 4, FDR): :math:`F_P / (F_P + T_P) = 1 - p`."""
    return ratio(s.fp, s.fp + s.tp, batch=s.batch, reason=_no_pred_pos(s))


def false_omission_rate(s: BinaryState):
    r"""False omission rate: :math:`F_N / (F_N + T_N) = 1 - \mathrm{NPV}`."""
    return ratio(s.fn, s.fn + s.tn, batch=s.batch, reason=_no_pred_neg(s))


# ------------------------------------------------------------------------------------------------------------------
# Composite label metrics
# ------------------------------------------------------------------------------------------------------------------

def f1(s: BinaryState):
    r"""F1 score (ISO 4213 3.2.8, 6.2.5): :math:`F_1 = 2T_P / (2T_P + F_P + F_N)`.

    Defined (= 0) when there is no predicted positive but there are positives; NaN only when
    :math:`T_P + F_P + F_N = 0` (no positive in the truth nor in the predictions).
    """
    return ratio(2 * s.tp, 2 * s.tp + s.fp + s.fn, batch=s.batch,
                 reason=f"no positives in y_true and no predicted positives {s.labels_from}")


def fbeta(s: BinaryState):
    r"""F-beta score (ISO 4213 6.2.6; Qahtan, reference 001, F-Score):

    .. math:: F_\beta = \frac{(1 + \beta^2) T_P}{(1 + \beta^2) T_P + \beta^2 F_N + F_P}

    :math:`\beta > 1` weighs recall more than precision. NaN when :math:`T_P + F_P + F_N = 0`.
    """
    b2 = s.beta ** 2
    return ratio((1 + b2) * s.tp, (1 + b2) * s.tp + b2 * s.fn + s.fp, batch=s.batch,
                 reason=f"no positives in y_true and no predicted positives {s.labels_from}")


def balanced_accuracy(s: BinaryState):
    r"""Balanced accuracy (Qahtan, reference 001): :math:`BA = (r + s) / 2`, the mean of recall and specificity."""
    r = ratio(s.tp, s.tp + s.fn, batch=True, reason="")
    sp = ratio(s.tn, s.tn + s.fp, batch=True, reason="")
    out = (np.asarray(r) + np.asarray(sp)) / 2
    if not s.batch and np.isnan(out):
        note_undefined(False, "y_true has only one class (recall or specificity undefined)")
    return out if np.ndim(out) else float(out)


def mcc(s: BinaryState):
    r"""Matthews correlation coefficient (the phi coefficient of the 2×2 table):

    .. math:: \mathrm{MCC} = \frac{T_P T_N - F_P F_N}{\sqrt{(T_P + F_P)(T_P + F_N)(T_N + F_P)(T_N + F_N)}}

    NaN when a row or column of the confusion matrix is empty (scikit-learn returns 0 there).
    """
    den = np.sqrt((s.tp + s.fp) * (s.tp + s.fn) * (s.tn + s.fp) * (s.tn + s.fn))
    return ratio(s.tp * s.tn - s.fp * s.fn, den, batch=s.batch,
                 reason=f"a row or column of the confusion matrix is empty (one class only in y_true or in the "
                        f"predictions {s.labels_from})")


def cohen_kappa(s: BinaryState):
    r"""Cohen's kappa: agreement beyond chance between truth and prediction.

    .. math::

        \kappa = \frac{p_o - p_e}{1 - p_e},\quad p_o = \frac{T_P + T_N}{n},\quad
        p_e = \frac{(T_P + F_P)(T_P + F_N) + (T_N + F_N)(T_N + F_P)}{n^2}

    NaN when :math:`p_e = 1` (truth and prediction both constant and equal).
    """
    nn = s.n
    po = (s.tp + s.tn) * nn
    pe = (s.tp + s.fp) * (s.tp + s.fn) + (s.tn + s.fn) * (s.tn + s.fp)
    return ratio(po - pe, nn * nn - pe, batch=s.batch,
                 reason="chance agreement is 1 (y_true and the predictions are the same single class)")


def informedness(s: BinaryState):
    r"""Informedness, Youden's J: :math:`J = r + s - 1 = \mathrm{TPR} - \mathrm{FPR}`."""
    r = ratio(s.tp, s.tp + s.fn, batch=True, reason="")
    sp = ratio(s.tn, s.tn + s.fp, batch=True, reason="")
    out = np.asarray(r) + np.asarray(sp) - 1
    if not s.batch and np.isnan(out):
        note_undefined(False, "y_true has only one class (recall or specificity undefined)")
    return out if np.ndim(out) else float(out)


def markedness(s: BinaryState):
    r"""Markedness: :math:`\mathrm{MK} = p + \mathrm{NPV} - 1`."""
    p = ratio(s.tp, s.tp + s.fp, batch=True, reason="")
    v = ratio(s.tn, s.tn + s.fn, batch=True, reason="")
    out = np.asarray(p) + np.asarray(v) - 1
    if not s.batch and np.isnan(out):
        note_undefined(False, f"the predictions {s.labels_from} have only one class (precision or NPV undefined)")
    return out if np.ndim(out) else float(out)


def lr_plus(s: BinaryState):
    r"""Positive likelihood ratio :math:`\mathrm{LR}^+ = \mathrm{TPR} / \mathrm{FPR}`.

    NaN when FPR = 0 (no false positive: the ratio is infinite or 0/0) or a class is missing from ``y_true``;
    equals ``sklearn.metrics.class_likelihood_ratios`` with ``replace_undefined_by=nan``.
    """
    tpr = ratio(s.tp, s.tp + s.fn, batch=True, reason="")
    fpr_ = ratio(s.fp, s.fp + s.tn, batch=True, reason="")
    out = ratio(tpr, fpr_, batch=True, reason="")
    if not s.batch and np.isnan(out):
        if np.isnan(tpr) or np.isnan(fpr_):
            note_undefined(False, "y_true has only one class")
        else:
            note_undefined(False, f"FPR is 0 (no false positives {s.labels_from}): LR+ is infinite or 0/0")
    return out


def lr_minus(s: BinaryState):
    r"""Negative likelihood ratio :math:`\mathrm{LR}^- = \mathrm{FNR} / \mathrm{TNR}`.

    NaN when specificity (TNR) = 0 or a class is missing from ``y_true``; equals scikit-learn's
    ``class_likelihood_ratios`` with ``replace_undefined_by=nan``.
    """
    fnr_ = ratio(s.fn, s.tp + s.fn, batch=True, reason="")
    tnr = ratio(s.tn, s.fp + s.tn, batch=True, reason="")
    out = ratio(fnr_, tnr, batch=True, reason="")
    if not s.batch and np.isnan(out):
        if np.isnan(fnr_) or np.isnan(tnr):
            note_undefined(False, "y_true has only one class")
        else:
            note_undefined(False, f"specificity is 0 (no true negatives {s.labels_from}): LR- is infinite or 0/0")
    return out


def diagnostic_odds_ratio(s: BinaryState):
    r"""Diagnostic odds ratio :math:`\mathrm{DOR} = \frac{T_P\,T_N}{F_P\,F_N} = \mathrm{LR}^+ / \mathrm{LR}^-`.

    NaN when :math:`F_P F_N = 0` (the odds ratio is infinite or 0/0). No continuity correction is applied (the
    Haldane–Anscombe +½ is a common choice when one is wanted; it changes the estimand, so it is not silent here).
    """
    return ratio(s.tp * s.tn, s.fp * s.fn, batch=s.batch,
                 reason=f"a zero cell: FP = {_cell_count(s.fp)}, FN = {_cell_count(s.fn)} {s.labels_from}, so the odds ratio is "
                        f"infinite or 0/0")


def _cell_count(x) -> str:
    """A confusion-matrix cell in a reason, as every count is written; "…" for a batch of resamples (one reason for
    all of them)."""
    try:
        return count(x)
    except TypeError:
        return "…"


# ------------------------------------------------------------------------------------------------------------------
# Distribution difference (ISO 4213 6.2.7, 6.3.5)
# ------------------------------------------------------------------------------------------------------------------

def kl_divergence(s: BinaryState):
    r"""Kullback–Leibler divergence of the predicted from the true class distribution (ISO 4213 6.2.7, 6.3.5).

    .. math::

        D_{KL}(P \,\|\, Q) = \sum_{c \in \{+,-\}} P(c) \ln \frac{P(c)}{Q(c)},\quad
        P(+) = \frac{T_P + F_N}{n},\; Q(+) = \frac{T_P + F_P}{n}

    :math:`P` is the distribution of the true labels and :math:`Q` that of the predicted labels (counted, with
    weights); natural logarithm, so the unit is nats. A class with :math:`P(c) = 0` contributes 0. When a class
    occurs in ``y_true`` but is never predicted (:math:`Q(c) = 0 < P(c)`) the divergence is infinite: NaN with
    that reason, no smoothing.
    """
    nn = s.n
    p = np.stack([np.asarray(s.tp + s.fn, dtype=float), np.asarray(s.tn + s.fp, dtype=float)], axis=-1)
    q = np.stack([np.asarray(s.tp + s.fp, dtype=float), np.asarray(s.tn + s.fn, dtype=float)], axis=-1)
    nn = np.asarray(nn, dtype=float)[..., None]
    return kl_from_counts(p, q, nn, nn, batch=s.batch, names=("positive", "negative"),
                          labels_from=s.labels_from)


def kl_from_counts(p_counts, q_counts, p_total, q_total, *, batch: bool, names, labels_from: str):
    """KL divergence D(P || Q) in nats between two count vectors along the last axis (see kl_divergence).

    ``p_total``/``q_total`` have a trailing axis of length 1 (they broadcast against the counts).
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        p = p_counts / p_total
        q = q_counts / q_total
        terms = np.where(p > 0, p * (np.log(np.where(p > 0, p, 1.0)) - np.log(np.where(q > 0, q, 1.0))), 0.0)
    infinite = ((p > 0) & (q <= 0)).any(axis=-1)
    empty = np.asarray(p_total)[..., 0] <= 0
    out = np.where(infinite | empty, np.nan, terms.sum(axis=-1))
    if not batch and (np.any(infinite) or np.any(empty)):
        if np.any(empty):
            note_undefined(False, "no rows with nonzero weight")
        else:
            missing = [names[i] for i in np.flatnonzero((np.ravel(p) > 0) & (np.ravel(q) <= 0))]
            note_undefined(False, f"class {', '.join(map(repr, missing))} occurs in y_true but is never predicted "
                                  f"{labels_from}: D(P_true || P_pred) is infinite")
    return out if out.ndim else float(out)


# ------------------------------------------------------------------------------------------------------------------
# Ranking metrics (ISO 4213 6.3.6, 6.3.7): the point value from assess.curves; resamples from the ``resampled_*``
# formulas below, which the registry attaches to each entry (MetricSpec.resampled)
# ------------------------------------------------------------------------------------------------------------------

def _batch_precision(tps, fps):
    """Precision per threshold, 1 before any row is predicted positive (the curve's start point).

    A score group that drew no row in a resample repeats the cumulative counts of the group before it, so its
    precision is that of the previous point: the resampled curve, without a forward fill.
    """
    pp = tps + fps
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(pp > 0, tps / np.where(pp > 0, pp, 1.0), 1.0)


def batch_average_precision(tps: np.ndarray, fps: np.ndarray) -> np.ndarray:
    """Average precision with leading axes; the same sum as :func:`assess.curves.average_precision`."""
    npos = tps[..., -1]
    prec = _batch_precision(tps, fps)
    with np.errstate(divide="ignore", invalid="ignore"):
        drec = np.diff(tps, axis=-1, prepend=0.0) / npos[..., None]
        out = np.einsum("...d,...d->...", drec, prec)
    return np.where(npos > 0, np.maximum(out, 0.0), np.nan)


def _needs_scores(s: BinaryState, what: str) -> bool:
    if s.has_scores:
        return True
    note_undefined(s.batch, f"{what} needs scores and none were given")
    return False


def roc_auc(s: BinaryState):
    r"""Area under the ROC curve (ISO 4213 6.3.6): :func:`assess.curves.roc_auc` of the one sort.

    .. math:: \mathrm{AUC} = P(S^+ > S^-) + \tfrac12 P(S^+ = S^-)
    """
    if not _needs_scores(s, "ROC AUC"):
        return float("nan")
    return curves.roc_auc(s.counts)


def average_precision(s: BinaryState):
    r"""Average precision (ISO 4213 6.3.7): :math:`\sum_k (R_k - R_{k-1}) P_k`, as scikit-learn's."""
    if not _needs_scores(s, "Average precision"):
        return float("nan")
    return curves.average_precision(s.counts)


def pr_auc(s: BinaryState):
    r"""Trapezoidal area under the precision–recall curve (ISO 4213 6.3.7; see :func:`assess.curves.pr_auc`)."""
    if not _needs_scores(s, "PR AUC"):
        return float("nan")
    return curves.pr_auc(s.counts)


def ks_statistic(s: BinaryState):
    r"""Kolmogorov–Smirnov statistic :math:`\max_k |\mathrm{TPR}_k - \mathrm{FPR}_k|`
    (:func:`assess.curves.ks_statistic`)."""
    if not _needs_scores(s, "KS statistic"):
        return float("nan")
    return curves.ks_statistic(s.counts)


def log_loss(s: BinaryState):
    r"""Log loss, cross-entropy of the scores read as probabilities of the positive class:

    .. math:: L = -\frac{1}{\sum_i w_i}\sum_i w_i \left[y_i \ln p_i + (1 - y_i) \ln(1 - p_i)\right]

    :math:`p_i` clipped to :math:`[\epsilon, 1 - \epsilon]` (float64 epsilon) as in ``sklearn.metrics.log_loss``.
    NaN when the scores are not in [0, 1].
    """
    if not _needs_scores(s, "Log loss"):
        return float("nan")
    if s.proba_reason:
        note_undefined(s.batch, s.proba_reason)
        return float("nan")
    return ratio(s.log_loss_sum, s.weight_sum, batch=s.batch, reason="no rows with nonzero weight")


def brier_score(s: BinaryState):
    r"""Brier score of the positive-class probability (``sklearn.metrics.brier_score_loss``, binary):

    .. math:: B = \frac{1}{\sum_i w_i}\sum_i w_i (p_i - y_i)^2 \in [0, 1]

    NaN when the scores are not in [0, 1].
    """
    if not _needs_scores(s, "Brier score"):
        return float("nan")
    if s.proba_reason:
        note_undefined(s.batch, s.proba_reason)
        return float("nan")
    return ratio(s.brier_sum, s.weight_sum, batch=s.batch, reason="no rows with nonzero weight")


# ------------------------------------------------------------------------------------------------------------------
# Score metrics of a chunk of resamples, from the one sort (see assess.metrics.resampling.ResampledRanks): the same
# definitions as the point values, written over the positive units' resampled weights w_u and cumulative counts
# ------------------------------------------------------------------------------------------------------------------

def resampled_roc_auc(r):
    r""":math:`\mathrm{AUC}^* = 1 - \frac{1}{P^* N^*}\sum_u w_u\,\tfrac12(F_{\text{before},u} + F_{\text{end},u})`
    (negatives scoring above each positive, ties one half); NaN without both classes."""
    return np.where(r.both, 1.0 - r.negatives_above() / (r.P * r.N), np.nan)


def _resampled_precision_end(r):
    def make():
        predicted = r.tp_end + r.fp_end
        return r.tp_end / np.where(predicted > 0, predicted, 1.0)
    return r.cached("precision_end", make)


def resampled_average_precision(r):
    r""":math:`\mathrm{AP}^* = \frac{1}{P^*}\sum_u w_u\,\mathrm{prec}_u`, :math:`\mathrm{prec}_u =
    T_{\text{end},u} / (T_{\text{end},u} + F_{\text{end},u})`; NaN without positives."""
    return np.where(r.P > 0, np.einsum("ij,ij->i", r.pos_weight, _resampled_precision_end(r)) / r.P, np.nan)


def resampled_pr_auc(r):
    r""":math:`\frac{1}{P^*}\sum_u w_u\,\tfrac12(\mathrm{prec}_u + \mathrm{prec}_{\text{before},u})` with precision 1
    before any row is predicted positive; NaN without positives."""
    predicted = r.tp_before + r.fp_before
    before = np.where(predicted > 0, r.tp_before / np.where(predicted > 0, predicted, 1.0), 1.0)
    return np.where(r.P > 0, np.einsum("ij,ij->i", r.pos_weight, _resampled_precision_end(r) + before) / (2 * r.P),
                    np.nan)


def resampled_ks_statistic(r):
    r""":math:`\max(0, \max_u (T_u/P^* - F_u/N^*), \max_v (F_v/N^* - T_v/P^*))` over the resampled cumulative
    counts at the group ends u, v where each gap can peak (``r.ks_up``, ``r.ks_down``; a (b, ·) gather of the
    running counts each); NaN without both classes."""
    inv_p, inv_n = (1.0 / r.P)[:, None], (1.0 / r.N)[:, None]
    tps, fps = r.ks_up
    up = tps * inv_p
    up -= fps * inv_n
    tps, fps = r.ks_down
    down = fps * inv_n
    down -= tps * inv_p
    return np.where(r.both, np.maximum(up.max(axis=1, initial=0.0), down.max(axis=1, initial=0.0)), np.nan)


def resampled_log_loss(r):
    """Resampled sum of per-row log loss over the resampled total weight; NaN when scores are not probabilities."""
    sums = r.loss_sums
    return np.full(r.b, np.nan) if sums is None else sums[:, 0] / (r.P + r.N)


def resampled_brier_score(r):
    """Resampled sum of squared errors over the resampled total weight; NaN when scores are not probabilities."""
    sums = r.loss_sums
    return np.full(r.b, np.nan) if sums is None else sums[:, 1] / (r.P + r.N)
