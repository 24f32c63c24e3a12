r"""The weighted median of the absolute error out of core, per group: the averaged inverted CDF of
:func:`assess.metrics.regression.weighted_median` (Hyndman & Fan; scikit-learn's ``_weighted_percentile(average=True)``)
— with the values sorted and cumulative weights :math:`C_j`, the first value with :math:`C_j \ge W/2`, averaged with
the next value of positive weight when :math:`C_j = W/2` (within machine epsilon, as in memory).

Over ``rows`` (an SQL table with columns ``y``, ``yp``, ``w`` and the group ``keys``) the value is
:math:`a = |\hat y - y|`, rows of weight 0 left out (they neither reach the half nor are "the next value of positive
weight"). Two plans, the same number:

1. **Histogram, then the one bucket** (`weighted_medians`' first choice; two reads of the file). Scan 1 groups the
   rows by group and *bucket* — :math:`\lfloor 64 \log_2 a \rfloor` (1.1 % wide in relative terms; a = 0, NaN and
   infinity in buckets of their own at both ends) — with each bucket's weight, row count and least and greatest
   value. The cumulative weights of the sorted buckets find the bucket where :math:`W/2` is reached; when it holds
   one value (least = greatest) that value is the first :math:`C \ge W/2` and the next bucket's least value is the
   next value. Otherwise scan 2 reads the distinct values of that bucket only (``GROUP BY group, a`` of the rows
   whose bucket is wanted) and NumPy finishes the cumulative sum inside it. Measured at 10⁷ rows of two models with
   all-distinct errors and weights (DuckDB, 2 cores, load ~2): the two scans 0.54 s and the run's peak RSS 429 MB,
   against 12.7 s and 889 MB for plan 2; the same medians.
2. **Windows over the sorted distinct values** (`window_sql`; one read, an ordered window per group, which DuckDB
   runs on one thread per group): used when the buckets found hold more than `FETCH_LIMIT` rows (values crowded
   into 1 % of each other) or their ranges overlap (the bucket function must sort like the values).

Distinct values rather than rows give the same median: the rows of one value reach :math:`W/2` inside that value's
run only when it is the median (then without the average, or averaged with itself). Exact where the weights'
partial sums are (integer or binary-fraction weights); otherwise to the rounding of the sums, whose order differs
from numpy's ``cumsum`` — it can matter only for a tie at exactly :math:`W/2` within rounding.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

#: Buckets per doubling of |e| in the histogram plan: 2^(1/64) - 1 = 1.1 % wide.
PER_OCTAVE = 64
#: The histogram plan reads at most this many rows back from the buckets where the medians lie (else: windows).
FETCH_LIMIT = 2_000_000
#: Bucket numbers of a = 0 and of NaN / infinity (log2 of a double lies within ±1075, times 64).
ZERO_BUCKET, TOP_BUCKET = -(10 ** 6), 10 ** 6
_EPS = float(np.finfo(np.float64).eps)


def _shape(keys: list[str], sets: list[list[str]] | None, extra: list[str]) -> tuple[str, str, list[str]]:
    """(select list of the keys and grouping flags, GROUP BY clause with ``extra`` columns, partition columns)."""
    if sets:
        flags = [f"grouping({k}) AS g_{k}" for k in keys]
        group = "GROUPING SETS (" + ", ".join("(" + ", ".join(s + extra) + ")" for s in sets) + ")"
        return ", ".join(keys + flags), group, keys + [f"g_{k}" for k in keys]
    return ", ".join(keys), ", ".join(keys + extra), list(keys)


def _values_sql(backend, rows: str, keys: list[str]) -> str:
    """The rows of positive weight: the keys, a = |yp - y|, w and the bucket b of a."""
    bucket = (f"CASE WHEN {backend.non_finite('a')} THEN {TOP_BUCKET} WHEN a > 0 "
              f"THEN CAST(floor(log2(a) * {PER_OCTAVE}) AS BIGINT) ELSE {ZERO_BUCKET} END")
    inner = f"SELECT {', '.join(keys)}, abs(yp - y) AS a, w FROM {rows} WHERE w > 0"
    return f"SELECT {', '.join(keys)}, a, w, {bucket} AS b FROM ({inner}) AS p"


def window_sql(rows: str, keys: list[str], sets: list[list[str]] | None = None) -> str:
    r"""Plan 2's SQL: the distinct values with their summed weight :math:`w_a`, the running sum
    :math:`C_a = \sum_{b \le a} w_b` in the order of a and the total W; per group the first value with
    :math:`C \ge W/2` (``a_i``, its ``cum_i``), the next distinct value (``a_j``) and ``total``."""
    select, group, part = _shape(keys, sets, ["a"])
    part = ", ".join(part)
    distinct = (f"SELECT {select}, a, sum(w) AS wv FROM (SELECT {', '.join(keys)}, abs(yp - y) AS a, w FROM {rows} "
                f"WHERE w > 0) AS p GROUP BY {group}")
    running = (f"SELECT {part}, a, sum(wv) OVER (PARTITION BY {part} ORDER BY a ROWS BETWEEN UNBOUNDED PRECEDING "
               f"AND CURRENT ROW) AS cum, sum(wv) OVER (PARTITION BY {part}) AS total, "
               f"lead(a) OVER (PARTITION BY {part} ORDER BY a) AS next_a FROM ({distinct}) AS d")
    # the running sum grows with a (weights > 0): the first value reaching W/2 is the least of those that do
    return (f"SELECT {part}, min(a) AS a_i, min_by(cum, a) AS cum_i, min_by(next_a, a) AS a_j, max(total) AS total "
            f"FROM ({running}) AS c WHERE cum >= 0.5 * total GROUP BY {part}")


def _median(a_i: float, cum_i: float, target: float, a_next: float) -> float:
    """The averaged inverted CDF at the first value reaching the half: averaged with the next value on an exact hit
    (no next value: the last is hit only if W/2 is within eps of W, W ~ 0; memory would average with its largest)."""
    if not cum_i - target > _EPS and np.isfinite(a_next):
        return (a_i + a_next) / 2.0
    return a_i


def _window_medians(backend, rows: str, keys: list[str], sets) -> dict:
    t = backend.arrays(window_sql(rows, keys, sets))
    t["median_abs"] = np.array([_median(float(a), float(c), 0.5 * float(w), float(n)) for a, c, w, n in
                                zip(t["a_i"], t["cum_i"], t["total"], t["a_j"])], dtype=np.float64)
    return t


def _key(values) -> tuple:
    """A group's partition values as a dict key (NULL read back as NaN or None: both None)."""
    return tuple(None if v is None or (isinstance(v, float) and v != v) else v for v in values)


def weighted_medians(backend, rows: str, keys: list[str], sets: list[list[str]] | None = None) -> dict:
    """Per group of ``keys`` (or of each grouping set in ``sets``, lists of keys; then a ``g_<key>`` column per key,
    `grouping()`): the partition columns and ``median_abs`` (module docstring), as arrays by column."""
    values = _values_sql(backend, rows, keys)
    select, group, part = _shape(keys, sets, ["b"])
    hist = pd.DataFrame(backend.arrays(
        f"SELECT {select}, b, sum(w) AS wb, count(*) AS nb, min(a) AS amin, max(a) AS amax FROM ({values}) AS v "
        f"GROUP BY {group}"))
    if hist.empty:
        return {c: np.array([]) for c in part + ["median_abs"]}
    hist = hist.sort_values("b", kind="stable")
    out, wanted = [], []      # wanted: (row of out, bucket, cumulative weight below it, half, next bucket's least)
    for _, g in hist.groupby(part, sort=False, dropna=False):
        wb, amin, amax = (g[c].to_numpy(np.float64) for c in ("wb", "amin", "amax"))
        cum = np.cumsum(wb)
        target = 0.5 * cum[-1]
        i = min(int(np.searchsorted(cum, target, side="left")), len(cum) - 1)
        nxt = float(amin[i + 1]) if i + 1 < len(amin) else float("nan")
        if (i > 0 and not amax[i - 1] < amin[i]) or not amax[i] <= (nxt if nxt == nxt else np.inf):
            return _window_medians(backend, rows, keys, sets)       # buckets out of the values' order
        row = [g[c].iloc[0] for c in part]
        if amin[i] == amax[i]:
            out.append(row + [_median(float(amin[i]), float(cum[i]), target, nxt)])
        else:
            wanted.append((len(out), int(g["b"].iloc[i]), float(cum[i - 1]) if i else 0.0, target, nxt,
                           int(g["nb"].iloc[i])))
            out.append(row + [np.nan])
    if sum(w[5] for w in wanted) > FETCH_LIMIT:
        return _window_medians(backend, rows, keys, sets)
    if wanted:
        select, group, _ = _shape(keys, sets, ["b", "a"])
        buckets = ", ".join(str(b) for b in sorted({w[1] for w in wanted}))
        found = pd.DataFrame(backend.arrays(f"SELECT {select}, b, a, sum(w) AS wv FROM ({values}) AS v "
                                            f"WHERE b IN ({buckets}) GROUP BY {group}"))
        a_all, wv_all = found["a"].to_numpy(np.float64), found["wv"].to_numpy(np.float64)
        where = {_key(k if isinstance(k, tuple) else (k,)): idx
                 for k, idx in found.groupby(part + ["b"], sort=False, dropna=False).indices.items()}
        for at, b, below, target, nxt, _ in wanted:
            idx = where[_key(tuple(out[at][:-1]) + (b,))]
            order = np.argsort(a_all[idx], kind="stable")
            a, cum = a_all[idx][order], below + np.cumsum(wv_all[idx][order])
            j = min(int(np.searchsorted(cum, target, side="left")), len(cum) - 1)
            out[at][-1] = _median(float(a[j]), float(cum[j]), target, float(a[j + 1]) if j + 1 < len(a) else nxt)
    return {c: np.array([r[n] for r in out], dtype=np.float64 if c == "median_abs" else object)
            for n, c in enumerate(part + ["median_abs"])}
