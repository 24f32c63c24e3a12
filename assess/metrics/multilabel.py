r"""Multi-label classification metrics (ISO/IEC TS 4213 6.5).

Conventions
-----------
``y_true``/``y_pred`` are (n, L) boolean indicator matrices (row i holds the label set :math:`Y_i`,
:math:`\hat Y_i`); scores are (n, L). ``y_pred`` holds the labels :func:`assess.core.decision.predicted_labels`
gave (the file's columns, or label l predicted when ``score_l >= threshold_l``). Weights :math:`w_i` apply per row.

Two kinds of sufficient statistics, both weighted sums, so a bootstrap resample is a matrix product of resample
counts with per-row vectors:

- per label l the cells :math:`T_{P,l}, F_{P,l}, F_{N,l}, T_{N,l}` (..., L), from which hamming loss, label-averaged
  (macro / micro / weighted) precision, recall, F1 and Jaccard, label cardinality and density and the label
  distributions come;
- per row values (exact match, the sample-wise precision / recall / F1 / Jaccard and whether each is defined,
  coverage, label ranking average precision, ranking loss), averaged with the row weights.

A row whose sample-wise value is undefined (e.g. sample precision of a row with no predicted label) is left out of
the ``*_samples`` average, with a note — scikit-learn's ``zero_division=np.nan`` — never counted as 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assess import curves
from assess.core.formatting import counted
from assess.metrics import binary
from assess.metrics._common import note, note_undefined, ratio

__all__ = ["MultilabelState", "multilabel_state", "row_values", "ROW_COLUMNS"]

#: Names of the per-row columns of :func:`row_values` (value, then a 0/1 "defined" column for sample averages).
ROW_COLUMNS = ("exact", "jac", "jac_def", "prec", "prec_def", "rec", "rec_def", "f1", "f1_def",
               "coverage", "lrap", "rloss")


def _ranking_rows(y: np.ndarray, s: np.ndarray, chunk_cells: int = 4_000_000):
    """Per-row coverage, LRAP and ranking loss exactly as scikit-learn defines them (vectorised, row chunks)."""
    n, L = y.shape
    coverage = np.empty(n)
    lrap = np.empty(n)
    rloss = np.empty(n)
    step = max(1, chunk_cells // max(L * L, 1))
    for a in range(0, n, step):
        yy, ss = y[a:a + step], s[a:a + step]
        npos = yy.sum(axis=1)
        # coverage: how far down the ranking to go to cover every true label (0 for rows without one)
        mins = np.where(yy, ss, np.inf).min(axis=1, keepdims=True)
        coverage[a:a + step] = np.where(npos > 0, (ss >= mins).sum(axis=1), 0)
        ge = ss[:, None, :] >= ss[:, :, None]              # ge[i, l, m] = s_m >= s_l
        rank = ge.sum(axis=2)                                # labels scoring >= label l
        relrank = (ge & yy[:, None, :]).sum(axis=2)          # true labels scoring >= label l
        with np.errstate(divide="ignore", invalid="ignore"):
            per = np.where(yy, relrank / rank, 0.0).sum(axis=1) / npos
        lrap[a:a + step] = np.where((npos > 0) & (npos < L), per, 1.0)
        # ranking loss: pairs (true r, false f) with s_f >= s_r, over |Y| (L - |Y|)
        bad = np.einsum("ir,if,irf->i", yy.astype(np.float64), (~yy).astype(np.float64), ge.astype(np.float64))
        with np.errstate(divide="ignore", invalid="ignore"):
            rl = bad / (npos * (L - npos))
        rloss[a:a + step] = np.where((npos > 0) & (npos < L), rl, 0.0)
    return coverage, lrap, rloss


def row_values(y: np.ndarray, yp: np.ndarray, scores: np.ndarray | None) -> np.ndarray:
    """The (n, len(ROW_COLUMNS)) matrix of per-row values; ranking columns are NaN without scores."""
    inter = (y & yp).sum(axis=1).astype(np.float64)
    nt = y.sum(axis=1).astype(np.float64)
    npred = yp.sum(axis=1).astype(np.float64)
    union = nt + npred - inter
    exact = (y == yp).all(axis=1).astype(np.float64)

    def frac(num, den):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(den > 0, num / np.where(den > 0, den, 1), 0.0), (den > 0).astype(np.float64)

    jac, jac_d = frac(inter, union)
    prec, prec_d = frac(inter, npred)
    rec, rec_d = frac(inter, nt)
    f1, f1_d = frac(2 * inter, nt + npred)
    if scores is not None:
        cov, lrap, rloss = _ranking_rows(y, scores)
    else:
        cov = lrap = rloss = np.full(y.shape[0], np.nan)
    return np.column_stack([exact, jac, jac_d, prec, prec_d, rec, rec_d, f1, f1_d, cov, lrap, rloss])


@dataclass(frozen=True, eq=False)
class MultilabelState:
    """Shared quantities of one multi-label assessment (or a chunk of resamples, ``batch=True``).

    ``cells`` is (..., L, 4) with columns tp, fp, fn, tn per label; ``rows`` the (...,) + (len(ROW_COLUMNS),) weighted
    sums of :func:`row_values`; ``weight_sum`` the total weight (the row count without weights); ``per_label`` the list of per-label
    :class:`~assess.curves.ThresholdCounts` (point state with scores only).
    """

    cells: np.ndarray
    rows: np.ndarray
    weight_sum: object
    labels: tuple[str, ...]
    beta: float = 1.0
    labels_from: str = "in y_pred"
    has_scores: bool = False
    per_label: list | None = None
    batch: bool = False
    sq: dict | None = None
    weighted: bool = False      # rows carry weights: notes speak of weight, else of rows

    @property
    def L(self) -> int:
        return self.cells.shape[-2]

    def cell(self, name: str):
        return self.cells[..., ("tp", "fp", "fn", "tn").index(name)]

    def row(self, name: str):
        return self.rows[..., ROW_COLUMNS.index(name)]


def label_cells(y: np.ndarray, yp: np.ndarray, weight: np.ndarray | None) -> np.ndarray:
    """(L, 4) weighted cells tp, fp, fn, tn per label."""
    w = np.ones(y.shape[0]) if weight is None else weight
    tp = w @ (y & yp)
    fp = w @ (~y & yp)
    fn = w @ (y & ~yp)
    tn = w.sum() - tp - fp - fn
    return np.stack([tp, fp, fn, tn], axis=-1).astype(np.float64)


def multilabel_state(y_true, y_pred, scores, weight, labels, *, labels_from="in y_pred", beta=1.0) -> MultilabelState:
    """Build the point state once (validated input; ``y_pred`` the decided labels, ``labels_from`` their source)."""
    y = np.asarray(y_true, dtype=bool)
    yp = np.asarray(y_pred, dtype=bool)
    cells = label_cells(y, yp, weight)
    rv = row_values(y, yp, scores)
    w = np.ones(y.shape[0]) if weight is None else weight
    rows = w @ np.nan_to_num(rv, nan=0.0)
    per_label = None
    if scores is not None:
        per_label = [curves.threshold_counts(y[:, j], scores[:, j], sample_weight=weight) for j in range(y.shape[1])]
    w2 = w * w
    sq = {"exact": float(np.dot(w2, rv[:, 0])), "weight_sq": float(w2.sum())}
    return MultilabelState(cells=cells, rows=rows, weight_sum=float(w.sum()), labels=tuple(labels), beta=beta,
                           labels_from=labels_from, has_scores=scores is not None,
                           per_label=per_label, sq=sq, weighted=weight is not None)


# ------------------------------------------------------------------------------------------------------------------
# Label-wise metrics
# ------------------------------------------------------------------------------------------------------------------

def _div(num, den):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den == 0, np.nan, num / np.where(den == 0, 1.0, den))


def per_label_precision(s):
    return _div(s.cell("tp"), s.cell("tp") + s.cell("fp"))


def per_label_recall(s):
    return _div(s.cell("tp"), s.cell("tp") + s.cell("fn"))


def per_label_fbeta(s, beta):
    b2 = beta ** 2
    tp = s.cell("tp")
    return _div((1 + b2) * tp, (1 + b2) * tp + b2 * s.cell("fn") + s.cell("fp"))


def per_label_specificity(s):
    return _div(s.cell("tn"), s.cell("tn") + s.cell("fp"))


def per_label_jaccard(s):
    tp = s.cell("tp")
    return _div(tp, tp + s.cell("fp") + s.cell("fn"))


def per_label_support(s):
    return s.cell("tp") + s.cell("fn")


def _names(s, mask):
    idx = np.flatnonzero(np.asarray(mask))
    shown = ", ".join(repr(s.labels[i]) for i in idx[:5])
    return shown + (f" and {idx.size - 5} more" if idx.size > 5 else "")


def _average(s, values, how, what, why):
    defined = ~np.isnan(values)
    w = defined.astype(np.float64) if how == "macro" else np.where(defined, per_label_support(s), 0.0)
    out = _div((w * np.where(defined, values, 0.0)).sum(axis=-1), w.sum(axis=-1))
    if not s.batch:
        if np.all(np.isnan(out)):
            # The macro mean is NaN only when every label is undefined; the support-weighted mean already when every
            # label WITH SUPPORT is (labels without support weigh 0), or when no label occurs in y_true at all.
            if how == "macro":
                note_undefined(False, f"{what} is undefined for every label ({why})")
            elif not np.any(per_label_support(s) > 0):
                note_undefined(False, f"{what} weighted by support is undefined: no label occurs in y_true")
            else:
                note_undefined(False, f"{what} is undefined for every label with support ({why})")
        elif not defined.all():
            note(False, f"{what} is undefined for label {_names(s, ~defined)} ({why}); the {how} average leaves "
                        f"{'it' if (~defined).sum() == 1 else 'them'} out")
    return out if np.ndim(out) else float(out)


def _micro(s, num_cells, den_cells, reason):
    num = sum(s.cell(c) for c in num_cells).sum(axis=-1)
    den = sum(s.cell(c) for c in den_cells).sum(axis=-1)
    return ratio(num, den, batch=s.batch, reason=reason)


def _samples(s, value, defined, what, why):
    num = s.row(value)
    den = s.row(defined)
    out = ratio(num, den, batch=True, reason="")
    if not s.batch:
        dropped = s.weight_sum - den
        if np.isnan(out):
            note_undefined(False, f"{what} is undefined for every row ({why})")
        elif dropped > 0:
            rows = f"rows with total weight {dropped:g}" if s.weighted else counted(round(dropped), "row")
            them = "it" if not s.weighted and round(dropped) == 1 else "them"
            note(False, f"{what} is undefined for {rows} ({why}); the sample average leaves {them} out")
    return out


def hamming_loss(s):
    r"""Hamming loss (ISO 4213 6.5.2): share of wrong label decisions,
    :math:`\frac{1}{L\sum_i w_i}\sum_i w_i\,|Y_i \,\triangle\, \hat Y_i|`."""
    wrong = (s.cell("fp") + s.cell("fn")).sum(axis=-1)
    return ratio(wrong, s.L * np.asarray(s.weight_sum), batch=s.batch, reason="no rows with nonzero weight")


def exact_match_ratio(s):
    r"""Exact match ratio, subset accuracy (ISO 4213 6.5.3): :math:`\frac{1}{\sum w}\sum_i w_i [Y_i = \hat Y_i]`."""
    return ratio(s.row("exact"), s.weight_sum, batch=s.batch, reason="no rows with nonzero weight")


def jaccard_samples(s):
    r"""Jaccard index averaged over rows (ISO 4213 6.5.4): :math:`|Y_i \cap \hat Y_i| / |Y_i \cup \hat Y_i|`; rows with
    both sets empty are undefined and left out."""
    return _samples(s, "jac", "jac_def", "Sample Jaccard", "no true and no predicted label")


def jaccard_macro(s):
    r"""Jaccard index per label :math:`T_P/(T_P + F_P + F_N)`, unweighted mean over labels."""
    return _average(s, per_label_jaccard(s), "macro", "Jaccard", "label neither true nor predicted")


def jaccard_weighted(s):
    r"""Jaccard index per label, mean weighted by label support."""
    return _average(s, per_label_jaccard(s), "weighted", "Jaccard", "label neither true nor predicted")


def jaccard_micro(s):
    r"""Jaccard index of the pooled counts :math:`\sum_l T_P / \sum_l (T_P + F_P + F_N)`."""
    return _micro(s, ("tp",), ("tp", "fp", "fn"), "no true and no predicted label anywhere")


def precision_micro(s):
    r"""Pooled precision :math:`\sum_l T_{P,l} / \sum_l (T_{P,l} + F_{P,l})` (ISO 4213 6.4.3)."""
    return _micro(s, ("tp",), ("tp", "fp"), f"no label predicted {s.labels_from}")


def precision_macro(s):
    r"""Unweighted mean over labels of :math:`T_{P,l}/(T_{P,l} + F_{P,l})`."""
    return _average(s, per_label_precision(s), "macro", "precision", f"never predicted {s.labels_from}")


def precision_weighted(s):
    r"""Support-weighted mean over labels of the label precision."""
    return _average(s, per_label_precision(s), "weighted", "precision", f"never predicted {s.labels_from}")


def precision_samples(s):
    r"""Mean over rows of :math:`|Y_i \cap \hat Y_i| / |\hat Y_i|`; rows with no predicted label left out."""
    return _samples(s, "prec", "prec_def", "Sample precision", "no predicted label")


def recall_micro(s):
    r"""Pooled recall :math:`\sum_l T_{P,l} / \sum_l (T_{P,l} + F_{N,l})`."""
    return _micro(s, ("tp",), ("tp", "fn"), "no true label anywhere")


def recall_macro(s):
    r"""Unweighted mean over labels of :math:`T_{P,l}/(T_{P,l} + F_{N,l})`."""
    return _average(s, per_label_recall(s), "macro", "recall", "label never true")


def recall_weighted(s):
    r"""Support-weighted mean over labels of the label recall."""
    return _average(s, per_label_recall(s), "weighted", "recall", "label never true")


def recall_samples(s):
    r"""Mean over rows of :math:`|Y_i \cap \hat Y_i| / |Y_i|`; rows with no true label left out."""
    return _samples(s, "rec", "rec_def", "Sample recall", "no true label")


def f1_micro(s):
    r"""F1 of the pooled counts :math:`2\sum T_P / (2\sum T_P + \sum F_P + \sum F_N)`."""
    tp = s.cell("tp").sum(axis=-1)
    return ratio(2 * tp, 2 * tp + s.cell("fp").sum(axis=-1) + s.cell("fn").sum(axis=-1), batch=s.batch,
                 reason="no true and no predicted label anywhere")


def f1_macro(s):
    r"""Unweighted mean over labels of :math:`2T_P/(2T_P + F_P + F_N)`."""
    return _average(s, per_label_fbeta(s, 1.0), "macro", "F1", "label neither true nor predicted")


def f1_weighted(s):
    r"""Support-weighted mean over labels of the label F1."""
    return _average(s, per_label_fbeta(s, 1.0), "weighted", "F1", "label neither true nor predicted")


def f1_samples(s):
    r"""Mean over rows of :math:`2|Y_i \cap \hat Y_i| / (|Y_i| + |\hat Y_i|)`; rows with both sets empty left out."""
    return _samples(s, "f1", "f1_def", "Sample F1", "no true and no predicted label")


def label_cardinality(s):
    r"""Label cardinality of the truth: mean number of true labels per row, :math:`\frac{1}{\sum w}\sum_i w_i|Y_i|`."""
    return ratio(per_label_support(s).sum(axis=-1), s.weight_sum, batch=s.batch,
                 reason="no rows with nonzero weight")


def label_density(s):
    r"""Label density of the truth: cardinality divided by the number of labels L."""
    return ratio(per_label_support(s).sum(axis=-1), s.L * np.asarray(s.weight_sum), batch=s.batch,
                 reason="no rows with nonzero weight")


def _needs_scores(s, what):
    if s.has_scores:
        return True
    note_undefined(s.batch, f"{what} needs scores and none were given")
    return False


def coverage_error(s):
    r"""Coverage error: mean over rows of the rank of the lowest-scored true label,
    :math:`\frac{1}{\sum w}\sum_i w_i\,|\{l : s_{il} \ge \min_{m \in Y_i} s_{im}\}|` (0 for rows with no true label;
    ``sklearn.metrics.coverage_error``)."""
    if not _needs_scores(s, "Coverage error"):
        return float("nan")
    return ratio(s.row("coverage"), s.weight_sum, batch=s.batch, reason="no rows with nonzero weight")


def label_ranking_average_precision(s):
    r"""Label ranking average precision (``sklearn.metrics.label_ranking_average_precision_score``):

    .. math:: \frac{1}{\sum w}\sum_i w_i \frac{1}{|Y_i|}\sum_{l \in Y_i}
              \frac{|\{m \in Y_i : s_{im} \ge s_{il}\}|}{|\{m : s_{im} \ge s_{il}\}|}

    Rows whose true set is empty or complete count as 1, as in scikit-learn.
    """
    if not _needs_scores(s, "Label ranking average precision"):
        return float("nan")
    return ratio(s.row("lrap"), s.weight_sum, batch=s.batch, reason="no rows with nonzero weight")


def label_ranking_loss(s):
    r"""Ranking loss (``sklearn.metrics.label_ranking_loss``): per row the share of (true, false) label pairs ordered
    wrongly (false scored >= true), :math:`\frac{|\{(r, f) : s_f \ge s_r\}|}{|Y_i|\,(L - |Y_i|)}`; 0 for rows whose true
    set is empty or complete; weighted mean over rows."""
    if not _needs_scores(s, "Label ranking loss"):
        return float("nan")
    return ratio(s.row("rloss"), s.weight_sum, batch=s.batch, reason="no rows with nonzero weight")


def kl_divergence(s):
    r"""KL divergence between the true and predicted label distributions (ISO 4213 6.5.5), in nats:

    .. math:: D_{KL}(P\,\|\,Q) = \sum_l P(l)\ln\frac{P(l)}{Q(l)},\quad
              P(l) = \frac{\sum_i w_i[l \in Y_i]}{\sum_i w_i |Y_i|},\;
              Q(l) = \frac{\sum_i w_i[l \in \hat Y_i]}{\sum_i w_i |\hat Y_i|}

    i.e. the share of each label among all true (resp. predicted) label assignments. A label that is true somewhere
    but never predicted makes it infinite: NaN with that reason, no smoothing.
    """
    t = s.cell("tp") + s.cell("fn")
    p = s.cell("tp") + s.cell("fp")
    tt = t.sum(axis=-1)[..., None]
    pt = p.sum(axis=-1)[..., None]
    if not s.batch and float(np.asarray(pt).ravel()[0]) == 0 and float(np.asarray(tt).ravel()[0]) > 0:
        note_undefined(False, f"no label predicted {s.labels_from}: the predicted label distribution is empty")
        return float("nan")
    return binary.kl_from_counts(t, p, tt, np.where(pt > 0, pt, 1.0), batch=s.batch, names=s.labels,
                             labels_from=s.labels_from)


def per_label_roc_auc(s):
    """ROC AUC per label (point state), NaN for a label that is always or never true."""
    out = np.full(s.L, np.nan)
    for j, c in enumerate(s.per_label or []):
        if c.n_pos > 0 and c.n_neg > 0:
            out[j] = curves.trapezoid_auc(c.tps, c.fps)
    return out


def per_label_average_precision(s):
    """Average precision per label (point state), NaN for a label that is never true."""
    out = np.full(s.L, np.nan)
    for j, c in enumerate(s.per_label or []):
        if c.n_pos > 0:
            out[j] = binary.batch_average_precision(c.tps, c.fps)
    return out
