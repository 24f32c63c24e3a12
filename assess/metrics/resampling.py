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
from assess.metrics import binary as B
from assess.metrics import multiclass as MC
from assess.metrics import multilabel as ML


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

def binary_cells_statistic(state: B.BinaryState, specs, y, yp, weight):
    """Statistic and resampling layout for the binary label metrics (functions of the four cells).

    Without weights the rows collapse into the 4 cells (frequencies tp, fn, fp, tn; strata positive/negative),
    so a resample is one multinomial draw per class: exact and independent of n. With weights: the rows themselves.
    """
    def make(tp, fp, tn, fn):
        return B.BinaryState(tp=tp, fp=fp, tn=tn, fn=fn, threshold=state.threshold, beta=state.beta,
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


def binary_score_statistic(state: B.BinaryState, specs, y, scores, weight, ranking=None):
    """Statistic and layout for the binary score metrics (ROC AUC, AP, PR AUC, KS, log loss, Brier).

    Without weights: virtual rows in decreasing score order (see the module docstring); with weights: the real
    rows, each mapped to its score group by ``ranking`` (from :func:`assess.curves.rank_scores`).
    """
    counts = state.counts
    probs_ok = state.proba_reason is None

    def make(tps, fps, ll, bs, wsum):
        return B.BinaryState(tp=np.nan, fp=np.nan, tn=np.nan, fn=np.nan, threshold=state.threshold,
                             beta=state.beta, labels_from=state.labels_from, tps=tps, fps=fps, log_loss_sum=ll,
                             brier_sum=bs, weight_sum=wsum, proba_reason=state.proba_reason, batch=True)

    only_auc = [sp.key for sp in specs] == ["roc_auc"]
    if weight is None:
        thr = counts.thresholds
        tps_i = np.rint(counts.tps).astype(np.int64)
        fps_i = np.rint(counts.fps).astype(np.int64)
        P, N = int(tps_i[-1]) if tps_i.size else 0, int(fps_i[-1]) if fps_i.size else 0
        lp, ln, bp, bn = _group_losses(thr) if probs_ok else (None,) * 4
        pos_per = np.diff(tps_i, prepend=0)
        # for each virtual positive: negatives strictly above (lo) and at or above (hi) its score group
        fps_prev = np.concatenate(([0], fps_i[:-1]))
        lo = np.repeat(fps_prev, pos_per)
        hi = np.repeat(fps_i, pos_per)
        ties = not np.array_equal(lo, hi)

        def cum(c):
            out = np.zeros((c.shape[0], c.shape[1] + 1), dtype=np.int64)
            np.cumsum(c, axis=1, dtype=np.int64, out=out[:, 1:])
            return out

        if only_auc:
            @_quiet
            def stat_auc(c):
                cp, cn = c[:, :P], c[:, P:]
                Cn = cum(cn)
                Nstar = Cn[:, -1].astype(np.float64)
                Pstar = cp.sum(axis=1, dtype=np.int64).astype(np.float64)
                above = Cn[:, lo].astype(np.float64)
                if ties:
                    above = (above + Cn[:, hi]) / 2.0
                num = Pstar * Nstar - np.einsum("ij,ij->i", cp.astype(np.float64), above)
                return np.where((Pstar > 0) & (Nstar > 0), num / (Pstar * Nstar), np.nan)[:, None]
            return stat_auc, dict(strata=np.repeat(np.array([1, 0], np.int8), [P, N]))

        @_quiet
        def stat(c):
            Cp, Cn = cum(c[:, :P]), cum(c[:, P:])
            tps = Cp[:, tps_i].astype(np.float64)
            fps = Cn[:, fps_i].astype(np.float64)
            wsum = tps[:, -1] + fps[:, -1]
            ll = bs = np.full(c.shape[0], np.nan)
            if probs_ok:
                dp = np.diff(tps, axis=1, prepend=0.0)
                dn = np.diff(fps, axis=1, prepend=0.0)
                ll = dp @ lp + dn @ ln
                bs = dp @ bp + dn @ bn
            s = make(tps, fps, ll, bs, wsum)
            return _stack([sp.compute(s) for sp in specs], c.shape[0])
        return stat, dict(strata=np.repeat(np.array([1, 0], np.int8), [P, N]))

    if ranking is None:
        ranking = curves.rank_scores(scores)
    group = ranking.group
    D = ranking.thresholds.shape[0]
    pos_rows = np.flatnonzero(y)
    neg_rows = np.flatnonzero(~y)
    if probs_ok:
        l1, l2 = B.per_row_losses(y, scores)
        losses = np.column_stack([l1, l2]) * weight[:, None]
    else:
        losses = None

    @_quiet
    def stat_w(c):
        cw = c * weight[None, :]
        pos = _bincount_rows(group[pos_rows], cw[:, pos_rows], D)
        neg = _bincount_rows(group[neg_rows], cw[:, neg_rows], D)
        tps, fps = np.cumsum(pos, axis=1), np.cumsum(neg, axis=1)
        if losses is not None:
            lb = c.astype(np.float64) @ losses
            ll, bs = lb[:, 0], lb[:, 1]
        else:
            ll = bs = np.full(c.shape[0], np.nan)
        s = make(tps, fps, ll, bs, tps[:, -1] + fps[:, -1])
        return _stack([sp.compute(s) for sp in specs], c.shape[0])
    return stat_w, dict(strata=y.astype(np.int8))


# ------------------------------------------------------------------------------------------------------------------
# Multi-class
# ------------------------------------------------------------------------------------------------------------------

def multiclass_cells_statistic(state: MC.MulticlassState, specs, y, yp, weight):
    """Label and distribution metrics (functions of the confusion matrix).

    Without weights: the k² cells with their counts as frequencies, stratified by true class (each row of the
    confusion matrix is one multinomial draw per resample, exact). With weights: the rows.
    """
    k = state.k

    def make(cm):
        return MC.MulticlassState(cm=cm, classes=state.classes, beta=state.beta, top_k=state.top_k,
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


def multiclass_score_statistic(state: MC.MulticlassState, specs, y, scores, weight, rankings):
    """Score metrics (top-k, log loss, Brier, one-vs-rest and one-vs-one AUC) over the real rows, stratified by
    true class; one score group per row and class from ``rankings`` (one sort per class, done once)."""
    k = state.k
    n = y.shape[0]
    w = np.ones(n) if weight is None else weight
    ll, bs = MC.per_row_losses(y, scores)
    hits = MC.top_k_hits(y, scores, state.top_k).astype(np.float64)
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
                out[:, a, b_] = B.batch_roc_auc(np.cumsum(pos, axis=1), np.cumsum(neg, axis=1))
        return out

    @_quiet
    def stat(c):
        cw = c * w[None, :]
        sums = c.astype(np.float64) @ V
        cm = np.zeros((c.shape[0], k, k))
        cm[:, np.arange(k), np.arange(k)] = _bincount_rows(y, cw, k)     # class totals, for support weights
        s = MC.MulticlassState(cm=cm, classes=state.classes, beta=state.beta,
                               top_k=state.top_k, labels_from=state.labels_from,
                               ovr=ovr(cw) if need_ovr else None, ovo=ovo(cw) if need_ovo else None,
                               log_loss_sum=sums[:, 0], brier_sum=sums[:, 1], topk_sum=sums[:, 2],
                               weight_sum=cw.sum(axis=1), proba_reason=state.proba_reason, batch=True)
        return _stack([sp.compute(s) for sp in specs], c.shape[0])
    return stat, dict(strata=y)


# ------------------------------------------------------------------------------------------------------------------
# Multi-label
# ------------------------------------------------------------------------------------------------------------------

def multilabel_statistic(state: ML.MultilabelState, specs, y, yp, scores, weight):
    """All multi-label metrics over the real rows: per-label cells and per-row values as matrix products."""
    n = y.shape[0]
    w = np.ones(n) if weight is None else weight
    Y, YP = y.astype(np.float64), yp.astype(np.float64)
    TP, FP, FN = Y * YP, (1 - Y) * YP, Y * (1 - YP)
    rv = np.nan_to_num(ML.row_values(y, yp, scores), nan=0.0)

    @_quiet
    def stat(c):
        cw = c * w[None, :]
        tot = cw.sum(axis=1)
        tp, fp, fn = cw @ TP, cw @ FP, cw @ FN
        tn = tot[:, None] - tp - fp - fn
        cells = np.stack([tp, fp, fn, tn], axis=-1)
        s = ML.MultilabelState(cells=cells, rows=cw @ rv, weight_sum=tot, labels=state.labels, beta=state.beta,
                               threshold=state.threshold, labels_from=state.labels_from,
                               has_scores=state.has_scores, batch=True)
        return _stack([sp.compute(s) for sp in specs], c.shape[0])
    return stat, dict(strata=None, n=n)
