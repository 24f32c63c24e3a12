"""Helpers shared by the task modules: division that says why it is undefined, input checks, weights.

Every metric formula in this package takes count arrays that may carry leading resample axes (the bootstrap
evaluates a whole chunk of resamples in one call). A *point* state (one data set) reports why a value is undefined
by emitting :class:`~assess.core.warnings.UndefinedMetricWarning`; a *batch* state (resamples) stays silent, because a
NaN in a few resamples is expected and is accounted for by the interval code.
"""

from __future__ import annotations

import warnings

import numpy as np

from assess.core.warnings import UndefinedMetricWarning


def note_undefined(batch: bool, message: str) -> None:
    """Emit the reason a value is NaN, unless evaluating a batch of resamples."""
    if not batch:
        warnings.warn(message, UndefinedMetricWarning, stacklevel=3)


def ratio(num, den, *, batch: bool, reason: str):
    """``num / den`` with NaN where ``den == 0``; ``reason`` is emitted when a point value is undefined.

    Works elementwise on arrays of any shape; the warning is emitted once per call for point states.
    """
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    defined = den != 0
    # one pass: divide only where defined into a NaN-filled result (metric-vs-threshold runs this over every
    # distinct score of a million-row scorer)
    out = np.full(np.broadcast_shapes(num.shape, den.shape), np.nan)
    with np.errstate(invalid="ignore", over="ignore"):
        np.divide(num, den, out=out, where=defined)
    if not batch and not np.all(defined):
        note_undefined(batch, reason)
    return out if out.ndim else float(out)


def scalar(value):
    """A Python float for 0-d values, the array otherwise."""
    arr = np.asarray(value, dtype=np.float64)
    return float(arr) if arr.ndim == 0 else arr


def first_index(mask: np.ndarray) -> int:
    return int(np.flatnonzero(np.ravel(mask))[0])


def check_finite(arr: np.ndarray, name: str) -> None:
    """Raise ``ValueError`` naming ``name`` when ``arr`` holds NaN or infinity."""
    if arr.dtype.kind != "f" or np.isfinite(arr).all():
        return
    flat = np.ravel(arr)
    bad = ~np.isfinite(flat)
    i = first_index(bad)
    row = np.unravel_index(i, arr.shape)[0]
    raise ValueError(f"`{name}` has {int(bad.sum())} non-finite values (NaN or infinity; "
                     f"first at row {row}: {flat[i]}); remove or fill them before assessing")


def check_weight(weight, n: int) -> np.ndarray | None:
    """Validate optional sample weights: 1-D, length n, finite, >= 0 and not all zero."""
    if weight is None:
        return None
    w = np.asarray(weight)
    if w.ndim != 1 or w.shape[0] != n:
        raise ValueError(f"`weight` must have shape ({n},) (got {w.shape})")
    if w.dtype.kind not in "iufb":
        raise TypeError(f"`weight` must be numeric (got dtype {w.dtype})")
    w = w.astype(np.float64)
    check_finite(w, "weight")
    neg = w < 0
    if neg.any():
        i = first_index(neg)
        raise ValueError(f"`weight` must be >= 0 (got {int(neg.sum())} negative values, first at row {i}: {w[i]})")
    if not (w > 0).any():
        raise ValueError("`weight` is zero for every row; nothing to assess")
    return w


def weighted_sum(values: np.ndarray, weight: np.ndarray | None, axis=0):
    if weight is None:
        return values.sum(axis=axis, dtype=np.float64)
    return np.tensordot(weight, values, axes=([0], [axis])) if values.ndim > 1 else float(np.dot(weight, values))


class ScoreNote(UserWarning):
    """A caveat about a defined value (e.g. probability rows that do not sum to 1); evaluate() records it."""


def note(batch: bool, message: str) -> None:
    if not batch:
        warnings.warn(message, ScoreNote, stacklevel=3)
