r"""Vectorised bootstrap statistics: turn a chunk of resample counts into a batch state and evaluate metrics on it.

For every task the metrics are functions of weighted sums (cells, per-row losses, per-score-group class counts),
so a resample with row counts :math:`c_{ji}` only changes the weights to :math:`c_{ji} w_i`; a chunk of b resamples
is a handful of ``np.bincount`` calls or matrix products, and the same metric functions as the point estimate run on
arrays with a leading resample axis. Nothing here loops over rows, and nothing sorts: score-ranking metrics reuse
the one sort of :func:`assess.curves.threshold_counts` (cumulative counts per distinct score) or of
:func:`assess.curves.rank_scores` (the score group of every row).

Binary, no weights: rows of the same class with the same score are interchangeable, so the positives can be laid
out in decreasing score order as :math:`T_P^{\max}` *virtual* rows (and the negatives likewise) straight from the
counts of the one sort; a resample's cumulative counts per distinct score are then a cumulative sum of its counts
read at the group boundaries, and ROC AUC is one gather and one dot product per resample:

.. math:: \mathrm{AUC}^* = \frac{1}{P^* N^*}\sum_{i \in \text{pos}} c_i \left(N^* - \tfrac12\left(C^-_{lo(i)} +
          C^-_{hi(i)}\right)\right)

where :math:`C^-` is the running count of resampled negatives in decreasing score order and :math:`lo(i), hi(i)`
the numbers of negatives scoring strictly above / at least as high as positive i.
"""

from __future__ import annotations

import warnings

import numpy as np

from assess import curves
from assess.metrics import binary, multiclass, multilabel


def _quiet(fn):
    def run(*a, **k):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                return fn(*a, **k)
    return run


def _stack(values, b):
    cols = []
    for v in values:
        a = np.asarray(v, dtype=np.float64)
        cols.append(np.broadcast_to(a, (b,)) if a.ndim == 0 else a)
    return np.column_stack(cols) if cols else np.empty((b, 0))


def _bincount_rows(codes: np.ndarray, weights: np.ndarray, m: int) -> np.ndarray:
    """For a (b, R) weight matrix and R codes in [0, m): the (b, m) per-code sums of each row (one bincount)."""
    b = weights.shape[0]
    offs = codes[None, :] + (np.arange(b) * m)[:, None]
    return np.bincount(offs.ravel(), weights=weights.ravel(), minlength=b * m).reshape(b, m)


# ------------------------------------------------------------------------------------------------------------------
# Binary
# ------------------------------------------------------------------------------------------------------------------

def binary_cells_statistic(state: binary.BinaryState, specs, y, yp, weight):
    """Statistic and resampling layout for the binary label metrics (functions of the four cells).

    Without weights the rows collapse into the 4 cells (frequencies tp, fn, fp, tn; strata positive/negative),
    so a resample is one multinomial draw per class: exact and independent of n. With weights: the rows themselves.
    """
    def make(tp, fp, tn, fn):
        return binary.BinaryState(tp=tp, fp=fp, tn=tn, fn=fn, threshold=state.threshold, beta=state.beta,
                             labels_from=state.labels_from, batch=True)

    if weight is None:
        freq = np.array([state.tp, state.fn, state.fp, state.tn]).round().astype(np.int64)

        @_quiet
        def stat(c):
            c = c.astype(np.float64)
            s = make(c[:, 0], c[:, 2], c[:, 3], c[:, 1])
            return _stack([sp.compute(s) for sp in specs], c.shape[0])
        return stat, dict(frequencies=freq, strata=np.array([1, 1, 0, 0]))

    code = 2 * y.astype(np.intp) + yp.astype(np.intp)          # 0 tn, 1 fp, 2 fn, 3 tp

    @_quiet
    def stat_w(c):
        cells = _bincount_rows(code, c * weight[None, :], 4)
        s = make(cells[:, 3], cells[:, 1], cells[:, 0], cells[:, 2])
        return _stack([sp.compute(s) for sp in specs], c.shape[0])
    return stat_w, dict(strata=y.astype(np.int8))


def _group_losses(thresholds: np.ndarray):
    eps = np.finfo(np.float64).eps
    t = np.clip(thresholds, eps, 1 - eps)
    return -np.log(t), -np.log1p(-t), (thresholds - 1.0) ** 2, thresholds ** 2


def _virtual_rows_statistic(counts: curves.ThresholdCounts, keys, probs_ok: bool):
    r"""Unweighted binary score metrics of resamples in O(n) each, from the counts of the one sort.

    Virtual positive i lies in score group g(i) (decreasing score); with :math:`C^+, C^-` the running resampled
    counts of positives / negatives in that order (:math:`C_0 = 0`) and the cumulative original counts
    :math:`T_g, F_g` of :class:`~assess.curves.ThresholdCounts`, the resampled cumulative counts at the end of group g
    are :math:`C^+_{T_g}` and :math:`C^-_{F_g}` (a group can be empty in a resample; cumulative counts then repeat,
    which is exactly the curve of the resample). Hence, with resample counts :math:`c_i`:

    .. math::

        \mathrm{AUC}^* &= 1 - \frac{1}{P^*N^*}\sum_i c_i\,\tfrac12\left(C^-_{F_{g(i)-1}} + C^-_{F_{g(i)}}\right)\\
        \mathrm{AP}^* &= \frac{1}{P^*}\sum_i c_i\,\mathrm{prec}_{g(i)},\quad
        \mathrm{prec}_g = \frac{C^+_{T_g}}{C^+_{T_g} + C^-_{F_g}}\\
        \mathrm{PR\,AUC}^* &= \frac{1}{P^*}\sum_i c_i\,\tfrac12\left(\mathrm{prec}_{g(i)} + \mathrm{prec}_{g(i)-1}\right)
        \quad (\mathrm{prec} = 1 \text{ before any row})\\
        \mathrm{KS}^* &= \max\Big(0, \max_i \big(\tfrac{C^+_{T_{g(i)}}}{P^*} - \tfrac{C^-_{F_{g(i)}}}{N^*}\big),
        \max_j \big(\tfrac{C^-_{F_{g(j)}}}{N^*} - \tfrac{C^+_{T_{g(j)}}}{P^*}\big)\Big)

    (TPR − FPR can only peak at the end of a group holding a positive, FPR − TPR at one holding a negative), and the
    log loss / Brier sums are dot products of the counts with the per-group losses. These are the definitions of
    :mod:`assess.curves` evaluated on the resample; the tests check them against scikit-learn with the counts as
    sample weights.
    """
    thr = counts.thresholds
    T = np.rint(counts.tps).astype(np.int64)
    F = np.rint(counts.fps).astype(np.int64)
    P, N = (int(T[-1]), int(F[-1])) if T.size else (0, 0)
    pos_per, neg_per = np.diff(T, prepend=0), np.diff(F, prepend=0)
    T_prev, F_prev = np.concatenate(([0], T[:-1])), np.concatenate(([0], F[:-1]))
    gp = np.repeat(np.arange(T.size), pos_per)          # group of each virtual positive
    gn = np.repeat(np.arange(T.size), neg_per)          # group of each virtual negative
    ties = bool(np.any((pos_per > 0) & (neg_per > 0)))
    want = set(keys)
    dt = np.int32 if (P + N) * 255 < 2**31 else np.int64
    if probs_ok and want & {"log_loss", "brier_score"}:
        lp, ln, bp, bn = _group_losses(thr)
        loss_p = np.column_stack([lp[gp], bp[gp]])
        loss_n = np.column_stack([ln[gn], bn[gn]])

    def cum(c):
        out = np.zeros((c.shape[0], c.shape[1] + 1), dtype=dt)
        np.add.accumulate(c, axis=1, dtype=dt, out=out[:, 1:])
        return out

    def dot(a, b):
        return np.einsum("ij,ij->i", a, b, dtype=np.int64).astype(np.float64)

    @_quiet
    def stat(c):
        cp, cn = c[:, :P], c[:, P:]
        Cn = cum(cn)
        Nstar = Cn[:, -1].astype(np.float64)
        need_cp = bool(want - {"roc_auc"})
        Cp = cum(cp) if need_cp else None
        Pstar = (Cp[:, -1] if need_cp else cp.sum(axis=1, dtype=np.int64)).astype(np.float64)
        both = (Pstar > 0) & (Nstar > 0)
        out = {}
        if "roc_auc" in want:
            pairs = dot(cp, np.take(Cn, F_prev[gp], axis=1))
            if ties:
                pairs = (pairs + dot(cp, np.take(Cn, F[gp], axis=1))) / 2.0
            out["roc_auc"] = np.where(both, 1.0 - pairs / (Pstar * Nstar), np.nan)
        if want & {"average_precision", "pr_auc", "ks_statistic"}:
            tp_end = np.take(Cp, T[gp], axis=1).astype(np.float64)
            fp_end = np.take(Cn, F[gp], axis=1).astype(np.float64)
            prec_end = tp_end / np.maximum(tp_end + fp_end, 1.0)        # > 0 wherever c_i > 0
            cpf = cp.astype(np.float64)
            if "average_precision" in want:
                out["average_precision"] = np.where(Pstar > 0, np.einsum("ij,ij->i", cpf, prec_end) / Pstar, np.nan)
            if "pr_auc" in want:
                tp0 = np.take(Cp, T_prev[gp], axis=1).astype(np.float64)
                pp0 = tp0 + np.take(Cn, F_prev[gp], axis=1)
                prec0 = np.where(pp0 > 0, tp0 / np.maximum(pp0, 1.0), 1.0)
                out["pr_auc"] = np.where(Pstar > 0, np.einsum("ij,ij->i", cpf, prec_end + prec0) / (2 * Pstar), np.nan)
            if "ks_statistic" in want:
                up = (tp_end / Pstar[:, None] - fp_end / Nstar[:, None]).max(axis=1, initial=0.0)
                fn_end = np.take(Cn, F[gn], axis=1) / Nstar[:, None]
                down = (fn_end - np.take(Cp, T[gn], axis=1) / Pstar[:, None]).max(axis=1, initial=0.0)
                out["ks_statistic"] = np.where(both, np.maximum(up, down), np.nan)
        if want & {"log_loss", "brier_score"}:
            if probs_ok:
                sums = cp.astype(np.float64) @ loss_p + cn.astype(np.float64) @ loss_n
                wsum = Pstar + Nstar
                out["log_loss"], out["brier_score"] = sums[:, 0] / wsum, sums[:, 1] / wsum
            else:
                out["log_loss"] = out["brier_score"] = np.full(c.shape[0], np.nan)
        return np.column_stack([out[k] for k in keys])
    return stat


def binary_score_statistic(state: binary.BinaryState, specs, y, scores, weight, ranking=None):
    """Statistic and layout for the binary score metrics (ROC AUC, AP, PR AUC, KS, log loss, Brier).

    Without weights: virtual rows in decreasing score order (see the module docstring); with weights: the real
    rows laid out positives first (each class in input order), each mapped to its score group by ``ranking`` (from
    :func:`assess.curves.rank_scores`).
    """
    counts = state.counts
    probs_ok = state.proba_reason is None

    if weight is None:
        stat = _virtual_rows_statistic(counts, [sp.key for sp in specs], probs_ok)
        P, N = int(round(counts.n_pos)), int(round(counts.n_neg))
        return stat, dict(strata=np.repeat(np.array([1, 0], np.int8), [P, N]))

    if ranking is None:
        ranking = curves.rank_scores(scores)
    D = ranking.thresholds.shape[0]
    # lay the rows out positives first (a partition by class, not a sort): each class is then a slice
    order = np.concatenate([np.flatnonzero(y), np.flatnonzero(~y)])
    P = int(np.count_nonzero(y))
    g_pos, g_neg = ranking.group[order[:P]], ranking.group[order[P:]]
    w_pos, w_neg = weight[order[:P]], weight[order[P:]]
    if probs_ok:
        l1, l2 = binary.per_row_losses(y[order], scores[order])
        losses = np.column_stack([l1, l2]) * weight[order][:, None]
    else:
        losses = None

    keys = [sp.key for sp in specs]
    want = set(keys)
    gp = np.flatnonzero(np.bincount(g_pos, minlength=D) > 0)     # groups holding a positive
    gn = np.flatnonzero(np.bincount(g_neg, minlength=D) > 0)     # groups holding a negative

    @_quiet
    def stat_w(c):
        r"""Group sums by bincount, then only the groups that matter (see :func:`_virtual_rows_statistic`):
        AUC, AP and PR AUC sum over the groups holding a positive, KS peaks at group ends (no (b, D) metric
        arrays)."""
        pos = _bincount_rows(g_pos, c[:, :P] * w_pos, D)
        neg = _bincount_rows(g_neg, c[:, P:] * w_neg, D)
        b = c.shape[0]
        T = np.zeros((b, D + 1))
        F = np.zeros((b, D + 1))
        np.cumsum(pos, axis=1, out=T[:, 1:])
        np.cumsum(neg, axis=1, out=F[:, 1:])
        Pst, Nst = T[:, -1], F[:, -1]
        both = (Pst > 0) & (Nst > 0)
        out = {}
        pg = np.take(pos, gp, axis=1)
        T1, F1 = np.take(T, gp + 1, axis=1), np.take(F, gp + 1, axis=1)     # through the group
        T0, F0 = np.take(T, gp, axis=1), np.take(F, gp, axis=1)             # through the group before
        if "roc_auc" in want:
            above = np.einsum("ij,ij->i", pg, (F0 + F1) / 2.0)
            out["roc_auc"] = np.where(both, 1.0 - above / (Pst * Nst), np.nan)
        prec1 = T1 / np.where(T1 + F1 > 0, T1 + F1, 1.0)
        if "average_precision" in want:
            out["average_precision"] = np.where(Pst > 0, np.einsum("ij,ij->i", pg, prec1) / Pst, np.nan)
        if "pr_auc" in want:
            prec0 = np.where(T0 + F0 > 0, T0 / np.where(T0 + F0 > 0, T0 + F0, 1.0), 1.0)
            out["pr_auc"] = np.where(Pst > 0, np.einsum("ij,ij->i", pg, prec1 + prec0) / (2 * Pst), np.nan)
        if "ks_statistic" in want:
            up = (T1 / Pst[:, None] - F1 / Nst[:, None]).max(axis=1, initial=0.0)
            down = (np.take(F, gn + 1, axis=1) / Nst[:, None]
                    - np.take(T, gn + 1, axis=1) / Pst[:, None]).max(axis=1, initial=0.0)
            out["ks_statistic"] = np.where(both, np.maximum(up, down), np.nan)
        if want & {"log_loss", "brier_score"}:
            if losses is not None:
                lb = c.astype(np.float64) @ losses
                wsum = Pst + Nst
                out["log_loss"], out["brier_score"] = lb[:, 0] / wsum, lb[:, 1] / wsum
            else:
                out["log_loss"] = out["brier_score"] = np.full(b, np.nan)
        return np.column_stack([out[k] for k in keys])
    return stat_w, dict(strata=np.repeat(np.array([1, 0], np.int8), [P, y.size - P]))


# ------------------------------------------------------------------------------------------------------------------
# Multi-class
# ------------------------------------------------------------------------------------------------------------------

def multiclass_cells_statistic(state: multiclass.MulticlassState, specs, y, yp, weight):
    """Label and distribution metrics (functions of the confusion matrix).

    Without weights: the k² cells with their counts as frequencies, stratified by true class (each row of the
    confusion matrix is one multinomial draw per resample, exact). With weights: the rows.
    """
    k = state.k

    def make(cm):
        return multiclass.MulticlassState(cm=cm, classes=state.classes, beta=state.beta, top_k=state.top_k,
                                  labels_from=state.labels_from, batch=True)

    if weight is None:
        freq = np.rint(state.cm.ravel()).astype(np.int64)

        @_quiet
        def stat(c):
            cm = c.astype(np.float64).reshape(c.shape[0], k, k)
            s = make(cm)
            return _stack([sp.compute(s) for sp in specs], c.shape[0])
        return stat, dict(frequencies=freq, strata=np.repeat(np.arange(k), k))

    code = y.astype(np.intp) * k + yp.astype(np.intp)

    @_quiet
    def stat_w(c):
        cm = _bincount_rows(code, c * weight[None, :], k * k).reshape(c.shape[0], k, k)
        s = make(cm)
        return _stack([sp.compute(s) for sp in specs], c.shape[0])
    return stat_w, dict(strata=y)


def multiclass_score_statistic(state: multiclass.MulticlassState, specs, y, scores, weight, rankings):
    """Score metrics (top-k, log loss, Brier, one-vs-rest and one-vs-one AUC) over the real rows, stratified by
    true class; one score group per row and class from ``rankings`` (one sort per class, done once)."""
    k = state.k
    n = y.shape[0]
    w = np.ones(n) if weight is None else weight
    ll, bs = multiclass.per_row_losses(y, scores)
    hits = multiclass.top_k_hits(y, scores, state.top_k).astype(np.float64)
    V = np.column_stack([ll, bs, hits]) * w[:, None]
    keys = {sp.key for sp in specs}
    need_ovr = bool(keys & {"roc_auc_ovr", "roc_auc_ovr_weighted"})
    need_ovo = "roc_auc_ovo" in keys
    rows_of = [np.flatnonzero(y == c) for c in range(k)]

    def ovr(cw):
        out = []
        for c in range(k):
            g = rankings[c].group
            D = rankings[c].thresholds.shape[0]
            tot = _bincount_rows(g, cw, D)
            pos = _bincount_rows(g[rows_of[c]], cw[:, rows_of[c]], D)
            out.append((np.cumsum(pos, axis=1), np.cumsum(tot - pos, axis=1)))
        return out

    def ovo(cw):
        out = np.full((cw.shape[0], k, k), np.nan)
        for a in range(k):
            ga, D = rankings[a].group, rankings[a].thresholds.shape[0]
            pos = _bincount_rows(ga[rows_of[a]], cw[:, rows_of[a]], D) if rows_of[a].size else None
            for b_ in range(k):
                if a == b_ or pos is None or rows_of[b_].size == 0:
                    continue
                neg = _bincount_rows(ga[rows_of[b_]], cw[:, rows_of[b_]], D)
                out[:, a, b_] = binary.batch_roc_auc(np.cumsum(pos, axis=1), np.cumsum(neg, axis=1))
        return out

    @_quiet
    def stat(c):
        cw = c * w[None, :]
        sums = c.astype(np.float64) @ V
        cm = np.zeros((c.shape[0], k, k))
        cm[:, np.arange(k), np.arange(k)] = _bincount_rows(y, cw, k)     # class totals, for support weights
        s = multiclass.MulticlassState(cm=cm, classes=state.classes, beta=state.beta,
                               top_k=state.top_k, labels_from=state.labels_from,
                               ovr=ovr(cw) if need_ovr else None, ovo=ovo(cw) if need_ovo else None,
                               log_loss_sum=sums[:, 0], brier_sum=sums[:, 1], topk_sum=sums[:, 2],
                               weight_sum=cw.sum(axis=1), proba_reason=state.proba_reason, batch=True)
        return _stack([sp.compute(s) for sp in specs], c.shape[0])
    return stat, dict(strata=y)


# ------------------------------------------------------------------------------------------------------------------
# Multi-label
# ------------------------------------------------------------------------------------------------------------------

def multilabel_statistic(state: multilabel.MultilabelState, specs, y, yp, scores, weight):
    """All multi-label metrics over the real rows: per-label cells and per-row values as matrix products."""
    n = y.shape[0]
    w = np.ones(n) if weight is None else weight
    Y, YP = y.astype(np.float64), yp.astype(np.float64)
    TP, FP, FN = Y * YP, (1 - Y) * YP, Y * (1 - YP)
    rv = np.nan_to_num(multilabel.row_values(y, yp, scores), nan=0.0)

    @_quiet
    def stat(c):
        cw = c * w[None, :]
        tot = cw.sum(axis=1)
        tp, fp, fn = cw @ TP, cw @ FP, cw @ FN
        tn = tot[:, None] - tp - fp - fn
        cells = np.stack([tp, fp, fn, tn], axis=-1)
        s = multilabel.MultilabelState(cells=cells, rows=cw @ rv, weight_sum=tot, labels=state.labels, beta=state.beta,
                               threshold=state.threshold, labels_from=state.labels_from,
                               has_scores=state.has_scores, batch=True)
        return _stack([sp.compute(s) for sp in specs], c.shape[0])
    return stat, dict(strata=None, n=n)
