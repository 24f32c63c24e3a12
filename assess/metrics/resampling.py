r"""Vectorised bootstrap statistics: turn a chunk of resample counts into a batch state and evaluate metrics on it.

For every task the metrics are functions of weighted sums (cells, per-row losses, per-score-group class counts),
so a resample with row counts :math:`c_{ji}` only changes the weights to :math:`c_{ji} w_i`; a chunk of b resamples
is a handful of ``np.bincount`` calls or matrix products, and the same metric functions as the point estimate run on
arrays with a leading resample axis. Nothing here loops over rows, and nothing sorts: score-ranking metrics reuse
the one sort of :func:`assess.curves.threshold_counts` (cumulative counts per distinct score) or of
:func:`assess.curves.rank_scores` (the score group of every row).

Binary, no weights: rows of the same class with the same score are interchangeable, so what is resampled is the
grouped table of the one sort — one *cell* per distinct score and class, its row count as its frequency — not the
rows: the positive cells in decreasing score order (and the negative ones likewise) straight from the counts of the
sort. A resample's cumulative counts per distinct score are then a cumulative sum of its cell counts read at the
group boundaries, and ROC AUC is one gather and one dot product per resample:

.. math:: \mathrm{AUC}^* = \frac{1}{P^* N^*}\sum_{i \in \text{pos}} c_i \left(N^* - \tfrac12\left(C^-_{lo(i)} +
          C^-_{hi(i)}\right)\right)

where :math:`c_i` is the resampled count of positive cell i, :math:`C^-` the running count of resampled negatives
in decreasing score order and :math:`lo(i), hi(i)` the numbers of negative cells scoring strictly above / at least
as high as cell i. Every rank metric of the chunk (ROC AUC, average precision, PR AUC, KS) reads these same running
counts.
"""

from __future__ import annotations

import warnings

import numpy as np

from assess import curves, intervals
from assess.metrics import binary, multiclass, multilabel, regression


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
        return binary.BinaryState(tp=tp, fp=fp, tn=tn, fn=fn, beta=state.beta,
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
    t = np.clip(thresholds, binary.LOG_LOSS_EPS, 1 - binary.LOG_LOSS_EPS)
    return -np.log(t), -np.log1p(-t), (thresholds - 1.0) ** 2, thresholds ** 2


class ResampledRanks:
    r"""One chunk of b resamples of a binary scorer, seen through the one sort of its scores (no new sort).

    What a score metric needs from a resample, as (b, ·) arrays, each computed on first use:

    - ``P``, ``N`` — the resampled (weighted) class totals, ``both`` where both are > 0;
    - per *positive unit* u (a positive cell without weights, a score group holding a positive with weights):
      ``pos_weight`` its resampled weight, ``tp_end``/``fp_end`` the cumulative counts through its score group and
      ``tp_before``/``fp_before`` through the group before (0 before the first);
    - ``ks_up``/``ks_down`` — the resampled cumulative counts (TP, FP) at the ends of the groups where TPR − FPR /
      FPR − TPR can peak (:func:`_ks_ends`), which is all KS reads;
    - :meth:`negatives_above` — :math:`\sum_u w_u\,(F_{\text{before}} + F_{\text{end}})/2`, the Mann–Whitney
      count of negatives scoring above a positive (ties one half);
    - ``loss_sums`` — the (b, 2) resampled sums of per-row log loss and squared error (None when the scores are
      not probabilities);
    - :meth:`batch_state` — a batch :class:`~assess.metrics.binary.BinaryState` with the full (b, D) cumulative
      counts per distinct score, on which any registry ``compute`` runs (the path of a metric without a
      ``resampled`` formula).

    A group that drew no row in a resample repeats the cumulative counts of the group before it — exactly the curve
    of the resample, without a forward fill.

    Each array is the layout's method of the same name (:class:`_Cells` without weights, :class:`_WeightedRows`
    with), run once per chunk and kept: metrics asked for together share their intermediates.
    """

    def __init__(self, c: np.ndarray, layout, state: binary.BinaryState):
        self._c = c
        self._layout = layout
        self._state = state
        self._cache: dict = {}

    def _get(self, name, make):
        if name not in self._cache:
            self._cache[name] = make()
        return self._cache[name]

    @property
    def b(self) -> int:
        return self._c.shape[0]

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self._get(name, lambda: getattr(self._layout, name)(self._c, self))

    def negatives_above(self) -> np.ndarray:
        return self._get("negatives_above", lambda: self._layout.negatives_above(self._c, self))

    def cached(self, name: str, make):
        """``make()`` once per chunk under ``name``: formulas of several metrics share an intermediate array."""
        return self._get(("formula", name), make)

    @property
    def both(self) -> np.ndarray:
        return (self.P > 0) & (self.N > 0)

    def batch_state(self) -> binary.BinaryState:
        """The chunk as a batch state for ``compute``. Its cells are NaN: a score metric reads the counts at every
        distinct score (``tps``/``fps``, shape (b, D)) and the loss sums, never the cells at one threshold."""
        def make():
            tps, fps = self._layout.cumulative(self._c, self)
            sums = self.loss_sums
            st = self._state
            return binary.BinaryState(
                tp=np.nan, fp=np.nan, tn=np.nan, fn=np.nan, beta=st.beta,
                labels_from=st.labels_from, tps=tps, fps=fps, log_loss_sum=None if sums is None else sums[:, 0],
                brier_sum=None if sums is None else sums[:, 1], weight_sum=self.P + self.N,
                proba_reason=st.proba_reason, batch=True)
        return self._get("batch_state", make)


def _ks_ends(holds_pos: np.ndarray, holds_neg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The score groups at whose end TPR − FPR (first) and FPR − TPR (second) can peak, in every resample: a group
    holding a positive followed by one holding a negative (or last), and the reverse. Exact for any resample: going
    down the scores, a group without positives cannot raise TPR − FPR, so a peak there is also one at the group
    before (back to a group holding a positive, followed by this one holding a negative), and a group followed by
    one without negatives cannot lower it, so the peak carries on to the next (forward to a group followed by one
    holding a negative, or the last). On 1e6 distinct scores: about a fifth of the groups for each."""
    after_neg, after_pos = np.append(holds_neg[1:], True), np.append(holds_pos[1:], True)
    return np.flatnonzero(holds_pos & after_neg), np.flatnonzero(holds_neg & after_pos)


class _Cells:
    r"""Unweighted layout: the rows grouped into *cells*, one per distinct score and class that holds rows (the
    grouped table of the one sort, :class:`~assess.curves.ThresholdCounts`), the positive cells in decreasing score
    order, then the negative ones. Rows of one cell are interchangeable, so a resample is a count per cell; the
    cells' row counts are the ``frequencies`` :func:`~assess.intervals.bootstrap_ci` resamples (one multinomial per
    class over well-filled cells, or the rows drawn and summed per cell, :func:`~assess.intervals.resample_counts`).
    A file of tied scores (a tree's leaves) has a few hundred cells whatever its rows. A class whose cells hold few
    rows each (mostly distinct scores) would be drawn row by row and its draws summed per cell
    (:func:`~assess.intervals.draws_cells`): its rows are then laid out as cells of one row each, in the same order,
    so the counts need no summing (the draws, and so the interval, are the same).

    With :math:`C^+, C^-` the running resampled counts over the positive / negative cells in that order
    (:math:`C_0 = 0`) and :math:`T_g, F_g` the numbers of positive / negative cells in groups 1..g, the resampled
    cumulative counts at the end of group g are :math:`C^+_{T_g}` and :math:`C^-_{F_g}`. Integer running counts keep
    the rank sums exact.
    """

    def __init__(self, counts: curves.ThresholdCounts, probs_ok: bool):
        pos_per = np.diff(np.rint(counts.tps).astype(np.int64), prepend=0)
        neg_per = np.diff(np.rint(counts.fps).astype(np.int64), prepend=0)

        def cells(per):         # cells per group: one, or one per row when the class is drawn by rows
            filled = per > 0
            return filled if intervals.draws_cells(int(np.count_nonzero(filled)), int(per.sum())) else per
        pos_cells, neg_cells = cells(pos_per), cells(neg_per)
        groups = np.arange(pos_per.size)
        self.gp = np.repeat(groups, pos_cells)                  # group of each positive cell
        self.gn = np.repeat(groups, neg_cells)                  # group of each negative cell
        self.frequencies = np.concatenate([np.repeat(pos_per // np.maximum(pos_cells, 1), pos_cells),
                                           np.repeat(neg_per // np.maximum(neg_cells, 1), neg_cells)])
        self.n_pos, self.n_neg = self.gp.size, self.gn.size
        self.T = T = np.cumsum(pos_cells)
        self.F = F = np.cumsum(neg_cells)
        self.T_prev, self.F_prev = np.concatenate(([0], T[:-1])), np.concatenate(([0], F[:-1]))
        self.ties = bool(np.any((pos_per > 0) & (neg_per > 0)))
        up, down = _ks_ends(pos_per > 0, neg_per > 0)
        self.up, self.down = (T[up], F[up]), (T[down], F[down])
        # a resample's running count is at most 255 per row (uint8 Poisson counts, summed per cell)
        self.dt = np.int32 if int(self.frequencies.sum()) * 255 < 2**31 else np.int64
        self.losses = None
        if probs_ok:
            lp, ln, bp, bn = _group_losses(counts.thresholds)
            self.losses = (np.column_stack([lp[self.gp], bp[self.gp]]), np.column_stack([ln[self.gn], bn[self.gn]]))

    def _cum(self, c):
        out = np.zeros((c.shape[0], c.shape[1] + 1), dtype=self.dt)
        np.add.accumulate(c, axis=1, dtype=self.dt, out=out[:, 1:])
        return out

    def cp(self, c, v):
        return c[:, :self.n_pos]

    def cn(self, c, v):
        return c[:, self.n_pos:]

    def Cp(self, c, v):
        return self._cum(v.cp)

    def Cn(self, c, v):
        return self._cum(v.cn)

    def P(self, c, v):
        return v.cp.sum(axis=1, dtype=np.int64).astype(np.float64)

    def N(self, c, v):
        return v.Cn[:, -1].astype(np.float64)

    def pos_weight(self, c, v):
        return v.cp.astype(np.float64)

    def tp_end(self, c, v):
        return np.take(v.Cp, self.T[self.gp], axis=1).astype(np.float64)

    def fp_end(self, c, v):
        return np.take(v.Cn, self.F[self.gp], axis=1).astype(np.float64)

    def tp_before(self, c, v):        # integer running counts: exact, and a float copy would be one more pass
        return np.take(v.Cp, self.T_prev[self.gp], axis=1)

    def fp_before(self, c, v):
        return np.take(v.Cn, self.F_prev[self.gp], axis=1)

    def negatives_above(self, c, v):
        def dot(a, b):
            return np.einsum("ij,ij->i", a, b, dtype=np.int64).astype(np.float64)

        pairs = dot(v.cp, np.take(v.Cn, self.F_prev[self.gp], axis=1))
        if self.ties:
            pairs = (pairs + dot(v.cp, np.take(v.Cn, self.F[self.gp], axis=1))) / 2.0
        return pairs

    def loss_sums(self, c, v):
        if self.losses is None:
            return None
        return v.cp.astype(np.float64) @ self.losses[0] + v.cn.astype(np.float64) @ self.losses[1]

    def cumulative(self, c, v):
        return np.take(v.Cp, self.T, axis=1).astype(np.float64), np.take(v.Cn, self.F, axis=1).astype(np.float64)

    def ks_up(self, c, v):          # integer running counts (a float copy: one more pass)
        return np.take(v.Cp, self.up[0], axis=1), np.take(v.Cn, self.up[1], axis=1)

    def ks_down(self, c, v):
        return np.take(v.Cp, self.down[0], axis=1), np.take(v.Cn, self.down[1], axis=1)


class _WeightedRows:
    """Weighted layout: the real rows, positives first (each class in input order), each mapped to its score group
    by one :class:`~assess.curves.ScoreRanking`; a resample's group sums are one bincount per class."""

    def __init__(self, y, scores, weight, ranking: curves.ScoreRanking, probs_ok: bool):
        self.D = ranking.thresholds.shape[0]
        # lay the rows out positives first (a partition by class, not a sort): each class is then a slice
        order = np.concatenate([np.flatnonzero(y), np.flatnonzero(~y)])
        self.n_pos = P = int(np.count_nonzero(y))
        self.g_pos, self.g_neg = ranking.group[order[:P]], ranking.group[order[P:]]
        self.w_pos, self.w_neg = weight[order[:P]], weight[order[P:]]
        self.losses = None
        if probs_ok:
            l1, l2 = binary.per_row_losses(y[order], scores[order])
            self.losses = np.column_stack([l1, l2]) * weight[order][:, None]
        holds_pos = np.bincount(self.g_pos, minlength=self.D) > 0
        self.gp = np.flatnonzero(holds_pos)                                          # groups holding a positive
        self.up, self.down = (g + 1 for g in _ks_ends(holds_pos, np.bincount(self.g_neg, minlength=self.D) > 0))

    def pos(self, c, v):
        return _bincount_rows(self.g_pos, c[:, :self.n_pos] * self.w_pos, self.D)

    def neg(self, c, v):
        return _bincount_rows(self.g_neg, c[:, self.n_pos:] * self.w_neg, self.D)

    def T(self, c, v):
        out = np.zeros((c.shape[0], self.D + 1))
        np.cumsum(v.pos, axis=1, out=out[:, 1:])
        return out

    def F(self, c, v):
        out = np.zeros((c.shape[0], self.D + 1))
        np.cumsum(v.neg, axis=1, out=out[:, 1:])
        return out

    def P(self, c, v):
        return v.T[:, -1]

    def N(self, c, v):
        return v.F[:, -1]

    def pos_weight(self, c, v):
        return np.take(v.pos, self.gp, axis=1)

    def tp_end(self, c, v):
        return np.take(v.T, self.gp + 1, axis=1)

    def fp_end(self, c, v):
        return np.take(v.F, self.gp + 1, axis=1)

    def tp_before(self, c, v):
        return np.take(v.T, self.gp, axis=1)

    def fp_before(self, c, v):
        return np.take(v.F, self.gp, axis=1)

    def negatives_above(self, c, v):
        return np.einsum("ij,ij->i", v.pos_weight, (v.fp_before + v.fp_end) / 2.0)

    def loss_sums(self, c, v):
        return None if self.losses is None else c.astype(np.float64) @ self.losses

    def cumulative(self, c, v):
        return v.T[:, 1:], v.F[:, 1:]

    def ks_up(self, c, v):
        return np.take(v.T, self.up, axis=1), np.take(v.F, self.up, axis=1)

    def ks_down(self, c, v):
        return np.take(v.T, self.down, axis=1), np.take(v.F, self.down, axis=1)


def binary_score_statistic(state: binary.BinaryState, specs, y, scores, weight, ranking=None):
    """Statistic and layout for the binary score metrics: each spec's ``resampled`` formula on
    :class:`ResampledRanks` of the chunk, or its ``compute`` on the chunk's batch state when it has none.

    Without weights: the cells of distinct score × class, resampled with their row counts as frequencies
    (:class:`_Cells`); with weights: the real rows laid out positives first, each mapped to its score group by
    ``ranking`` (from :func:`assess.curves.rank_scores`).
    """
    probs_ok = state.proba_reason is None
    if weight is None:
        layout = _Cells(state.counts, probs_ok)
        resample = dict(strata=np.repeat(np.array([1, 0], np.int8), [layout.n_pos, layout.n_neg]),
                        frequencies=layout.frequencies)
    else:
        layout = _WeightedRows(y, scores, weight, curves.rank_scores(scores) if ranking is None else ranking,
                               probs_ok)
        resample = dict(strata=np.repeat(np.array([1, 0], np.int8), [layout.n_pos, y.size - layout.n_pos]))

    @_quiet
    def stat(c):
        ranks = ResampledRanks(c, layout, state)
        return _stack([sp.resampled(ranks) if sp.resampled is not None else sp.compute(ranks.batch_state())
                       for sp in specs], c.shape[0])
    return stat, resample


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
    need_ovr = any("one_vs_rest" in sp.shared for sp in specs)
    need_ovo = any("one_vs_one" in sp.shared for sp in specs)
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
        # as `multiclass.ovo_matrix`, per resample: class a's resampled weight above each score group of column a
        # (ties 1/2), gathered to every row and summed by true class, gives A(a|b) for every b at once
        out = np.full((cw.shape[0], k, k), np.nan)
        totals = _bincount_rows(y, cw, k)
        with np.errstate(divide="ignore", invalid="ignore"):
            for a in range(k):
                if rows_of[a].size == 0:
                    continue
                ga, D = rankings[a].group, rankings[a].thresholds.shape[0]
                pos = _bincount_rows(ga[rows_of[a]], cw[:, rows_of[a]], D)
                above = np.cumsum(pos, axis=1)
                above -= 0.5 * pos
                num = _bincount_rows(y, np.take(above, ga, axis=1) * cw, k)
                den = totals[:, a:a + 1] * totals
                out[:, a] = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
                out[:, a, a] = np.nan
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
                               labels_from=state.labels_from,
                               has_scores=state.has_scores, batch=True)
        return _stack([sp.compute(s) for sp in specs], c.shape[0])
    return stat, dict(strata=None, n=n)


# ------------------------------------------------------------------------------------------------------------------
# Regression and forecasts (pooled)
# ------------------------------------------------------------------------------------------------------------------

def regression_statistic(state: regression.RegressionState, specs, y, yp, weight):
    r"""Statistic and layout for the regression metrics: i.i.d. resampling of the rows (no strata).

    Every sum of the state is a weighted sum over rows, so a chunk of b resamples with row counts :math:`c_{ji}`
    is one (b, R) × (R, m) product of the float counts with the per-row values (times the weights) the asked
    metrics read: :math:`e`, :math:`|e|`, :math:`e^2`, the relative errors, the sMAPE terms, and :math:`y` and
    :math:`e` centred on their full-data means with their squares, from which the resampled sums of squares about
    the resample's own means are :math:`S_2 - S_1^2/W^*` without cancellation. The maximum is a masked max of
    :math:`|e|`; the median reads the cumulative resampled weights of :math:`|e|` in its one sort order (the same
    averaged inverted CDF as the point value).
    """
    parts = set().union(*(sp.shared for sp in specs))
    n = y.shape[0]
    w = np.ones(n) if weight is None else weight
    e = yp - y
    a = np.abs(e)
    columns = regression.row_values(y, yp, parts)
    if "true_var" in parts:
        yc = y - np.dot(w, y) / w.sum()
        columns["y1"], columns["y2"] = yc, yc * yc
    if "error_var" in parts:
        ec = e - np.dot(w, e) / w.sum()
        columns["e1"], columns["e2"] = ec, ec * ec
    names = list(columns)
    V = np.column_stack([columns[k] for k in names] + [np.ones(n)]) * w[:, None]
    live_abs = a if weight is None else np.where(weight > 0, a, -np.inf)
    order = np.argsort(a, kind="stable") if "median" in parts else None
    sorted_abs = a[order] if order is not None else None
    w_sorted = w[order] if order is not None else None
    eps = np.finfo(np.float64).eps

    def median(c):
        # The averaged inverted CDF of |e| under each resample's counts: the cumulative (weighted) counts in the one
        # sort order, then two binary searches per resample (a chunk holds a few resamples, so the loop is short):
        # i = #{cum < W/2}, the first sorted value reaching half the weight, and j = #{cum <= cum[i]}, the next one
        # (the two are averaged when cum[i] is exactly half). Integer counts without weights: exact and half the
        # memory of a float cumsum.
        if weight is None:
            cum = np.cumsum(c[:, order], axis=1, dtype=np.int64 if n * 255 >= 2 ** 31 else np.int32)
        else:
            cum = np.cumsum(c[:, order] * w_sorted[None, :], axis=1)
        target = 0.5 * cum[:, -1]
        i = np.array([np.searchsorted(row, t, side="left") for row, t in zip(cum, target)], dtype=np.intp)
        i = np.minimum(i, n - 1)
        at = cum[np.arange(cum.shape[0]), i]
        j = np.minimum(np.array([np.searchsorted(row, a, side="right") for row, a in zip(cum, at)], dtype=np.intp),
                       n - 1)
        return np.where(at - target > eps, sorted_abs[i], (sorted_abs[i] + sorted_abs[j]) / 2.0)

    @_quiet
    def stat(c):
        cf = c.astype(np.float64)
        S = cf @ V
        W = S[:, -1]
        sums = {k: S[:, i] for i, k in enumerate(names)}
        fields = {k: v for k, v in sums.items() if k.startswith("sum_")}
        if "true_var" in parts:
            ss = sums["y2"] - sums["y1"] ** 2 / W
            # a resample that drew rows of one y_true value only: 0 up to rounding, which must read as 0
            fields["ss_true"] = np.where(ss > 1e-12 * sums["y2"], ss, 0.0)
        if "error_var" in parts:
            fields["ss_error"] = np.maximum(sums["e2"] - sums["e1"] ** 2 / W, 0.0)
        if "max" in parts:
            fields["max_abs"] = np.max(np.where(c > 0, live_abs[None, :], -np.inf), axis=1)
        if "median" in parts:
            fields["median_abs"] = median(c)
        s = regression.RegressionState(weight_sum=W, n=n, batch=True, **fields)
        return _stack([sp.compute(s) for sp in specs], c.shape[0])
    return stat, dict(n=n)
