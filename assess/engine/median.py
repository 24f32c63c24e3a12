r"""The weighted median of the absolute error out of core, per group: the averaged inverted CDF of
:func:`assess.metrics.regression.weighted_median` (Hyndman & Fan; scikit-learn's ``_weighted_percentile(average=True)``)
— with the values sorted and cumulative weights :math:`C_j`, the first value with :math:`C_j \ge W/2`, averaged with
the next value of positive weight when :math:`C_j = W/2` (within machine epsilon, as in memory). That rule has one
statement, :func:`assess.metrics.regression.sorted_weighted_median`, which both plans below and the in-memory metric
call on their sorted tables.

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
   all-distinct errors and weights (DuckDB, 2 cores; `bench/bench_engine_median.py`): 0.75-0.91 s against 8.1-9.8 s
   for plan 2 (10.8x in each of two runs at load 0.7 and 2.8), the same medians; the CLI run's peak RSS 429 MB
   against 889 MB. NumPy finishes every group at once (a forecast's per-series medians are thousands of groups).
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

from assess.engine import expressions
from assess.metrics.regression import sorted_weighted_median

#: A row's absolute error |ŷ - y| over columns y and yp (`assess.engine.expressions.regression_terms`): the values
#: whose weighted median is sought.
ABS_ERROR = expressions.regression_terms("y", "yp")["sum_abs"]
#: Buckets per doubling of |e| in the histogram plan: 2^(1/64) - 1 = 1.1 % wide.
PER_OCTAVE = 64
#: The histogram plan reads at most this many rows back from the buckets where the medians lie (else: windows).
FETCH_LIMIT = 2_000_000
#: Bucket numbers of a = 0 and of NaN / infinity (log2 of a double lies within ±1075, times 64).
ZERO_BUCKET, TOP_BUCKET = -(10 ** 6), 10 ** 6


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
    inner = f"SELECT {', '.join(keys)}, {ABS_ERROR} AS a, w FROM {rows} WHERE w > 0"
    return f"SELECT {', '.join(keys)}, a, w, {bucket} AS b FROM ({inner}) AS p"


def window_sql(rows: str, keys: list[str], sets: list[list[str]] | None = None) -> str:
    r"""Plan 2's SQL: the distinct values with their summed weight :math:`w_a`, the running sum
    :math:`C_a = \sum_{b \le a} w_b` in the order of a and the total W; per group the first value with
    :math:`C \ge W/2` (``a_i``, its ``cum_i``), the next distinct value (``a_j``) and ``total``."""
    select, group, part = _shape(keys, sets, ["a"])
    part = ", ".join(part)
    distinct = (f"SELECT {select}, a, sum(w) AS wv FROM (SELECT {', '.join(keys)}, {ABS_ERROR} AS a, w FROM {rows} "
                f"WHERE w > 0) AS p GROUP BY {group}")
    running = (f"SELECT {part}, a, sum(wv) OVER (PARTITION BY {part} ORDER BY a ROWS BETWEEN UNBOUNDED PRECEDING "
               f"AND CURRENT ROW) AS cum, sum(wv) OVER (PARTITION BY {part}) AS total, "
               f"lead(a) OVER (PARTITION BY {part} ORDER BY a) AS next_a FROM ({distinct}) AS d")
    # the running sum grows with a (weights > 0): the first value reaching W/2 is the least of those that do
    return (f"SELECT {part}, min(a) AS a_i, min_by(cum, a) AS cum_i, min_by(next_a, a) AS a_j, max(total) AS total "
            f"FROM ({running}) AS c WHERE cum >= 0.5 * total GROUP BY {part}")


def _groups(frame: pd.DataFrame, by, within: str) -> tuple[pd.DataFrame, np.ndarray, np.ndarray, np.ndarray]:
    """(``frame`` sorted by group then ``within``, group number per row, each group's first row and end)."""
    gid = frame.groupby(by, sort=False, dropna=False).ngroup().to_numpy()
    order = np.lexsort((frame[within].to_numpy(), gid))
    frame, gid = frame.iloc[order].reset_index(drop=True), gid[order]
    starts = np.flatnonzero(np.r_[True, gid[1:] != gid[:-1]])
    return frame, gid, starts, np.r_[starts[1:], gid.shape[0]]


def _window_medians(backend, rows: str, keys: list[str], sets) -> dict:
    t = backend.arrays(window_sql(rows, keys, sets))
    # one row per group, its first value reaching the half (a_i, cum_i) and the next (a_j, NaN when none)
    one = np.arange(t["a_i"].shape[0])
    t["median_abs"] = sorted_weighted_median(t["a_i"].astype(np.float64), t["cum_i"].astype(np.float64),
                                             0.5 * t["total"].astype(np.float64), one, one + 1,
                                             t["a_j"].astype(np.float64))[0]
    return t


def weighted_medians(backend, rows: str, keys: list[str], sets: list[list[str]] | None = None) -> dict:
    """Per group of ``keys`` (or of each grouping set in ``sets``, lists of keys; then a ``g_<key>`` column per key,
    `grouping()`): the partition columns and ``median_abs`` (module docstring), as arrays by column. Vectorised over
    the groups (a forecast's per-series medians are thousands of groups)."""
    values = _values_sql(backend, rows, keys)
    select, group, part = _shape(keys, sets, ["b"])
    hist = pd.DataFrame(backend.arrays(
        f"SELECT {select}, b, sum(w) AS wb, count(*) AS nb, min(a) AS amin, max(a) AS amax FROM ({values}) AS v "
        f"GROUP BY {group}"))
    if hist.empty:
        return {c: np.array([]) for c in part + ["median_abs"]}
    hist, gid, starts, ends = _groups(hist, part, "b")
    # each group's running weight over its buckets (pandas sums a group's rows in order, as numpy's cumsum)
    cum = hist.groupby(gid, sort=False)["wb"].cumsum().to_numpy(np.float64)
    target = 0.5 * cum[ends - 1]
    amin, amax = hist["amin"].to_numpy(np.float64), hist["amax"].to_numpy(np.float64)
    # the buckets as a sorted table of their least values: where the half is reached (first) and the next bucket's
    # least (nxt); the median itself when that bucket holds one value (below)
    out, first, nxt = sorted_weighted_median(amin, cum, target, starts, ends, np.full(starts.shape[0], np.nan))
    # the bucket must sort like its values: its least above the previous bucket's greatest, its greatest below the
    # next bucket's least (else the windows, which sort the values themselves)
    ordered = ((first == starts) | (amax[np.maximum(first - 1, 0)] < amin[first])) & \
        (np.isnan(nxt) | (amax[first] <= nxt))
    single = amin[first] == amax[first]
    fetch = ~single
    if not ordered.all() or int(hist["nb"].to_numpy()[first][fetch].sum()) > FETCH_LIMIT:
        return _window_medians(backend, rows, keys, sets)
    if fetch.any():
        wanted = hist.iloc[first[fetch]][part + ["b"]].copy()
        wanted["_g"] = np.flatnonzero(fetch)
        wanted["_below"] = np.where(first > starts, cum[np.maximum(first - 1, 0)], 0.0)[fetch]
        wanted["_target"], wanted["_next"] = target[fetch], nxt[fetch]
        select, group, _ = _shape(keys, sets, ["b", "a"])
        buckets = ", ".join(str(int(b)) for b in sorted(set(wanted["b"])))
        found = pd.DataFrame(backend.arrays(f"SELECT {select}, b, a, sum(w) AS wv FROM ({values}) AS v "
                                            f"WHERE b IN ({buckets}) GROUP BY {group}"))
        # (pandas matches NULL keys with each other, as the grouping sets' rolled-up keys need)
        found = found.merge(wanted, on=part + ["b"], how="inner")
        found, _, s2, e2 = _groups(found, "_g", "a")
        if s2.shape[0] != int(fetch.sum()):
            return _window_medians(backend, rows, keys, sets)
        below = found["_below"].to_numpy(np.float64)
        c2 = below + found.groupby("_g", sort=False)["wv"].cumsum().to_numpy(np.float64)
        # the bucket's distinct values, their running weight continuing the buckets' below it, the value after the
        # bucket its next bucket's least
        out[found["_g"].to_numpy()[s2]] = sorted_weighted_median(
            found["a"].to_numpy(np.float64), c2, found["_target"].to_numpy(np.float64)[s2], s2, e2,
            found["_next"].to_numpy(np.float64)[s2])[0]
    columns = {}
    for c in part:
        col = hist[c].to_numpy()[starts]
        columns[c] = col if col.dtype != object else \
            np.array([None if isinstance(v, float) and v != v else v for v in col], dtype=object)
    return columns | {"median_abs": out}
