"""What is wrong with a forecast file's time columns, as `assess.core.problem.Problem`s.

`check_forecast` adds to `assess.inputs.validation.validate` the checks only a forecast needs, in the same shape (level,
code, message naming the column, count and first rows numbered from 1 for the first data row):

- ``unparseable_time`` (error): time stamps that are neither whole numbers nor dates — metrics per time, MASE and the
  baselines cannot order the rows;
- ``irregular_time`` (error): dates whose spacing is not hourly, daily, weekly, monthly, quarterly or yearly;
- ``duplicate_time`` (error): two rows of one model and series with the same time stamp and the same horizon (or
  origin) — one forecast would be counted twice;
- ``bad_horizon`` (error): horizons that are not whole numbers >= 1;
- ``horizon_gaps`` (warning): the horizons present skip steps (e.g. 1, 2, 4): per-horizon metrics still compute,
  but a missing step usually means rows were lost;
- ``short_series`` (warning): a series with one time stamp — MASE, the naive baselines and the block bootstrap need
  two or more.

Vectorised (pandas duplicated / groupby); a million rows take well under a second.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from assess.inputs.columns import quote
from assess.inputs.roles import Roles
from assess.inputs.timestamps import time_steps
from assess.core.problem import Problem

__all__ = ["check_forecast"]

_SHOW_ROWS = 5


def _rows(mask: np.ndarray) -> tuple[int, tuple[int, ...], int]:
    hits = np.flatnonzero(mask)
    return int(hits.size), tuple(int(r) + 1 for r in hits[:_SHOW_ROWS]), int(hits[0]) if hits.size else -1


def _n(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def _is_steps(values: pd.Series) -> bool:
    """Time given as step numbers (a numeric column), not dates."""
    return pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values)


def check_forecast(frame: pd.DataFrame, roles: Roles, *, origin: str | None = None) -> list[Problem]:
    """Problems of the time-stamp, horizon and series columns of a forecast file, errors first.

    ``roles`` gives the ``timestamp``, ``series``, ``horizon`` and ``model`` columns (any may be None);
    ``origin`` the forecast-origin column when the file has one (it is not a SPEC role)."""
    problems: list[Problem] = []
    n = frame.shape[0]
    model = frame[roles.model].astype(str).to_numpy() if roles.model else np.zeros(n, dtype=np.int8)
    series = frame[roles.series].astype(str).to_numpy() if roles.series else np.zeros(n, dtype=np.int8)
    steps = None

    if roles.timestamp:
        col = roles.timestamp
        values = frame[col]
        present = values.notna().to_numpy()
        if pd.api.types.is_numeric_dtype(values):
            as_num = values.to_numpy(dtype=np.float64)
            bad = present & ((as_num != np.round(as_num)) | ~np.isfinite(as_num))
        else:
            codes, uniques = pd.factorize(values, use_na_sentinel=False)     # parse each distinct stamp once
            parsed = pd.to_datetime(pd.Series(uniques).astype(str), errors="coerce", format="mixed")
            bad = present & parsed.isna().to_numpy()[codes]
        count, rows, first = _rows(bad)
        if count:
            kind = "whole step numbers" if pd.api.types.is_numeric_dtype(values) else "dates"
            problems.append(Problem(
                "error", "unparseable_time",
                f"column {quote(col)} has {_n(count, 'time stamp')} that cannot be read as {kind} "
                f"({'row' if count == 1 else 'first at row'} {rows[0]}: {quote(values.iloc[first])}); forecasts "
                "are ordered and compared by time", col, count, rows))
        elif present.all():
            try:
                steps, _ = time_steps(values)
            except ValueError as err:
                problems.append(Problem("error", "irregular_time", f"column {quote(col)}: {err}", col, 0, ()))
        if steps is not None and origin and _is_steps(values) != _is_steps(frame[origin]):
            # the baselines count steps between an origin and its target: dates against step numbers have none
            # (numpy's DTypePromotionError, exit 70, when `--timestamp-col id` was chosen beside an origin of dates)
            kinds = {True: "step numbers", False: "dates"}
            problems.append(Problem(
                "error", "origin_time_kind",
                f"column {quote(col)} holds {kinds[_is_steps(values)]} but the origins in {quote(origin)} hold "
                f"{kinds[_is_steps(frame[origin])]}; a forecast's origin and its target time must be of one kind",
                col, n, ()))
            steps = None
        if steps is not None:
            if origin:
                key = pd.DataFrame({"m": model, "s": series, "o": frame[origin].astype(str).to_numpy(), "t": steps})
                within = f"model, series and origin ({quote(origin)})"
            elif roles.horizon:
                key = pd.DataFrame({"m": model, "s": series, "h": frame[roles.horizon].to_numpy(), "t": steps})
                within = f"model, series and horizon ({quote(roles.horizon)})"
            else:
                key = pd.DataFrame({"m": model, "s": series, "t": steps})
                within = "model and series"
            dup = key.duplicated(keep="first").to_numpy()
            count, rows, first = _rows(dup)
            if count:
                twin = int(np.flatnonzero((key == key.iloc[first]).all(axis=1).to_numpy())[0]) + 1
                problems.append(Problem(
                    "error", "duplicate_time",
                    f"column {quote(col)} has {_n(count, 'duplicated time stamp')} within one {within} "
                    f"({'row' if count == 1 else 'first at row'} {rows[0]}: {quote(values.iloc[first])}, "
                    f"already at row {twin}); each forecast must appear once", col, count, rows))
            per_series = pd.Series(steps).groupby(series).nunique()
            short = per_series[per_series < 2]
            if short.shape[0]:
                mask = np.isin(series, short.index.to_numpy())
                count, rows, _ = _rows(mask)
                name = quote(short.index[0]) if roles.series else "the file"
                where = f"column {quote(roles.series)} has " if roles.series else ""
                problems.append(Problem(
                    "warning", "short_series",
                    f"{where}{_n(short.shape[0], 'series')} with a single time stamp ({name}, row {rows[0]}); "
                    "MASE, the naive baselines and the block bootstrap need at least two",
                    roles.series or col, count, rows))

    if roles.horizon:
        col = roles.horizon
        h = pd.to_numeric(frame[col], errors="coerce").to_numpy(dtype=np.float64)
        bad = ~np.isfinite(h) | (h != np.round(h)) | (h < 1)
        count, rows, first = _rows(bad)
        if count:
            problems.append(Problem(
                "error", "bad_horizon",
                f"column {quote(col)} has {_n(count, 'horizon')} that {'is' if count == 1 else 'are'} not a whole "
                f"number of steps >= 1 ({'row' if count == 1 else 'first at row'} {rows[0]}: "
                f"{quote(frame[col].iloc[first])})", col, count, rows))
        else:
            present = np.unique(h.astype(np.int64))
            missing = np.setdiff1d(np.arange(present[0], present[-1] + 1), present) if present.size else present
            if missing.size:
                after = present[present < missing[0]].max()
                count, rows, _ = _rows(h == after)
                shown = ", ".join(str(v) for v in missing[:5]) + (", …" if missing.size > 5 else "")
                problems.append(Problem(
                    "warning", "horizon_gaps",
                    f"column {quote(col)} skips {_n(int(missing.size), 'horizon')} between {present[0]} and "
                    f"{present[-1]} (no rows with horizon {shown}; the last before the gap is {after}, e.g. row "
                    f"{rows[0]}); per-horizon metrics are shown for the horizons present", col,
                    int(missing.size), rows))
    return sorted(problems, key=lambda p: p.level != "error")
