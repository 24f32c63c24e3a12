"""Time stamps as integer step numbers, their frequency and the season length it implies.

Integer time stamps are step numbers as they are. Anything else is parsed as dates (``pd.to_datetime``, mixed
formats, e.g. ``1998-01``); the frequency is read from the *median gap between distinct time stamps* (so a few
missing stamps do not change it) and the stamps become integer step numbers of that frequency (months since year 0
for monthly data, …), so "m steps earlier" is found by arithmetic even when stamps are missing:

================  ============  ===============
median gap        frequency     season length m
================  ============  ===============
1 hour            hourly        24 (a day)
1 day             daily         7 (a week)
7 days            weekly        52 (a year)
28–31 days        monthly       12
89–92 days        quarterly     4
365–366 days      yearly        none
integers          integer       none unless given
================  ============  ===============

Any other gap is "irregular": neither a season nor step numbers can be derived, and a :class:`ValueError` says so.
A leaf module, so both the metrics (`assess.metrics.forecast`) and the input checks (`assess.inputs.forecast_checks`) use it.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from assess.core.errors import shorten

__all__ = ["FREQUENCY_SEASONS", "time_steps", "season_length"]

#: Season length per detected frequency (None: no season).
FREQUENCY_SEASONS: dict[str, int | None] = {"hourly": 24, "daily": 7, "weekly": 52, "monthly": 12, "quarterly": 4,
                                            "yearly": None, "integer": None}

_DAY = 86_400.0
# (frequency, lowest and highest median gap in days)
_GAPS = (("hourly", 1 / 24 * 0.99, 1 / 24 * 1.01), ("daily", 0.99, 1.01), ("weekly", 6.99, 7.01),
         ("monthly", 28, 31), ("quarterly", 89, 92), ("yearly", 365, 366))


def _frequency(parsed: pd.Series) -> str:
    stamps = np.unique(parsed.to_numpy(dtype="datetime64[s]").astype(np.int64))
    if stamps.size < 2:
        raise ValueError("the frequency of the time stamps cannot be read from fewer than 2 distinct stamps")
    gap = float(np.median(np.diff(stamps))) / _DAY
    for name, low, high in _GAPS:
        if low <= gap <= high:
            return name
    raise ValueError(f"the time stamps are irregular (median gap {gap:.4g} days): neither hourly, daily, weekly, "
                     "monthly, quarterly nor yearly")


def distinct_dates(values: pd.Series) -> tuple[pd.Series, np.ndarray]:
    """(dates, codes): the distinct values of ``values`` as timezone-naive dates (NaT where one is not a date) and
    each row's index into them. Only the distinct stamps are parsed: a forecast file repeats each target time per
    model, origin and horizon. Offsets that differ (+02:00 and -05:00) are put on one clock, UTC's."""
    codes, uniques = pd.factorize(values, use_na_sentinel=False)
    distinct = pd.Series(uniques)
    if pd.api.types.is_datetime64_any_dtype(distinct):
        parsed = distinct
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")      # pandas' deprecation notes on quarterly strings
            try:
                parsed = pd.to_datetime(distinct.astype(str), errors="coerce", format="mixed")
            except ValueError:                   # offsets that differ: one clock for all
                parsed = pd.to_datetime(distinct.astype(str), errors="coerce", format="mixed", utc=True)
    if isinstance(parsed.dtype, pd.DatetimeTZDtype):
        parsed = parsed.dt.tz_localize(None)
    return parsed, codes


def time_steps(times) -> tuple[np.ndarray, str]:
    """Time stamps as integer step numbers and the frequency name (see the module notes).

    >>> steps, freq = time_steps(["1998-01", "1998-02", "1998-03", "1999-01"])
    >>> (steps - steps[0]).tolist(), freq
    ([0, 1, 2, 12], 'monthly')
    """
    values = pd.Series(np.asarray(times) if not isinstance(times, pd.Series) else times.to_numpy())
    if pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values):
        v = values.to_numpy(dtype=np.float64)
        bad = ~np.isfinite(v) | (v != np.round(v))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"numeric time stamps must be whole step numbers (row {i + 1}: {float(v[i])!r})")
        return v.astype(np.int64), "integer"
    # the distinct stamps, parsed once, then spread the step numbers back to the rows
    parsed, codes = distinct_dates(values)
    bad = parsed.isna().to_numpy()[codes]
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{int(bad.sum())} time stamp(s) are not dates (row {i + 1}: "
                         f"{shorten(repr(values.iloc[i]))})")
    freq = _frequency(parsed)
    year = parsed.dt.year.to_numpy(np.int64)
    month = parsed.dt.month.to_numpy(np.int64)
    seconds = parsed.to_numpy(dtype="datetime64[s]").astype(np.int64)
    if freq == "monthly":
        steps = year * 12 + month - 1
    elif freq == "quarterly":
        steps = year * 4 + (month - 1) // 3
    elif freq == "yearly":
        steps = year
    elif freq == "weekly":
        steps = np.floor_divide(seconds, int(7 * _DAY))
    elif freq == "daily":
        steps = np.floor_divide(seconds, int(_DAY))
    else:
        steps = np.floor_divide(seconds, 3600)
    return steps[codes], freq


def season_length(times, given: int | None = None) -> int | None:
    """Season length m: ``given`` when given (an integer >= 1; 1 = no season), else from the frequency of
    ``times`` by the table in the module notes (None for yearly or integer time stamps).

    >>> season_length(pd.date_range("2020-01-01", periods=30, freq="MS"))
    12
    >>> season_length([1, 2, 3]) is None, season_length([1, 2, 3], given=4)
    (True, 4)
    """
    if given is not None:
        if isinstance(given, bool) or not isinstance(given, (int, np.integer)) or given < 1:
            raise ValueError(f"the season length must be an integer >= 1 (got {given!r})")
        return int(given)
    return FREQUENCY_SEASONS[time_steps(times)[1]]
