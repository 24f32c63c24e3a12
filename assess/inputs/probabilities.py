"""Can these scores be read as probabilities? The one check, shared by the input validation (a `Problem` per column)
and the metrics (the reason log loss and the Brier score are undefined, or a note that they used the rows as given),
so both say the same thing about the same cell.

Two findings: values outside [0, 1], and rows of class probabilities whose sum is not 1. Each is worded one way —
what was checked, how many, the first offending row numbered from 1 (the data rows of the file, as
`assess.core.problem.Problem.rows`; `positions` maps a subset such as one model's rows back to them) and its value:

    column `proba_cat` has 3 values outside [0, 1] (first at row 17: `1.4`)
    the file has 2 rows whose class probabilities do not sum to 1 (first at row 4: `sum 1.2`)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assess.inputs.columns import quote

__all__ = ["Finding", "outside_unit_interval", "rows_not_summing_to_one", "SUM_TOLERANCE"]

#: How far a row of class probabilities may sum from 1 before the validation warns: CSV files round probabilities
#: (three classes written with 3 decimals can sum to 0.999 or 1.001).
SUM_TOLERANCE = 1e-3
#: How many offending rows a finding lists.
SHOWN_ROWS = 5


@dataclass(frozen=True)
class Finding:
    """``count`` offending values (or rows), the first few ``rows`` numbered from 1, and ``message``, the sentence."""

    count: int
    rows: tuple[int, ...]
    message: str


def _rows(mask: np.ndarray, positions) -> tuple[np.ndarray, tuple[int, ...]]:
    """The offending row indices, and the first few as file rows numbered from 1."""
    hits = np.flatnonzero(mask)
    rows = hits if positions is None else np.asarray(positions)[hits]
    return hits, tuple(int(r) + 1 for r in rows[:SHOWN_ROWS])


def _sentence(subject: str, count: int, what: str, first_row: int, example: str) -> str:
    where = f"row {first_row}" if count == 1 else f"first at row {first_row}"
    return f"{subject} has {count:,} {what.format(s='' if count == 1 else 's')} ({where}: {quote(example)})"


def outside_unit_interval(values, subject, *, positions=None) -> Finding | None:
    """Values of ``values`` (n,) or (n, k) outside [0, 1] (NaN is not counted: missing values have their own check),
    or None. ``subject`` names what was checked ("column `score`"); for (n, k) values it may name each of the k
    columns, and the sentence names the column of the first offending value (the count is of all k columns).

    >>> outside_unit_interval(np.array([0.2, 1.4, -0.5]), "column `score`").message
    'column `score` has 2 values outside [0, 1] (first at row 2: `1.4`)'
    >>> outside_unit_interval(np.array([[0.2, 0.8], [0.5, -0.1]]), ["column `a`", "column `b`"]).message
    'column `b` has 1 value outside [0, 1] (row 2: `-0.1`)'
    """
    v = np.asarray(values, dtype=np.float64)
    bad = (v < 0) | (v > 1)
    if not bad.any():
        return None
    by_row = bad.reshape(v.shape[0], -1)
    hits, rows = _rows(by_row.any(axis=1), positions)
    j = int(np.flatnonzero(by_row[hits[0]])[0])
    example = v.reshape(v.shape[0], -1)[hits[0], j]
    subject = subject if isinstance(subject, str) else subject[j]
    count = int(bad.sum())
    return Finding(count, rows, _sentence(subject, count, "value{s} outside [0, 1]", rows[0], float(example)))


def rows_not_summing_to_one(scores, subject: str, *, tolerance: float = SUM_TOLERANCE,
                            positions=None) -> Finding | None:
    """Rows of the (n, k) class probabilities ``scores`` whose sum is further than ``tolerance`` from 1, or None
    (missing values count as 0 in the sum).

    >>> rows_not_summing_to_one(np.array([[0.5, 0.5], [0.7, 0.5]]), "the file").message
    'the file has 1 row whose class probabilities do not sum to 1 (row 2: `sum 1.2`)'
    """
    total = np.nansum(np.asarray(scores, dtype=np.float64), axis=1)
    off = np.abs(total - 1) > tolerance
    if not off.any():
        return None
    hits, rows = _rows(off, positions)
    count = int(off.sum())
    return Finding(count, rows, _sentence(subject, count, "row{s} whose class probabilities do not sum to 1", rows[0],
                                          f"sum {_off_one(total[hits[0]])}"))


def _off_one(total: float) -> str:
    """``total`` with the fewest significant digits (4 at least) that do not round it to 1: a row off by 1e-6 read
    `sum 1` under a sentence saying it does not sum to 1.

    >>> _off_one(1.2), _off_one(0.999999), _off_one(1.0000004)
    ('1.2', '0.999999', '1.0000004')
    """
    for digits in range(4, 18):
        text = f"{total:.{digits}g}"
        if float(text) != 1:
            return text
    return repr(float(total))
