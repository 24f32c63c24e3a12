r"""Clustering indices from one contingency table (external) and from the feature columns (internal).

External indices compare the cluster codes with reference classes. Every one is a formula over the contingency
table :math:`N = (n_{ij})` of classes :math:`i` × clusters :math:`j`, built with **one** ``np.bincount`` of
``class * C + cluster``; with row sums :math:`a_i`, column sums :math:`b_j` and :math:`n = \sum_{ij} n_{ij}`:

- pair counts (ordered pairs, as ``sklearn.metrics.cluster.pair_confusion_matrix``):
  :math:`T_P = \sum n_{ij}^2 - n`, :math:`F_P = \sum_j b_j^2 - \sum n_{ij}^2` (same cluster, other class),
  :math:`F_N = \sum_i a_i^2 - \sum n_{ij}^2`, :math:`T_N = n^2 - \sum a_i^2 - \sum b_j^2 + \sum n_{ij}^2`;
  Rand (1971) index, Hubert & Arabie (1985) adjusted Rand index, Fowlkes & Mallows (1983) index;
- entropies and mutual information (natural log): homogeneity, completeness, V-measure (Rosenberg & Hirschberg
  2007), normalized and adjusted mutual information (Vinh, Epps & Bailey 2010; arithmetic mean of the entropies);
- purity :math:`\frac1n\sum_j \max_i n_{ij}` (each cluster counted with its majority class, reference 001 §3.3) and
  inverse purity :math:`\frac1n\sum_i \max_j n_{ij}` (each class with the cluster holding most of it).

Every formula takes a table of shape ``(R, C)`` or a batch ``(B, R, C)`` of resampled tables, so the bootstrap is a
multinomial draw over the cells and one vectorised evaluation (:func:`bootstrap_external`). The degenerate cases
follow scikit-learn 1.9 (one class and one cluster: a perfect match, 1.0; FMI 0 without a pair in one cluster).

Internal indices (silhouette, Davies–Bouldin, Calinski–Harabasz) read the feature columns ``x_*``. The silhouette is
O(n²): up to :data:`SILHOUETTE_EXACT_ROWS` rows it is exact, above it the mean over :data:`SILHOUETTE_REPEATS`
seeded samples of :data:`SILHOUETTE_SAMPLE` rows, whose spread gives its interval (said beside the number).

The random baseline is a random partition with the same cluster sizes (the permutation model of Hubert & Arabie):
its expected ARI and AMI are 0 by construction, its expected Rand index and mutual information are computed in
closed form (:func:`expected_rand_index`, :func:`expected_mutual_information`), and the other indices are the mean
over seeded random tables with the same margins (:func:`random_tables`).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
from scipy import special, stats

from assess.core.data import Predictions
from assess.intervals import IntervalMethod
from assess.metrics._common import note_undefined

__all__ = ["ClusteringState", "clustering_state", "contingency_table", "expected_mutual_information",
           "expected_rand_index", "silhouette_samples", "random_tables", "bootstrap_external", "EXTERNAL_KEYS",
           "INTERNAL_KEYS", "check_clustering"]

#: Up to this many rows the silhouette is exact (an n × n distance matrix in chunks).
SILHOUETTE_EXACT_ROWS = 10_000
#: Above it: the mean of this many seeded samples of SILHOUETTE_SAMPLE rows (sklearn's ``sample_size``).
SILHOUETTE_SAMPLE = 4_000
SILHOUETTE_REPEATS = 10
#: Most cells of a contingency table (classes × clusters); beyond it the external indices are refused.
MAX_TABLE_CELLS = 20_000_000
#: Rows per chunk of the distance matrix (rows × n distances at a time).
_CHUNK_DISTANCES = 4_000_000
#: Random tables averaged for the baseline of indices without a closed form.
BASELINE_TABLES = 200

EXTERNAL_KEYS = ("rand_index", "adjusted_rand_index", "purity", "inverse_purity", "homogeneity", "completeness",
                 "v_measure", "adjusted_mutual_info", "normalized_mutual_info", "fowlkes_mallows")
INTERNAL_KEYS = ("silhouette", "davies_bouldin", "calinski_harabasz")

NO_REFERENCE = "needs reference classes (`y_true`), which the file does not have"
NO_FEATURES = "needs feature columns `x_*` (numeric), which the file does not have"


# ---------------------------------------------------------------------------------------------------- the state

@dataclass(frozen=True, eq=False)
class ClusteringState:
    """What every clustering index reads.

    ``table`` is the (classes × clusters) contingency table of the rows with a reference class, or a batch
    ``(B, R, C)`` of resampled tables (``batch``); None without reference classes (``external_reason`` says why).
    ``internal`` holds the internal indices' values (computed once, from the features), ``internal_reason`` why
    they are undefined, ``notes`` a caveat per key (the sampled silhouette). ``silhouettes`` are the per-row
    silhouettes (exact case) and ``labels``/``features`` the rows the internal indices used.
    """

    table: np.ndarray | None
    batch: bool = False
    external_reason: str | None = None
    internal: dict = field(default_factory=dict)
    internal_reason: dict = field(default_factory=dict)
    notes: dict = field(default_factory=dict)
    silhouette_interval: tuple | None = None
    silhouettes: np.ndarray | None = None
    features: np.ndarray | None = None
    labels: np.ndarray | None = None

    def with_table(self, table: np.ndarray) -> ClusteringState:
        """A batch state over resampled tables (B, R, C)."""
        return ClusteringState(table, batch=True)


def check_clustering(pred: Predictions):
    """Validate clustering predictions at the boundary; returns the weights (or None).

    ``y_pred`` holds integer cluster codes ≥ 0 (one per row); ``y_true`` (optional) integer class codes, −1 where a
    row has no reference class; ``features`` (optional) a float (n, d) array.
    """
    from assess.metrics._common import check_weight

    if pred.y_pred is None:
        raise ValueError("`pred.y_pred` is missing; clustering indices need the cluster of every row")
    yp = np.asarray(pred.y_pred)
    if yp.ndim != 1 or yp.dtype.kind not in "iu":
        raise ValueError(f"`y_pred` must be integer cluster codes of shape (n,) (got {yp.dtype} {yp.shape})")
    n = yp.shape[0]
    if n == 0:
        raise ValueError("`pred.y_pred` is empty (0 rows); nothing to assess")
    if (yp < 0).any():
        i = int(np.flatnonzero(yp < 0)[0])
        bad = int((yp < 0).sum())
        raise ValueError(f"`y_pred` has {bad:,} row{'s' if bad != 1 else ''} without a cluster (first at row {i})")
    if pred.y_true is not None:
        y = np.asarray(pred.y_true)
        if y.shape != (n,) or y.dtype.kind not in "iu":
            raise ValueError(f"`y_true` must be integer class codes of shape ({n},) (got {y.dtype} {y.shape})")
    features = getattr(pred, "features", None)
    if features is not None and np.asarray(features).shape[0] != n:
        raise ValueError(f"`features` must have {n} rows like `y_pred` (got {np.asarray(features).shape[0]})")
    return check_weight(pred.weight, n)


def contingency_table(y_true: np.ndarray, y_pred: np.ndarray, n_classes: int, n_clusters: int,
                      weight: np.ndarray | None = None) -> np.ndarray:
    """The (n_classes × n_clusters) table of (weighted) counts, from one ``np.bincount`` of ``class·C + cluster``.

    >>> contingency_table(np.array([0, 0, 1, 1]), np.array([0, 1, 1, 1]), 2, 2)
    array([[1., 1.],
           [0., 2.]])
    """
    cells = np.asarray(y_true, dtype=np.int64) * n_clusters + np.asarray(y_pred, dtype=np.int64)
    return np.bincount(cells, weights=weight, minlength=n_classes * n_clusters).astype(np.float64).reshape(
        n_classes, n_clusters)


def clustering_state(pred: Predictions, weight: np.ndarray | None = None, *, internal: bool = True, seed=0,
                     confidence_level: float = 0.95) -> ClusteringState:
    """The contingency table of ``pred`` (rows with a reference class) and, with ``internal``, the internal
    indices from ``pred.features``; ``seed`` seeds the silhouette's samples on large files."""
    yp = np.asarray(pred.y_pred, dtype=np.int64)
    n_clusters = int(yp.max()) + 1
    table, reason = None, NO_REFERENCE
    if pred.y_true is not None:
        y = np.asarray(pred.y_true, dtype=np.int64)
        known = y >= 0
        n_classes = max(len(pred.classes), int(y.max()) + 1 if known.any() else 0)
        if not known.any():
            reason = "needs reference classes, and no row has one (`y_true` is empty)"
        elif n_classes * n_clusters > MAX_TABLE_CELLS:
            reason = (f"the contingency table of {n_classes:,} classes × {n_clusters:,} clusters would have more "
                      f"than {MAX_TABLE_CELLS:,} cells")
        else:
            w = None if weight is None else weight[known]
            table = contingency_table(y[known], yp[known], n_classes, n_clusters, w)
            reason = None
    found = _internal_indices(pred, yp, seed=seed, confidence_level=confidence_level) if internal else {}
    return ClusteringState(table, external_reason=reason, **found)


# ------------------------------------------------------------------------------------------- external: formulas

def _table(s: ClusteringState, key: str):
    if s.table is None:
        note_undefined(s.batch, s.external_reason or NO_REFERENCE)
        return None
    return s.table


def _margins(t: np.ndarray):
    a, b = t.sum(axis=-1), t.sum(axis=-2)
    return a, b, a.sum(axis=-1)


def _present(counts: np.ndarray) -> np.ndarray:
    """How many classes (or clusters) have a row: empty ones do not count (as ``np.unique`` in scikit-learn)."""
    return (counts > 0).sum(axis=-1)


def _pair_counts(t: np.ndarray):
    """Ordered pairs (T_P, F_P, F_N, T_N) of ``sklearn.metrics.cluster.pair_confusion_matrix`` (see the module)."""
    a, b, n = _margins(t)
    sq = (t * t).sum(axis=(-2, -1))
    sa, sb = (a * a).sum(axis=-1), (b * b).sum(axis=-1)
    return sq - n, sb - sq, sa - sq, n * n - sa - sb + sq


def _where(condition, value, other):
    out = np.where(condition, value, other)
    return float(out) if np.ndim(out) == 0 else out


def rand_index(s: ClusteringState):
    r"""Rand index: share of pairs on which clusters and classes agree,
    :math:`(T_P + T_N)/(n(n-1))`; 1.0 with fewer than 2 rows (sklearn ``rand_score``)."""
    t = _table(s, "rand_index")
    if t is None:
        return np.nan
    tp, fp, fn, tn = _pair_counts(t)
    total = tp + fp + fn + tn
    with np.errstate(invalid="ignore", divide="ignore"):
        return _where((total == 0) | (tp + tn == total), 1.0, (tp + tn) / np.where(total == 0, 1, total))


def adjusted_rand_index(s: ClusteringState):
    r"""Adjusted Rand index (Hubert & Arabie 1985): the Rand index corrected for chance,
    :math:`\frac{2(T_P T_N - F_N F_P)}{(T_P+F_N)(F_N+T_N) + (T_P+F_P)(F_P+T_N)}`; 1.0 when no pair disagrees."""
    t = _table(s, "adjusted_rand_index")
    if t is None:
        return np.nan
    tp, fp, fn, tn = _pair_counts(t)
    den = (tp + fn) * (fn + tn) + (tp + fp) * (fp + tn)
    with np.errstate(invalid="ignore", divide="ignore"):
        return _where((fn == 0) & (fp == 0), 1.0, 2.0 * (tp * tn - fn * fp) / np.where(den == 0, 1, den))


def fowlkes_mallows(s: ClusteringState):
    r"""Fowlkes–Mallows index: geometric mean of pair precision and pair recall,
    :math:`T_P / \sqrt{(T_P + F_P)(T_P + F_N)}`; 0 when no pair shares both a class and a cluster."""
    t = _table(s, "fowlkes_mallows")
    if t is None:
        return np.nan
    tp, fp, fn, _ = _pair_counts(t)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = tp / np.where(tp != 0, tp + fp, 1)
        recall = tp / np.where(tp != 0, tp + fn, 1)
        return _where(tp != 0, np.sqrt(precision) * np.sqrt(recall), 0.0)


def purity(s: ClusteringState):
    r"""Purity :math:`\frac1n\sum_j \max_i n_{ij}`: each cluster labelled with its majority class, the share of rows
    of that class (reference 001 §3.3, purity of a cluster weighted by its size)."""
    t = _table(s, "purity")
    if t is None:
        return np.nan
    n = t.sum(axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return _where(n > 0, t.max(axis=-2).sum(axis=-1) / np.where(n > 0, n, 1), np.nan)


def inverse_purity(s: ClusteringState):
    r"""Inverse purity :math:`\frac1n\sum_i \max_j n_{ij}`: each class matched with the cluster holding most of it."""
    t = _table(s, "inverse_purity")
    if t is None:
        return np.nan
    n = t.sum(axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return _where(n > 0, t.max(axis=-1).sum(axis=-1) / np.where(n > 0, n, 1), np.nan)


def _entropy(counts: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Entropy (nats) of the distribution ``counts / n`` along the last axis."""
    p = counts / np.where(n > 0, n, 1)[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        return -np.where(p > 0, p * np.log(np.where(p > 0, p, 1)), 0.0).sum(axis=-1)


def _information(t: np.ndarray):
    """(H(classes), H(clusters), MI, classes present, clusters present); MI clipped at 0 and exactly 0 with a single
    class or cluster, as in scikit-learn."""
    a, b, n = _margins(t)
    h_c, h_k = _entropy(a, n), _entropy(b, n)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = t * n[..., None, None] / (a[..., :, None] * b[..., None, :])
        mi = np.where(t > 0, t / np.where(n > 0, n, 1)[..., None, None] * np.log(np.where(t > 0, ratio, 1)), 0.0)
    mi = np.clip(mi.sum(axis=(-2, -1)), 0.0, None)
    r, c = _present(a), _present(b)
    mi = np.where((r <= 1) | (c <= 1), 0.0, mi)
    return h_c, h_k, mi, r, c


def homogeneity(s: ClusteringState):
    r"""Homogeneity :math:`I(C;K)/H(C)`: each cluster holds rows of one class only at 1; 1.0 for a single class."""
    t = _table(s, "homogeneity")
    if t is None:
        return np.nan
    h_c, _, mi, _, _ = _information(t)
    with np.errstate(invalid="ignore", divide="ignore"):
        return _where(h_c > 0, mi / np.where(h_c > 0, h_c, 1), 1.0)


def completeness(s: ClusteringState):
    r"""Completeness :math:`I(C;K)/H(K)`: all rows of a class in one cluster at 1; 1.0 for a single cluster."""
    t = _table(s, "completeness")
    if t is None:
        return np.nan
    _, h_k, mi, _, _ = _information(t)
    with np.errstate(invalid="ignore", divide="ignore"):
        return _where(h_k > 0, mi / np.where(h_k > 0, h_k, 1), 1.0)


def v_measure(s: ClusteringState):
    r"""V-measure: harmonic mean of homogeneity and completeness, :math:`2hc/(h + c)` (0 when both are 0)."""
    t = _table(s, "v_measure")
    if t is None:
        return np.nan
    h_c, h_k, mi, _, _ = _information(t)   # once: homogeneity() and completeness() would each recompute it
    with np.errstate(invalid="ignore", divide="ignore"):
        h = _where(h_c > 0, mi / np.where(h_c > 0, h_c, 1), 1.0)
        c = _where(h_k > 0, mi / np.where(h_k > 0, h_k, 1), 1.0)
        return _where(h + c == 0, 0.0, 2 * h * c / np.where(h + c == 0, 1, h + c))


def normalized_mutual_info(s: ClusteringState):
    r"""Normalized mutual information :math:`I(C;K) / \tfrac12(H(C) + H(K))`; 1.0 for one class and one cluster,
    0 when the mutual information is 0."""
    t = _table(s, "normalized_mutual_info")
    if t is None:
        return np.nan
    h_c, h_k, mi, r, c = _information(t)
    norm = (h_c + h_k) / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        value = np.where(mi == 0, 0.0, mi / np.where(norm > 0, norm, 1))
    return _where(((r == 1) & (c == 1)) | ((r == 0) & (c == 0)), 1.0, value)


def adjusted_mutual_info(s: ClusteringState):
    r"""Adjusted mutual information (Vinh et al. 2010):
    :math:`\frac{I - E[I]}{\tfrac12(H(C)+H(K)) - E[I]}` with :math:`E[I]` under random partitions of the same sizes
    (:func:`expected_mutual_information`); 1.0 for one class and one cluster, 0 when either is single."""
    t = _table(s, "adjusted_mutual_info")
    if t is None:
        return np.nan
    h_c, h_k, mi, r, c = _information(t)
    a, b, n = _margins(t)
    emi = expected_mutual_information(a, b, n)
    eps = np.finfo(np.float64).eps
    den = (h_c + h_k) / 2 - emi
    den = np.where(den < 0, np.minimum(den, -eps), np.maximum(den, eps))
    num = mi - emi
    num = np.where(num < 0, np.minimum(num, -eps), np.maximum(num, eps))
    value = np.where((r == 1) | (c == 1), 0.0, num / den)
    return _where(((r == 1) & (c == 1)) | ((r == 0) & (c == 0)), 1.0, value)


#: Terms of the hypergeometric sum kept either side of its mean, in standard deviations (plus a fixed margin): the
#: terms left out are below exp(−1000) of the largest, so the sum is exact in float64.
_EMI_SPREAD, _EMI_MARGIN = 50.0, 60.0
_EMI_CHUNK = 10_000_000


def expected_mutual_information(a, b, n) -> np.ndarray | float:
    r"""Expected mutual information of two random partitions with class sizes ``a`` and cluster sizes ``b``
    (the permutation model; Vinh, Epps & Bailey 2010, eq. 24a):

    .. math:: E[I] = \sum_i\sum_j \sum_{k} \frac{k}{n}\ln\frac{n k}{a_i b_j}
              \frac{a_i!\,b_j!\,(n-a_i)!\,(n-b_j)!}{n!\,k!\,(a_i-k)!\,(b_j-k)!\,(n-a_i-b_j+k)!}

    over :math:`k = \max(1, a_i + b_j - n) … \min(a_i, b_j)`, the hypergeometric probabilities from ``gammaln``.
    Vectorised over every cell (and a leading batch axis: ``a`` (…, R), ``b`` (…, C), ``n`` (…)); only the terms
    within 50 standard deviations of each cell's mean are summed — the rest are below float64 resolution — so a
    1e7-row table costs O(R·C·√n), not O(R·C·n).
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    shape = np.broadcast_shapes(a.shape[:-1], b.shape[:-1], n.shape)
    A = np.broadcast_to(a.reshape(a.shape[:-1] + (-1, 1)), shape + (a.shape[-1], b.shape[-1])).ravel()
    B = np.broadcast_to(b.reshape(b.shape[:-1] + (1, -1)), shape + (a.shape[-1], b.shape[-1])).ravel()
    N = np.broadcast_to(n.reshape(n.shape + (1, 1)), shape + (a.shape[-1], b.shape[-1])).ravel()
    cells = A.size
    lo = np.maximum(1.0, A + B - N)
    hi = np.minimum(A, B)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = A * B / np.where(N > 0, N, 1)
        sd = np.sqrt(np.maximum(A * B * (N - A) * (N - B) / np.where(N > 1, N * N * (N - 1), 1), 0.0))
    width = _EMI_SPREAD * sd + _EMI_MARGIN
    lo = np.maximum(lo, np.floor(mean - width))
    hi = np.minimum(hi, np.ceil(mean + width))
    lengths = np.where((A > 0) & (B > 0), np.maximum(hi - lo + 1, 0), 0).astype(np.int64)
    const = special.gammaln(A + 1) + special.gammaln(B + 1) + special.gammaln(N - A + 1) + special.gammaln(N - B + 1) \
        - special.gammaln(N + 1)
    emi = np.zeros(cells)
    ends = np.cumsum(lengths)
    start = 0
    while start < cells:  # chunks of cells holding at most _EMI_CHUNK terms (memory)
        stop = int(np.searchsorted(ends, (ends[start - 1] if start else 0) + _EMI_CHUNK, side="right"))
        stop = max(stop, start + 1)
        ln = lengths[start:stop]
        total = int(ln.sum())
        if total:
            cell = np.repeat(np.arange(start, stop), ln)
            offset = np.arange(total) - np.repeat(np.cumsum(ln) - ln, ln)
            k = lo[cell] + offset
            Ac, Bc, Nc = A[cell], B[cell], N[cell]
            log_p = const[cell] - special.gammaln(k + 1) - special.gammaln(Ac - k + 1) - special.gammaln(Bc - k + 1) \
                - special.gammaln(Nc - Ac - Bc + k + 1)
            term = k / Nc * (np.log(Nc) + np.log(k) - np.log(Ac) - np.log(Bc)) * np.exp(log_p)
            emi[start:stop] = np.bincount(cell - start, term, minlength=stop - start)
        start = stop
    out = emi.reshape(shape + (-1,)).sum(axis=-1)
    return float(out) if out.ndim == 0 else out


def expected_rand_index(a, b, n) -> float:
    r"""Expected Rand index of a random partition with the same cluster sizes (permutation model):
    with :math:`P_a = \sum_i\binom{a_i}{2}`, :math:`P_b = \sum_j\binom{b_j}{2}`, :math:`P = \binom n2`,
    :math:`E[\sum\binom{n_{ij}}{2}] = P_a P_b / P` (Hubert & Arabie 1985) and
    :math:`E[RI] = 1 - (P_a + P_b)/P + 2 P_a P_b / P^2`. Not 0: with 3 equal classes and clusters it is near 5/9.

    >>> round(expected_rand_index([50, 50, 50], [50, 50, 50], 150), 4)
    0.5548
    """
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    pa, pb, p = (a * (a - 1)).sum() / 2, (b * (b - 1)).sum() / 2, n * (n - 1) / 2
    if p == 0:
        return 1.0
    return float(1 - (pa + pb) / p + 2 * pa * pb / (p * p))


# --------------------------------------------------------------------------------------- intervals and baselines

def bootstrap_external(table: np.ndarray, keys, *, n_resamples: int, confidence_level: float, seed,
                       chunk_cells: int = 20_000_000) -> dict[str, tuple[float, float, int]]:
    r"""Percentile bootstrap intervals of external indices: resampling the n rows i.i.d. gives tables
    :math:`\sim \mathrm{Multinomial}(n, N/n)` over the cells, drawn directly (``Generator.multinomial``, seeded) and
    evaluated as one batch per chunk. Returns {key: (low, high, undefined resamples)}."""
    n = int(round(table.sum()))
    p = (table / table.sum()).ravel()
    rng = np.random.default_rng(seed)
    per = max(1, min(n_resamples, chunk_cells // max(p.size, 1)))
    est = {k: [] for k in keys}
    done = 0
    while done < n_resamples:
        bb = min(per, n_resamples - done)
        batch = rng.multinomial(n, p, size=bb).astype(np.float64).reshape((bb,) + table.shape)
        state = ClusteringState(batch, batch=True)
        with np.errstate(all="ignore"):
            for k in keys:
                est[k].append(np.asarray(EXTERNAL[k](state), dtype=np.float64).reshape(bb))
        done += bb
    alpha = 1 - confidence_level
    out = {}
    for k in keys:
        v = np.concatenate(est[k])
        ok = v[np.isfinite(v)]
        if ok.size == 0:
            out[k] = (np.nan, np.nan, int(v.size))
            continue
        lo, hi = np.quantile(ok, [alpha / 2, 1 - alpha / 2])
        out[k] = (float(lo), float(hi), int(v.size - ok.size))
    return out


def random_tables(table: np.ndarray, count: int, seed) -> np.ndarray:
    """``count`` tables of random partitions with the same class and cluster sizes as ``table`` (integer counts):
    the rows of each class drawn without replacement from the pool of cluster slots (multivariate hypergeometric,
    seeded) — the same as permuting the cluster labels over the rows."""
    t = np.rint(table).astype(np.int64)
    a, b = t.sum(axis=1), t.sum(axis=0)
    rng = np.random.default_rng(seed)
    out = np.zeros((count,) + t.shape, dtype=np.float64)
    for r in range(count):
        remaining = b.copy()
        for i in np.flatnonzero(a):
            row = rng.multivariate_hypergeometric(remaining, int(a[i]))
            out[r, i] = row
            remaining -= row
    return out


def random_baselines(state: ClusteringState, keys, *, seed) -> tuple[dict[str, float], str]:
    """The external indices of a random partition with the same cluster sizes: closed forms for the Rand index
    (:func:`expected_rand_index`), ARI and AMI (0 by construction), the mean of :data:`BASELINE_TABLES` seeded random
    tables for the others; with the sentence that says so."""
    t = state.table
    keys = [k for k in keys if k in EXTERNAL]
    if t is None or not keys:
        return {}, ""
    a, b, n = _margins(t)
    out = {}
    simulated = [k for k in keys if k not in ("rand_index", "adjusted_rand_index", "adjusted_mutual_info")]
    if simulated:
        tables = random_tables(t, BASELINE_TABLES if t.size <= 10_000 else 20, seed)
        batch = ClusteringState(tables, batch=True)
        with np.errstate(all="ignore"):
            for k in simulated:
                out[k] = float(np.nanmean(EXTERNAL[k](batch)))
    if "rand_index" in keys:
        out["rand_index"] = expected_rand_index(a, b, float(n))
    for k in ("adjusted_rand_index", "adjusted_mutual_info"):
        if k in keys:
            out[k] = 0.0
    how = ("a random partition with the same cluster sizes (permutation model): the expected Rand index in closed "
           "form, ARI and AMI 0 by construction"
           + (f", the others the mean of {BASELINE_TABLES if t.size <= 10_000 else 20} seeded random partitions"
              if simulated else ""))
    return out, how


# ------------------------------------------------------------------------------------------------- internal

def silhouette_samples(X: np.ndarray, labels: np.ndarray) -> np.ndarray:
    r"""Per-row silhouette (Rousseeuw 1987; reference 001 §3.3), Euclidean distances:
    :math:`s_i = (b_i - a_i)/\max(a_i, b_i)` with :math:`a_i` the mean distance to the other rows of its cluster
    and :math:`b_i` the smallest mean distance to the rows of another cluster; 0 for a row alone in its cluster
    (as ``sklearn.metrics.silhouette_samples``). Distances in chunks of rows (``cdist``), summed per cluster by a
    matrix product with the one-hot cluster matrix: O(n²·d) time, O(n) memory per chunk row."""
    from scipy.spatial.distance import cdist  # here, not at the top: scipy.spatial loads on first use
    X = np.asarray(X, dtype=np.float64)
    _, codes = np.unique(labels, return_inverse=True)
    k = int(codes.max()) + 1
    n = X.shape[0]
    onehot = np.zeros((n, k))
    onehot[np.arange(n), codes] = 1.0
    sizes = onehot.sum(axis=0)
    out = np.empty(n)
    step = max(1, _CHUNK_DISTANCES // max(n, 1))
    for start in range(0, n, step):
        stop = min(n, start + step)
        sums = cdist(X[start:stop], X) @ onehot            # (m, k) distance sums per cluster
        own = codes[start:stop]
        rows = np.arange(stop - start)
        with np.errstate(divide="ignore", invalid="ignore"):
            a = sums[rows, own] / (sizes[own] - 1)
            means = sums / sizes
        means[rows, own] = np.inf
        b = means.min(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            s = (b - a) / np.maximum(a, b)
        out[start:stop] = np.where(sizes[own] > 1, np.nan_to_num(s), 0.0)
    return out


def davies_bouldin_index(X: np.ndarray, labels: np.ndarray) -> float:
    r"""Davies–Bouldin index (lower is better): the mean over clusters of
    :math:`\max_{j\ne i} (s_i + s_j)/d(c_i, c_j)`, :math:`s_i` the mean distance of a cluster's rows to its centroid
    :math:`c_i`; 0 when every :math:`s_i` or every centroid distance is 0 (as scikit-learn)."""
    from scipy.spatial.distance import cdist  # here, not at the top: scipy.spatial loads on first use
    X = np.asarray(X, dtype=np.float64)
    _, codes = np.unique(labels, return_inverse=True)
    k = int(codes.max()) + 1
    sizes = np.bincount(codes, minlength=k).astype(np.float64)
    centroids = np.stack([np.bincount(codes, X[:, d], minlength=k) for d in range(X.shape[1])], axis=1) / sizes[:, None]
    spread = np.bincount(codes, np.linalg.norm(X - centroids[codes], axis=1), minlength=k) / sizes
    between = cdist(centroids, centroids)
    if np.allclose(spread, 0) or np.allclose(between, 0):
        return 0.0
    between[between == 0] = np.inf
    return float(np.mean(np.max((spread[:, None] + spread[None, :]) / between, axis=1)))


def calinski_harabasz_index(X: np.ndarray, labels: np.ndarray) -> float:
    r"""Calinski–Harabasz index (higher is better):
    :math:`\frac{\sum_k n_k\|c_k - c\|^2/(K-1)}{\sum_k\sum_{i\in k}\|x_i - c_k\|^2/(n-K)}`; 1.0 when every cluster
    is a single point repeated (no spread within, as scikit-learn)."""
    X = np.asarray(X, dtype=np.float64)
    _, codes = np.unique(labels, return_inverse=True)
    k = int(codes.max()) + 1
    n = X.shape[0]
    sizes = np.bincount(codes, minlength=k).astype(np.float64)
    centroids = np.stack([np.bincount(codes, X[:, d], minlength=k) for d in range(X.shape[1])], axis=1) / sizes[:, None]
    mean = X.mean(axis=0)
    between = float((sizes * ((centroids - mean) ** 2).sum(axis=1)).sum())
    within = float(((X - centroids[codes]) ** 2).sum())
    return 1.0 if within == 0 else between * (n - k) / (within * (k - 1))


def _internal_indices(pred: Predictions, clusters: np.ndarray, *, seed, confidence_level: float) -> dict:
    """The :class:`ClusteringState` fields of the internal indices of the feature rows: their values, or the
    reason they are undefined."""
    features = getattr(pred, "features", None)
    if features is None or np.asarray(features).size == 0:
        return {"internal_reason": dict.fromkeys(INTERNAL_KEYS, NO_FEATURES)}
    X = np.asarray(features, dtype=np.float64)
    finite = np.isfinite(X).all(axis=1)
    if not finite.all():
        bad = int((~finite).sum())
        return {"internal_reason": dict.fromkeys(INTERNAL_KEYS, (
            f"{bad:,} of {X.shape[0]:,} rows have a missing, infinite or non-numeric feature; internal indices need "
            "every feature of every row (validation names the rows)"))}
    n = X.shape[0]
    k = len(np.unique(clusters))
    if not 2 <= k <= n - 1:
        return {"internal_reason": dict.fromkeys(INTERNAL_KEYS, (
            f"internal indices need between 2 and n − 1 = {n - 1:,} clusters (got {k:,}): with one cluster there is "
            "nothing to separate, with one row per cluster nothing to compare"))}
    found = {"features": X, "labels": clusters,
             "internal": {"davies_bouldin": davies_bouldin_index(X, clusters),
                          "calinski_harabasz": calinski_harabasz_index(X, clusters)}}
    if n <= SILHOUETTE_EXACT_ROWS:
        s = silhouette_samples(X, clusters)
        found["internal"]["silhouette"] = float(s.mean())
        return found | {"silhouettes": s}
    value, low, high, _ = sampled_silhouette(X, clusters, seed=seed, confidence_level=confidence_level)
    found["internal"]["silhouette"] = value
    note = (f"estimated from {SILHOUETTE_REPEATS} seeded samples of {SILHOUETTE_SAMPLE:,} of the {n:,} rows (seed "
            f"{seed}): their mean; the interval is the t-interval of that mean over the {SILHOUETTE_REPEATS} samples "
            f"(exact up to {SILHOUETTE_EXACT_ROWS:,} rows)")
    return found | {"silhouette_interval": (low, high), "notes": {"silhouette": note}}


def sampled_silhouette(X: np.ndarray, labels: np.ndarray, *, seed=0, confidence_level: float = 0.95,
                       size: int | None = None, repeats: int | None = None):
    r"""The silhouette of a large file: the mean of ``repeats`` silhouettes, each of a seeded sample of ``size`` rows
    drawn without replacement (``sklearn.metrics.silhouette_score(sample_size=...)``), with the t-interval
    :math:`\bar s \pm t_{r-1}\,\mathrm{sd}/\sqrt r` of that mean. Returns (mean, low, high, the r values). A
    sample with a single cluster is drawn again (up to 3 times). Defaults: :data:`SILHOUETTE_SAMPLE` rows,
    :data:`SILHOUETTE_REPEATS` samples."""
    size = SILHOUETTE_SAMPLE if size is None else size
    repeats = SILHOUETTE_REPEATS if repeats is None else repeats
    rng = np.random.default_rng(seed)
    n = X.shape[0]
    values = []
    for _ in range(repeats):
        for _attempt in range(3):
            rows = rng.choice(n, size=min(size, n), replace=False)
            if len(np.unique(labels[rows])) >= 2:
                break
        values.append(float(silhouette_samples(X[rows], labels[rows]).mean()))
    v = np.array(values)
    mean = float(v.mean())
    half = float(stats.t.ppf(0.5 + confidence_level / 2, repeats - 1) * v.std(ddof=1) / np.sqrt(repeats))
    return mean, mean - half, mean + half, v


def internal_intervals(state: ClusteringState, keys, *, n_resamples: int, confidence_level: float, seed,
                       seed_label=None) -> dict[str, tuple[float, float, IntervalMethod]]:
    """Intervals of the internal indices: the sampled silhouette's t-interval (large files); otherwise a percentile
    bootstrap of rows — the mean of the per-row silhouettes (each from the full data), and Davies–Bouldin and
    Calinski–Harabasz recomputed on each resample (up to :data:`SILHOUETTE_EXACT_ROWS` rows)."""
    out = {}
    alpha = 1 - confidence_level
    label = seed if seed_label is None else seed_label
    if "silhouette" in keys and state.silhouette_interval is not None:
        low, high = state.silhouette_interval
        out["silhouette"] = (low, high, IntervalMethod("t-interval", samples=SILHOUETTE_REPEATS,
                                                       sample_rows=SILHOUETTE_SAMPLE, seed=label))
    X, labels = state.features, state.labels
    if X is None or X.shape[0] > SILHOUETTE_EXACT_ROWS:
        return out
    n = X.shape[0]
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, n, size=(n_resamples, n))
    if "silhouette" in keys and state.silhouettes is not None:
        v = state.silhouettes[rows].mean(axis=1)
        lo, hi = np.quantile(v, [alpha / 2, 1 - alpha / 2])
        out["silhouette"] = (float(lo), float(hi), IntervalMethod(
            "bootstrap-percentile", of="mean per-row silhouette", n_resamples=n_resamples, seed=label,
            detail="each row's silhouette from the full data"))
    wanted = [key for key in ("davies_bouldin", "calinski_harabasz") if key in keys]
    if wanted:
        counts = np.zeros((n_resamples, n))
        np.add.at(counts, (np.repeat(np.arange(n_resamples), n), rows.ravel()), 1.0)
        found = _resampled_internal(X, labels, counts)
        for key in wanted:
            v = found[key]
            ok = v[np.isfinite(v)]
            if ok.size:
                lo, hi = np.quantile(ok, [alpha / 2, 1 - alpha / 2])
                out[key] = (float(lo), float(hi), IntervalMethod("bootstrap-percentile", n_resamples=n_resamples,
                                                                 seed=label, rows="i.i.d. rows, recomputed on each"))
    return out


def _resampled_internal(X: np.ndarray, labels: np.ndarray, counts: np.ndarray, chunk: int = 100) -> dict:
    r"""Davies–Bouldin and Calinski–Harabasz of every resample at once: ``counts`` (B, n) says how often each row is
    drawn. Per cluster k: sizes :math:`N_{bk} = \sum_{i\in k} w_{bi}`, sums :math:`S_{bk} = \sum_{i\in k} w_{bi} x_i`
    (one matrix product each), centroids :math:`S/N`; CH from the weighted sums of squares, DB from each row's
    distance to its resampled centroid (:math:`\|x\|^2 - 2x\cdot c + \|c\|^2`, in chunks of resamples). The
    formulas and degenerate cases of :func:`calinski_harabasz_index` and :func:`davies_bouldin_index`; NaN for a
    resample with fewer than 2 clusters."""
    _, codes = np.unique(labels, return_inverse=True)
    k = int(codes.max()) + 1
    B, n = counts.shape
    sq = (X * X).sum(axis=1)
    members = [np.flatnonzero(codes == c) for c in range(k)]
    N = np.stack([counts[:, m].sum(axis=1) for m in members], axis=1)                       # (B, k)
    S = np.stack([counts[:, m] @ X[m] for m in members], axis=1)                            # (B, k, d)
    with np.errstate(divide="ignore", invalid="ignore"):
        C = S / N[:, :, None]
        total = counts.sum(axis=1)
        present = (N > 0).sum(axis=1)
        between = (np.where(N > 0, (S * S).sum(axis=2) / N, 0.0)).sum(axis=1) \
            - (S.sum(axis=1) ** 2).sum(axis=1) / total
        within = counts @ sq - np.where(N > 0, (S * S).sum(axis=2) / N, 0.0).sum(axis=1)
        ch = np.where(within <= 1e-12 * np.maximum(counts @ sq, 1), 1.0,
                      between * (total - present) / (within * (present - 1)))
    ch = np.where(present >= 2, ch, np.nan)
    spread = np.zeros((B, k))
    for start in range(0, B, chunk):
        stop = min(B, start + chunk)
        for c, m in enumerate(members):
            cent = np.nan_to_num(C[start:stop, c])                                          # (b, d)
            d2 = sq[m][:, None] - 2 * X[m] @ cent.T + (cent * cent).sum(axis=1)[None, :]    # (n_c, b)
            spread[start:stop, c] = (counts[start:stop, m] * np.sqrt(np.maximum(d2, 0.0)).T).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        spread = np.where(N > 0, spread / N, 0.0)
        valid = N > 0
        pair = valid[:, :, None] & valid[:, None, :]
        centroid_distance = np.sqrt(((np.nan_to_num(C)[:, :, None, :] - np.nan_to_num(C)[:, None, :, :]) ** 2)
                                    .sum(axis=3))                                           # (B, k, k)
        # scikit-learn: 0 when every spread or every centroid distance is (close to) 0; a zero distance counts as
        # infinitely far (ratio 0), the diagonal included
        flat = ~np.any(valid & (np.abs(spread) > 1e-8), axis=1) | ~np.any(pair & (centroid_distance > 1e-8),
                                                                          axis=(1, 2))
        ratio = (spread[:, :, None] + spread[:, None, :]) / np.where(centroid_distance == 0, np.inf,
                                                                     centroid_distance)
        worst = np.where(pair, ratio, -np.inf).max(axis=2)
        db = np.where(valid, worst, 0.0).sum(axis=1) / present
    db = np.where(present >= 2, np.where(flat, 0.0, db), np.nan)
    return {"davies_bouldin": db, "calinski_harabasz": ch}


def _internal(key):
    def compute(s: ClusteringState):
        if key in s.internal:
            return s.internal[key]
        note_undefined(s.batch, s.internal_reason.get(key, NO_FEATURES))
        return np.nan
    compute.__name__ = key
    compute.__doc__ = {"silhouette": silhouette_samples.__doc__, "davies_bouldin": davies_bouldin_index.__doc__,
                       "calinski_harabasz": calinski_harabasz_index.__doc__}[key]
    return compute


silhouette = _internal("silhouette")
davies_bouldin = _internal("davies_bouldin")
calinski_harabasz = _internal("calinski_harabasz")

#: The external formulas by key (the bootstrap and the baselines evaluate them on batches of tables).
EXTERNAL = {"rand_index": rand_index, "adjusted_rand_index": adjusted_rand_index, "purity": purity,
            "inverse_purity": inverse_purity, "homogeneity": homogeneity, "completeness": completeness,
            "v_measure": v_measure, "adjusted_mutual_info": adjusted_mutual_info,
            "normalized_mutual_info": normalized_mutual_info, "fowlkes_mallows": fowlkes_mallows}


def agreement(a: np.ndarray, b: np.ndarray) -> dict[str, float]:
    """Rand index and ARI between two clusterings of the same rows (codes ≥ 0): the SPEC's agreement of two
    clusterings, from one table of ``a`` × ``b``."""
    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    s = ClusteringState(contingency_table(a, b, int(a.max()) + 1, int(b.max()) + 1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {"rand_index": float(rand_index(s)), "adjusted_rand_index": float(adjusted_rand_index(s))}


def matching(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row (class) and column (cluster) orders that put the matching on the diagonal: clusters matched one-to-one
    to classes by the Hungarian algorithm on the counts (``scipy.optimize.linear_sum_assignment``, maximising the
    rows on the diagonal), the unmatched clusters after them by their majority class."""
    from scipy.optimize import linear_sum_assignment

    t = np.asarray(table, dtype=np.float64)
    rows, cols = linear_sum_assignment(-t)
    pairs = sorted(zip(rows, cols))
    row_order = [r for r, _ in pairs] + [r for r in range(t.shape[0]) if r not in set(rows)]
    col_order = [c for _, c in pairs]
    rest = [c for c in range(t.shape[1]) if c not in set(cols)]
    rank = {r: i for i, r in enumerate(row_order)}
    col_order += sorted(rest, key=lambda c: (rank[int(np.argmax(t[:, c]))], -t[:, c].sum()))
    return np.array(row_order, dtype=np.int64), np.array(col_order, dtype=np.int64)

if set(EXTERNAL) != set(EXTERNAL_KEYS):
    raise RuntimeError("EXTERNAL and EXTERNAL_KEYS must name the same indices")


# ------------------------------------------------------------------------------------ what the Clusters page draws

#: Most rows drawn in the silhouette plot and the 2-D projection (a seeded sample above it).
DRAWN_ROWS = 2_000


@dataclass(frozen=True)
class ClusterView:
    """What the Clusters page charts of one clustering: the contingency table ordered to show the matching
    (``table`` rows = ``classes``, columns = ``clusters``, None without reference classes), the cluster sizes
    (``sizes`` by ``all_clusters``), per-row silhouettes of the drawn rows (``silhouettes``, ``silhouette_labels``;
    their ``silhouette_mean``, and ``silhouette_note`` when they come from a sample) and the 2-D PCA projection of
    the features (``projection`` rows × 2, coloured by ``projection_clusters`` and ``projection_classes``;
    ``explained`` the share of variance of each axis), each None when the file lacks what it needs."""

    table: np.ndarray | None
    classes: tuple[str, ...]
    clusters: tuple[str, ...]
    sizes: np.ndarray
    all_clusters: tuple[str, ...]
    silhouettes: np.ndarray | None = None
    silhouette_labels: tuple[str, ...] | None = None
    silhouette_mean: float | None = None
    silhouette_note: str | None = None
    projection: np.ndarray | None = None
    projection_clusters: tuple[str, ...] | None = None
    projection_classes: tuple[str, ...] | None = None
    explained: tuple[float, float] | None = None


def cluster_view(pred: Predictions, *, seed: int = 0) -> ClusterView:
    """The :class:`ClusterView` of one clustering (validated with :func:`check_clustering`); seeded samples of
    :data:`DRAWN_ROWS` rows for the silhouette plot and the projection above that many rows."""
    check_clustering(pred)
    yp = np.asarray(pred.y_pred, dtype=np.int64)
    names = tuple(pred.clusters) or tuple(str(c) for c in range(int(yp.max()) + 1))
    sizes = np.bincount(yp, minlength=len(names)).astype(np.float64)
    state = clustering_state(pred, pred.weight, internal=False)
    table = classes = clusters = None
    if state.table is not None:
        keep_rows = state.table.sum(axis=1) > 0
        keep_cols = state.table.sum(axis=0) > 0
        t = state.table[keep_rows][:, keep_cols]
        class_names = np.array(pred.classes or [str(i) for i in range(state.table.shape[0])], dtype=object)[keep_rows]
        cluster_names = np.array(names, dtype=object)[keep_cols]
        rows, cols = matching(t)
        table, classes, clusters = t[rows][:, cols], tuple(class_names[rows]), tuple(cluster_names[cols])
    view = dict(table=table, classes=classes or (), clusters=clusters or (), sizes=sizes, all_clusters=names)
    features = pred.features
    if features is None or not np.isfinite(np.asarray(features, dtype=np.float64)).all():
        return ClusterView(**view)
    X = np.asarray(features, dtype=np.float64)
    n = X.shape[0]
    rng = np.random.default_rng(seed)
    drawn = np.sort(rng.choice(n, DRAWN_ROWS, replace=False)) if n > DRAWN_ROWS else np.arange(n)
    label_names = np.array(names, dtype=object)
    if 2 <= len(np.unique(yp[drawn])) <= drawn.size - 1:
        s = silhouette_samples(X[drawn], yp[drawn]) if n > SILHOUETTE_EXACT_ROWS else silhouette_samples(X, yp)[drawn]
        view |= dict(silhouettes=s, silhouette_labels=tuple(label_names[yp[drawn]]), silhouette_mean=float(s.mean()),
                     silhouette_note=None if n <= DRAWN_ROWS else (
                         f"a seeded sample of {DRAWN_ROWS:,} of the {n:,} rows (seed {seed})"
                         + ("; silhouettes within the sample" if n > SILHOUETTE_EXACT_ROWS else "")))
    if X.shape[1] >= 2:
        from sklearn.decomposition import PCA

        pca = PCA(n_components=2, random_state=seed).fit(X)   # on every row; only the drawn rows are projected
        view |= dict(projection=pca.transform(X[drawn]), projection_clusters=tuple(label_names[yp[drawn]]),
                     explained=tuple(float(v) for v in pca.explained_variance_ratio_))
        if pred.y_true is not None:
            class_names = np.array(list(pred.classes) + ["(no class)"], dtype=object)
            view["projection_classes"] = tuple(class_names[np.asarray(pred.y_true)[drawn]])
    return ClusterView(**view)


def pairwise_agreement(preds) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """ARI and Rand index between every two clusterings of the same rows (``preds``: Predictions of one file's
    models), aligned by sample id when every model has ids, else by position (same row count needed). Returns
    (models, ARI matrix, RI matrix); NaN where two models share no rows."""
    preds = list(preds)
    names = tuple(p.model for p in preds)
    k = len(preds)
    ari, ri = np.eye(k), np.eye(k)
    by_id = all(p.ids is not None for p in preds)
    for i in range(k):
        for j in range(i + 1, k):
            a, b = preds[i], preds[j]
            if by_id:
                common, ia, ib = np.intersect1d(np.asarray(a.ids, dtype=str), np.asarray(b.ids, dtype=str),
                                                return_indices=True)
                x, y = np.asarray(a.y_pred)[ia], np.asarray(b.y_pred)[ib]
            elif a.n == b.n:
                x, y = np.asarray(a.y_pred), np.asarray(b.y_pred)
            else:
                x = y = np.array([], dtype=np.int64)
            if x.size == 0:
                ari[i, j] = ari[j, i] = ri[i, j] = ri[j, i] = np.nan
                continue
            found = agreement(x, y)
            ari[i, j] = ari[j, i] = found["adjusted_rand_index"]
            ri[i, j] = ri[j, i] = found["rand_index"]
    return names, ari, ri
