r"""Multi-class classification metrics over one (weighted) confusion matrix (ISO/IEC TS 4213 6.2, 6.4).

Conventions
-----------
Classes are integer codes 0..k-1 in the order of ``Predictions.classes``; scores are an (n, k) array in that order.
Without ``y_pred`` the predicted class is the arg-max of the scores (ties: the first class in order). The confusion
matrix :math:`C` has the true class in rows and the predicted class in columns (lecture notes, reference 004,
Figure 6), :math:`C_{ab} = \sum_i w_i [y_i = a][\hat y_i = b]`, built with one ``np.bincount``. Every label metric is
a formula over :math:`C` and accepts a ``(..., k, k)`` array with leading resample axes.

Per class :math:`c`: :math:`T_{P,c} = C_{cc}`, :math:`F_{P,c} = \sum_a C_{ac} - C_{cc}`,
:math:`F_{N,c} = \sum_b C_{cb} - C_{cc}`, support :math:`t_c = \sum_b C_{cb}`, predicted :math:`p_c = \sum_a C_{ac}`.

Averages (ISO 4213 6.4.3; reference 004 eq. 11–16): *macro* is the unweighted mean over classes, *weighted* the
mean weighted by support, *micro* pools the counts (for single-label data micro precision = micro recall = micro F1
= accuracy). A class whose value is undefined (e.g. precision of a class never predicted) is left out of the macro and
weighted averages, with a note — scikit-learn's ``zero_division=np.nan`` rule — never counted as 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from assess import curves
from assess.inputs.columns import quote
from assess.inputs.probabilities import outside_unit_interval, rows_not_summing_to_one
from assess.metrics import binary
from assess.metrics._common import note, note_undefined, ratio

__all__ = ["MulticlassState", "multiclass_state", "confusion_matrix", "top_k_hits", "per_row_losses"]

E_INV = float(np.exp(-1.0))
#: How far a row of class scores may sum from 1 before the metrics note it: scikit-learn's ``log_loss`` check
#: (``np.isclose(sums, 1, rtol=sqrt(eps))``), as the out-of-core engine's.
ROW_SUM_TOLERANCE = float(np.sqrt(np.finfo(np.float64).eps))


def confusion_matrix(y_true, y_pred, k: int, weight: np.ndarray | None = None) -> np.ndarray:
    r"""(k, k) confusion matrix :math:`C_{ab} = \sum_i w_i [y_i = a][\hat y_i = b]`: rows the true class, columns the
    predicted class (ISO 4213 6.2.2), float, by one ``np.bincount``; ``weight`` None counts every row once.

    The one confusion matrix of the package: every page, chart, report and metric builds it here.

    Codes outside the classes: every ``y_true`` and ``y_pred`` code must be one of the class codes 0..k-1, else
    ``ValueError`` naming how many codes are outside, the first row (numbered from 1) and its code. A code outside the
    classes is a missing label (-1) or a label the encoding does not know; dropping it would give counts that no
    longer add up to the rows assessed, and counting it would put it in another class's cell — both a wrong number
    shown as right. In an assessment a wrong count is worse than an error, so the caller must decide first (remove
    the rows, or add the class) and say so.

    >>> confusion_matrix([0, 0, 1, 2], [0, 1, 1, 0], 3).tolist()
    [[1.0, 1.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
    """
    y = np.asarray(y_true, dtype=np.intp)
    yp = np.asarray(y_pred, dtype=np.intp)
    for name, codes in (("y_true", y), ("y_pred", yp)):
        outside = (codes < 0) | (codes >= k)
        if outside.any():
            i = int(np.flatnonzero(outside)[0])
            n = int(outside.sum())
            raise ValueError(f"`{name}` has {n:,} code{'' if n == 1 else 's'} outside the {k} classes (0 to {k - 1}; "
                             f"first at row {i + 1}: {int(codes[i])}); remove those rows or add their class "
                             f"before counting a confusion matrix")
    cm = np.bincount(y * k + yp, weights=weight, minlength=k * k)
    return cm.astype(np.float64).reshape(k, k)


def top_k_hits(y_true: np.ndarray, scores: np.ndarray, k: int) -> np.ndarray:
    r"""Per row, whether the true class is among the ``k`` highest scores (bool, shape (n,)).

    Rank of the true class :math:`y` = number of classes scoring strictly higher plus the number of later classes
    (index :math:`> y`) scoring the same: the tie order of ``sklearn.metrics.top_k_accuracy_score`` (stable sort,
    reversed).
    """
    n, kk = scores.shape
    y = np.asarray(y_true, dtype=np.intp)
    st = scores[np.arange(n), y][:, None]
    later = np.arange(kk)[None, :] > y[:, None]
    rank = (scores > st).sum(axis=1) + ((scores == st) & later).sum(axis=1)
    return rank < k


def per_row_losses(y_true: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Per-row log loss :math:`-\ln p_{i,y_i}` (clipped to :math:`[\epsilon, 1-\epsilon]`, `binary.LOG_LOSS_EPS`) and
    Brier :math:`\sum_k (p_{ik} - [y_i = k])^2`."""
    n = scores.shape[0]
    y = np.asarray(y_true, dtype=np.intp)
    py = scores[np.arange(n), y]
    log_loss = -np.log(np.clip(py, binary.LOG_LOSS_EPS, 1 - binary.LOG_LOSS_EPS))
    brier = (scores ** 2).sum(axis=1) - 2 * py + 1.0
    return log_loss, brier


@dataclass(frozen=True, eq=False)
class MulticlassState:
    """Shared quantities of one multi-class assessment (or of a chunk of resamples, ``batch=True``).

    ``cm`` is the (..., k, k) confusion matrix; ``ovr`` a list with, per class, the cumulative ``(tps, fps)`` of the
    one-vs-rest problem (``ovr_counts`` the :class:`~assess.curves.ThresholdCounts` themselves for a point state);
    ``ovo`` the (..., k, k) matrix of pairwise AUCs :math:`A(a|b)` (NaN on the diagonal and where undefined); loss
    and hit sums are weighted sums over rows with denominator ``weight_sum``.
    """

    cm: np.ndarray
    classes: tuple[str, ...]
    beta: float = 1.0
    top_k: int = 2
    labels_from: str = "in y_pred"
    ovr: list | None = None
    ovr_counts: list | None = None
    ovo: np.ndarray | None = None
    log_loss_sum: object = None
    brier_sum: object = None
    topk_sum: object = None
    weight_sum: object = None
    proba_reason: str | None = None
    row_note: str | None = None
    batch: bool = False
    cm_sq: np.ndarray | None = None
    extra: dict = field(default_factory=dict)

    @property
    def k(self) -> int:
        return self.cm.shape[-1]

    @property
    def has_scores(self) -> bool:
        return self.log_loss_sum is not None

    @property
    def n(self):
        return self.cm.sum(axis=(-2, -1))

    @property
    def support(self):
        return self.cm.sum(axis=-1)

    @property
    def predicted(self):
        return self.cm.sum(axis=-2)

    @property
    def diag(self):
        return np.diagonal(self.cm, axis1=-2, axis2=-1)


def multiclass_state(y_true, y_pred, scores, weight, classes, *, labels_from="in y_pred", beta=1.0, top_k=2,
                     rankings=None, need_ovo=False) -> MulticlassState:
    """Build the point state once: the confusion matrix, one sort per class, pairwise AUCs, loss sums.

    ``y_pred`` holds the decided labels (:func:`assess.core.decision.predicted_labels`), ``labels_from`` their source.
    """
    k = len(classes)
    y = np.asarray(y_true, dtype=np.intp)
    yp = np.asarray(y_pred, dtype=np.intp)
    cm = confusion_matrix(y, yp, k, weight)
    cm_sq = cm if weight is None else confusion_matrix(y, yp, k, weight * weight)
    kw = {}
    if scores is not None:
        wsum = float(y.shape[0] if weight is None else weight.sum())
        ll, bs = per_row_losses(y, scores)
        hits = top_k_hits(y, scores, top_k).astype(np.float64)
        outside = outside_unit_interval(scores, [f"the score column of class {quote(c)}" for c in classes])
        reason = None if outside is None else f"{outside.message}: the scores are not probabilities"
        # scikit-learn's tolerance, not the validation's CSV-rounding one: the note says the value used the rows as
        # they are, which is true at any distance from 1 (the out-of-core engine counts the same rows)
        off = rows_not_summing_to_one(scores, "the score table", tolerance=ROW_SUM_TOLERANCE)
        row_note = None if off is None else f"{off.message}; the value uses them as given"
        dot = (lambda v: float(v.sum())) if weight is None else (lambda v: float(np.dot(weight, v)))
        if rankings is not None:
            counts = [curves.threshold_counts(y == c, scores[:, c], sample_weight=weight, ranking=rankings[c])
                      for c in range(k)]
        else:
            counts = curves.ovr_threshold_counts(y, scores, sample_weight=weight)
        ovo = None
        if need_ovo:
            ovo = ovo_matrix(y, scores, weight, rankings)
        w2 = np.ones(y.shape[0]) if weight is None else weight * weight
        kw = dict(ovr=[(c.tps, c.fps) for c in counts], ovr_counts=counts, ovo=ovo,
                  log_loss_sum=dot(ll), brier_sum=dot(bs), topk_sum=dot(hits), weight_sum=wsum,
                  proba_reason=reason, row_note=row_note,
                  extra={"topk_sq": float(np.dot(w2, hits)), "weight_sq": float(w2.sum())})
    return MulticlassState(cm=cm, classes=tuple(classes), beta=beta, top_k=top_k, labels_from=labels_from,
                           cm_sq=cm_sq, **kw)


def ovo_matrix(y, scores, weight, rankings) -> np.ndarray:
    r"""Pairwise AUCs :math:`A(a|b)`: AUC of score column a separating class a (positive) from class b, on the rows
    of classes a and b only (Hand & Till 2001), ties counted one half — the trapezoid of the (a, b) ROC curve:

    .. math:: A(a|b) = \frac{1}{W_a W_b} \sum_{j:\,y_j = b} w_j\, U_a(j),\qquad
              U_a(j) = \sum_{i:\,y_i = a} w_i \left([s_{ia} > s_{ja}] + \tfrac12 [s_{ia} = s_{ja}]\right)

    with :math:`W_c` the weight of class c. Per column a, from its one sort (``rankings[a]``, the score group of every
    row, 0 the highest; None: sorted here): one ``np.bincount`` gives class a's weight per group, its cumulative sum
    minus half the group gives :math:`U_a` of every group, and one more ``np.bincount`` of :math:`w_j U_a(j)` by true
    class gives the numerators for every b at once — k passes over the rows, no pair loop (1,500 classes in
    seconds). NaN on the diagonal and where class a or b has no weight.
    """
    k = scores.shape[1]
    y = np.asarray(y, dtype=np.intp)
    w = np.ones(y.shape[0]) if weight is None else np.asarray(weight, dtype=np.float64)
    class_weight = np.bincount(y, weights=w, minlength=k)
    out = np.full((k, k), np.nan)
    for a in range(k):
        if not class_weight[a] > 0:
            continue
        ranking = curves.rank_scores(scores[:, a]) if rankings is None else rankings[a]
        group = ranking.group
        mine = y == a
        pos = np.bincount(group[mine], weights=w[mine], minlength=ranking.thresholds.shape[0])
        above = np.cumsum(pos)
        above -= 0.5 * pos
        num = np.bincount(y, weights=w * above[group], minlength=k)
        with np.errstate(divide="ignore", invalid="ignore"):
            out[a] = np.where(class_weight > 0, num / (class_weight[a] * class_weight), np.nan)
    np.fill_diagonal(out, np.nan)
    return out


# ------------------------------------------------------------------------------------------------------------------
# Per-class quantities and averaging
# ------------------------------------------------------------------------------------------------------------------

def _per_class(s: MulticlassState):
    tp = s.diag
    fp = s.predicted - tp
    fn = s.support - tp
    tn = s.n[..., None] - tp - fp - fn
    return tp, fp, fn, tn


def _names(s: MulticlassState, mask) -> str:
    idx = np.flatnonzero(np.asarray(mask))
    shown = ", ".join(repr(s.classes[i]) for i in idx[:5])
    return shown + (f" and {idx.size - 5} more" if idx.size > 5 else "")


def _div(num, den):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den == 0, np.nan, num / np.where(den == 0, 1.0, den))


def per_class_precision(s):
    tp, fp, fn, tn = _per_class(s)
    return _div(tp, tp + fp)


def per_class_recall(s):
    tp, fp, fn, tn = _per_class(s)
    return _div(tp, tp + fn)


def per_class_fbeta(s, beta=None):
    b2 = (s.beta if beta is None else beta) ** 2
    tp, fp, fn, tn = _per_class(s)
    return _div((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp)


def per_class_specificity(s):
    tp, fp, fn, tn = _per_class(s)
    return _div(tn, tn + fp)


def _average(s: MulticlassState, values, how: str, what: str, why: str):
    """Macro or support-weighted average over the classes where ``values`` is defined (NaN left out, noted)."""
    defined = ~np.isnan(values)
    if how == "macro":
        w = defined.astype(np.float64)
    else:
        w = np.where(defined, s.support, 0.0)
    vals = np.where(defined, values, 0.0)
    den = w.sum(axis=-1)
    out = _div((w * vals).sum(axis=-1), den)
    if not s.batch:
        if np.all(np.isnan(out)):
            note_undefined(False, f"{what} is undefined for every class ({why})")
        elif not defined.all():
            note(False, f"{what} is undefined for class {_names(s, ~defined)} ({why}); the {how} average leaves "
                        f"{'it' if (~defined).sum() == 1 else 'them'} out")
    return out if np.ndim(out) else float(out)


def _micro(s: MulticlassState, what: str):
    return ratio(s.diag.sum(axis=-1), s.n, batch=s.batch, reason="no rows with nonzero weight")


# ------------------------------------------------------------------------------------------------------------------
# Metrics
# ------------------------------------------------------------------------------------------------------------------

def accuracy(s):
    r"""Overall accuracy (ISO 4213 6.4.2; reference 004 eq. 6): :math:`\mathrm{OA} = \sum_c C_{cc} / n`."""
    return ratio(s.diag.sum(axis=-1), s.n, batch=s.batch, reason="no rows with nonzero weight")


def error_rate(s):
    r"""Error rate :math:`1 - \mathrm{OA} = \sum_{a \ne b} C_{ab} / n`."""
    return ratio(s.n - s.diag.sum(axis=-1), s.n, batch=s.batch, reason="no rows with nonzero weight")


def balanced_accuracy(s):
    r"""Mean per-class accuracy (reference 004 eq. 7) = macro recall: :math:`\frac{1}{|K|}\sum_{c \in K} C_{cc}/t_c`
    over the classes :math:`K` present in ``y_true`` (as ``sklearn.metrics.balanced_accuracy_score``)."""
    return _average(s, per_class_recall(s), "macro", "recall", "no rows of that class in y_true")


def _no_pred(s):
    return f"never predicted {s.labels_from}"


def precision_macro(s):
    r"""Macro precision :math:`\frac{1}{|K|}\sum_c T_{P,c}/(T_{P,c} + F_{P,c})` (ISO 4213 6.4.3)."""
    return _average(s, per_class_precision(s), "macro", "precision", _no_pred(s))


def precision_weighted(s):
    r"""Support-weighted precision :math:`\sum_c t_c\,p_c / \sum_c t_c` (ISO 4213 6.4.3)."""
    return _average(s, per_class_precision(s), "weighted", "precision", _no_pred(s))


def precision_micro(s):
    r"""Micro precision :math:`\sum_c T_{P,c} / \sum_c (T_{P,c} + F_{P,c})` = accuracy for single-label data."""
    return _micro(s, "precision")


def recall_macro(s):
    r"""Macro recall :math:`\frac{1}{|K|}\sum_c T_{P,c}/t_c` = balanced accuracy."""
    return _average(s, per_class_recall(s), "macro", "recall", "no rows of that class in y_true")


def recall_weighted(s):
    r"""Support-weighted recall :math:`\sum_c t_c r_c / \sum_c t_c` (= accuracy when every class has support)."""
    return _average(s, per_class_recall(s), "weighted", "recall", "no rows of that class in y_true")


def recall_micro(s):
    r"""Micro recall :math:`\sum_c T_{P,c} / \sum_c t_c` = accuracy for single-label data."""
    return _micro(s, "recall")


def _f_average(s, how, beta=None):
    name = "F1" if beta == 1.0 else "F-beta"
    return _average(s, per_class_fbeta(s, beta), how, name, "class neither in y_true nor predicted")


def f1_macro(s):
    r"""Macro F1 (reference 004 eq. 15): mean over classes of :math:`2T_{P,c}/(2T_{P,c} + F_{P,c} + F_{N,c})`."""
    return _f_average(s, "macro", 1.0)


def f1_weighted(s):
    r"""Support-weighted F1 (reference 004 eq. 16)."""
    return _f_average(s, "weighted", 1.0)


def f1_micro(s):
    r"""Micro F1 (reference 004 eq. 14) = accuracy for single-label data."""
    return _micro(s, "F1")


def fbeta_macro(s):
    r"""Macro F-beta: mean over classes of :math:`(1+\beta^2)T_P/((1+\beta^2)T_P + \beta^2F_N + F_P)`."""
    return _f_average(s, "macro")


def fbeta_weighted(s):
    r"""Support-weighted F-beta."""
    return _f_average(s, "weighted")


def fbeta_micro(s):
    r"""Micro F-beta: pooled counts; = accuracy for single-label data (pooled F_P = pooled F_N)."""
    return _micro(s, "F-beta")


def cohen_kappa(s):
    r"""Cohen's kappa for k classes:

    .. math:: \kappa = \frac{p_o - p_e}{1 - p_e},\quad p_o = \frac{\sum_c C_{cc}}{n},\quad
              p_e = \frac{\sum_c t_c\,p_c}{n^2}

    NaN when :math:`p_e = 1`.
    """
    nn = s.n
    po = s.diag.sum(axis=-1) * nn
    pe = (s.support * s.predicted).sum(axis=-1)
    return ratio(po - pe, nn * nn - pe, batch=s.batch,
                 reason="chance agreement is 1 (y_true and the predictions are the same single class)")


def mcc(s):
    r"""Matthews correlation coefficient for k classes (Gorodkin's :math:`R_K`, as scikit-learn):

    .. math:: \mathrm{MCC} = \frac{n \sum_c C_{cc} - \sum_c t_c p_c}
              {\sqrt{\left(n^2 - \sum_c p_c^2\right)\left(n^2 - \sum_c t_c^2\right)}}

    NaN when the truth or the predictions hold a single class (scikit-learn returns 0 there).
    """
    nn = s.n
    t, p = s.support, s.predicted
    num = nn * s.diag.sum(axis=-1) - (t * p).sum(axis=-1)
    den = np.sqrt((nn * nn - (p * p).sum(axis=-1)) * (nn * nn - (t * t).sum(axis=-1)))
    return ratio(num, den, batch=s.batch,
                 reason=f"y_true or the predictions {s.labels_from} hold a single class")


def _needs_scores(s, what):
    if s.has_scores:
        return True
    note_undefined(s.batch, f"{what} needs scores and none were given")
    return False


def top_k_accuracy(s):
    r"""Top-k accuracy: share of rows whose true class is among the k highest scores,
    :math:`\frac{1}{\sum w}\sum_i w_i [\mathrm{rank}_i(y_i) < k]` (ties ordered as scikit-learn)."""
    if not _needs_scores(s, "Top-k accuracy"):
        return float("nan")
    if s.top_k >= s.k and not s.batch:
        note(False, f"k = {s.top_k} >= the number of classes ({s.k}): top-k accuracy is 1 by construction")
    return ratio(s.topk_sum, s.weight_sum, batch=s.batch, reason="no rows with nonzero weight")


def _prob_guard(s, what):
    if not _needs_scores(s, what):
        return False
    if s.proba_reason:
        note_undefined(s.batch, s.proba_reason)
        return False
    if s.row_note:
        note(s.batch, s.row_note)
    return True


def log_loss(s):
    r"""Multi-class log loss :math:`-\frac{1}{\sum w}\sum_i w_i \ln p_{i,y_i}`, probabilities clipped to
    :math:`[\epsilon, 1 - \epsilon]` as ``sklearn.metrics.log_loss`` (which does not renormalise rows either)."""
    if not _prob_guard(s, "Log loss"):
        return float("nan")
    return ratio(s.log_loss_sum, s.weight_sum, batch=s.batch, reason="no rows with nonzero weight")


def brier_score(s):
    r"""Multi-class Brier score, the mean over rows of the squared distance to the one-hot truth, *not* divided by k:

    .. math:: B = \frac{1}{\sum w}\sum_i w_i \sum_{c=1}^{k} (p_{ic} - [y_i = c])^2 \in [0, 2]

    (Brier 1950; ``sklearn.metrics.brier_score_loss`` for multi-class input). The binary key ``brier_score`` uses the
    one-column form, which is half of this.
    """
    if not _prob_guard(s, "Brier score"):
        return float("nan")
    return ratio(s.brier_sum, s.weight_sum, batch=s.batch, reason="no rows with nonzero weight")


def per_class_roc_auc(s):
    """One-vs-rest ROC AUC per class, shape (..., k); NaN for a class with no rows or with every row."""
    if s.batch:
        return np.stack([curves.trapezoid_auc(tps, fps) for tps, fps in s.ovr], axis=-1)
    out = np.full(s.k, np.nan)
    for c, (tps, fps) in enumerate(s.ovr):
        if tps.size and tps[-1] > 0 and fps[-1] > 0:
            out[c] = curves.trapezoid_auc(tps, fps)
    return out


def per_class_average_precision(s):
    """One-vs-rest average precision per class, shape (..., k)."""
    if s.batch:
        return np.stack([binary.batch_average_precision(tps, fps) for tps, fps in s.ovr], axis=-1)
    out = np.full(s.k, np.nan)
    for c, (tps, fps) in enumerate(s.ovr):
        if tps.size and tps[-1] > 0:
            out[c] = binary.batch_average_precision(tps, fps)
    return out


def roc_auc_ovr(s):
    r"""One-vs-rest ROC AUC, macro average (ISO 4213 6.4; reference 004 §4.3.1): :math:`\frac{1}{k}\sum_c
    \mathrm{AUC}(c\ \text{vs rest})`; classes with no rows (or only that class) are left out, with a note."""
    if not _needs_scores(s, "ROC AUC (one-vs-rest)"):
        return float("nan")
    return _average(s, per_class_roc_auc(s), "macro", "one-vs-rest ROC AUC", "the class has no rows, or every row")


def roc_auc_ovr_weighted(s):
    r"""One-vs-rest ROC AUC averaged with support weights :math:`\sum_c t_c \mathrm{AUC}_c / \sum_c t_c`."""
    if not _needs_scores(s, "ROC AUC (one-vs-rest)"):
        return float("nan")
    return _average(s, per_class_roc_auc(s), "weighted", "one-vs-rest ROC AUC",
                    "the class has no rows, or every row")


def roc_auc_ovo(s):
    r"""One-vs-one ROC AUC of Hand & Till (2001), as ``roc_auc_score(multi_class='ovo')``:

    .. math:: M = \frac{2}{k(k-1)} \sum_{a < b} \frac{A(a|b) + A(b|a)}{2}

    where :math:`A(a|b)` is the AUC of score column a for class a against class b on the rows of those two classes.
    Sample weights are applied inside each pairwise AUC (scikit-learn refuses weights here). Pairs with a missing
    class are left out, with a note.
    """
    if not _needs_scores(s, "ROC AUC (one-vs-one)"):
        return float("nan")
    a = s.ovo
    pair = (a + np.swapaxes(a, -1, -2)) / 2
    iu = np.triu_indices(s.k, 1)
    vals = pair[..., iu[0], iu[1]]
    defined = ~np.isnan(vals)
    cnt = defined.sum(axis=-1)
    with np.errstate(invalid="ignore"):
        out = np.where(cnt > 0, np.where(defined, vals, 0).sum(axis=-1) / np.maximum(cnt, 1), np.nan)
    if not s.batch:
        if cnt == 0:
            note_undefined(False, "no pair of classes both present in y_true")
        elif not defined.all():
            note(False, f"{int((~defined).sum())} class pairs are left out of the one-vs-one average "
                        f"(a class of the pair has no rows)")
        return float(out)
    return out


# ------------------------------------------------------------------------------------------------------------------
# Distribution difference (ISO 4213 6.4.4, Annex D)
# ------------------------------------------------------------------------------------------------------------------

def _dists(s):
    nn = s.n[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        return s.support / nn, s.predicted / nn


def kl_divergence(s):
    r"""KL divergence of the predicted from the true class distribution (ISO 4213 6.2.7, 6.4.4), in nats:

    .. math:: D_{KL}(P \,\|\, Q) = \sum_c P(c) \ln \frac{P(c)}{Q(c)},\quad P(c) = \frac{t_c}{n},\;
              Q(c) = \frac{p_c}{n}

    :math:`P` counts the true labels and :math:`Q` the predicted labels. Classes with :math:`P(c) = 0` add 0; a class
    present in ``y_true`` but never predicted makes it infinite: NaN with that reason, no smoothing.
    """
    nn = s.n[..., None]
    return binary.kl_from_counts(s.support, s.predicted, nn, nn, batch=s.batch, names=s.classes,
                             labels_from=s.labels_from)


def js_distance(s):
    r"""Jensen–Shannon distance between the true and predicted class distributions (ISO 4213 6.4.4):

    .. math:: \mathrm{JS}(P, Q) = \sqrt{\tfrac12 D_{KL}(P\|M) + \tfrac12 D_{KL}(Q\|M)},\quad M = \tfrac12(P + Q)

    natural logarithm, so it lies in :math:`[0, \sqrt{\ln 2}]`; equal to ``scipy.spatial.distance.jensenshannon(P, Q)``.
    Always finite.
    """
    p, q = _dists(s)
    m = (p + q) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        tp_ = np.where(p > 0, p * np.log(np.where(p > 0, p, 1) / np.where(m > 0, m, 1)), 0.0)
        tq_ = np.where(q > 0, q * np.log(np.where(q > 0, q, 1) / np.where(m > 0, m, 1)), 0.0)
    js = np.maximum((tp_.sum(axis=-1) + tq_.sum(axis=-1)) / 2, 0.0)
    out = np.where(s.n > 0, np.sqrt(js), np.nan)
    return out if np.ndim(out) else float(out)


def total_variation(s):
    r"""Total variation distance :math:`\tfrac12 \sum_c |P(c) - Q(c)|` between the true and predicted class
    distributions (ISO 4213 6.4.4), in [0, 1]."""
    p, q = _dists(s)
    out = np.abs(p - q).sum(axis=-1) / 2
    return out if np.ndim(out) else float(out)


def csmf_accuracy(s):
    r"""Cause-specific mortality fraction accuracy (ISO 4213 Annex D; Murray et al. 2011):

    .. math:: \mathrm{CSMF_{acc}} = 1 - \frac{\sum_c |P(c) - Q(c)|}{2\,(1 - \min_c P(c))}

    with :math:`P` the true and :math:`Q` the predicted class fractions; in [0, 1]. The minimum runs over all k
    declared classes (a declared class absent from ``y_true`` makes it 0). NaN when there is only one class.
    """
    p, q = _dists(s)
    return ratio(np.abs(p - q).sum(axis=-1), 2 * (1 - p.min(axis=-1)), batch=s.batch,
                 reason="only one class: min_j P(j) = 1") * -1 + 1


def cccsmf_accuracy(s):
    r"""Chance-corrected CSMF accuracy (ISO 4213 Annex D; Flaxman et al. 2015):

    .. math:: \mathrm{CCCSMF_{acc}} = \frac{\mathrm{CSMF_{acc}} - (1 - e^{-1})}{e^{-1}}

    :math:`1 - e^{-1} \approx 0.632` is the expected CSMF accuracy of random allocation, so 0 means chance level and
    1 perfect; negative values are worse than chance.
    """
    c = csmf_accuracy(s)
    return (c - (1 - E_INV)) / E_INV
