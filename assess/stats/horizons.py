"""Diebold–Mariano for multi-horizon, multi-series forecasts: one test per horizon (and series), in time order.

An h-step-ahead forecast error is serially correlated up to lag h − 1 even for an optimal forecaster (its target
shares h − 1 shocks with the next origin's), so pooling horizons into one series with h = 1 (what a plain paired
test of the losses does) understates the variance. Diebold & Mariano (1995) §1.1 and Harvey, Leybourne & Newbold
(1997) therefore test one horizon at a time with lags up to h − 1: this module groups the loss differentials by
horizon and series, orders each group by its time stamps and runs :func:`assess.stats.scores.dm_core` on it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from assess.core.data import ONE_SERIES
from assess.core.errors import AssessError
from assess.core.formatting import count, counted, listing, percent_level
from assess.intervals import ConfidenceInterval
from assess.stats._common import (alpha_of, check_alternative, check_confidence_level, model_names, shown, verdict,
                                  warn_undefined)
from assess.stats._result import Assumption, Effect, TestResult
from assess.stats.corrections import adjust_pvalues
from assess.stats.scores import (DieboldMarianoDetails, DieboldMarianoRow, dm_core, forecast_losses, loss_lead,
                                 loss_words)

#: The ``series`` of a row pooled over every series.
ALL_SERIES = "all series"
_IDENTICAL = "the two models have the same loss at every time point: no test"


def diebold_mariano_by_horizon(y_true, pred_a, pred_b, *, horizon=None, series=None, time=None,
                               loss: str = "squared", h: int | None = None, alternative: str = "two-sided",
                               confidence_level: float = 0.95, harvey_correction: bool = True,
                               names: Sequence[str] | None = None, target: str | None = None) -> TestResult:
    r"""Diebold–Mariano (HLN-corrected) per forecast horizon and series, with a pooled summary.

    ``horizon``, ``series`` and ``time`` are per-forecast arrays (any may be None: one horizon ``h`` — default 1
    —, one series, rows in time order as given). Within each series and horizon the loss differentials
    :math:`d_t = L(e^A_t) - L(e^B_t)` are put in time order (a time stamp twice there is an error) and tested
    with lags up to h − 1, h being that horizon (:func:`assess.stats.scores.dm_core`). Results:

    - ``details.by_horizon``: per horizon, the test on the mean differential per time point across series
      :math:`\bar d_t = \frac1{S_t}\sum_s d_{s,t}` (one series: its own test); p-values adjusted by Holm across
      the horizons (the family a reader scans);
    - ``details.by_series``: per series and horizon (only with two or more series), Holm across all of them;
    - the overall result (statistic, p-value, effect): the test on the mean differential per time point across
      every horizon and series, with lags up to H − 1, H the largest horizon. Under the null of equal expected
      loss at every horizon this mean has expectation zero, and it depends on the shocks of the last H periods
      only, so it is MA(H − 1) like an H-step error and the HAC variance with H − 1 lags covers it (the
      "uniform" multi-horizon comparison of Quaedvlieg 2021, *J Bus Econ Stat* 39(1), on target times).

    ``h`` given with a ``horizon`` array selects that horizon only. Averaging differentials across series weighs
    each series by the scale of its losses: series in very different units are better read row by row.
    """
    check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    la, lb = forecast_losses(y_true, pred_a, pred_b, loss)
    names = model_names(names, 2)
    n = la.size
    if h is not None and (isinstance(h, bool) or int(h) != h or h < 1):
        raise AssessError(f"`h` must be a whole number ≥ 1 (got {h!r})")
    frame = pd.DataFrame({"series": _series(series, n), "horizon": _horizons(horizon, n, h), "la": la, "lb": lb})
    if horizon is not None and h is not None:
        frame = frame[frame["horizon"] == h]
        if frame.empty:
            raise AssessError(f"no forecast has horizon {h}")
    frame["d"] = frame["la"] - frame["lb"]
    frame["time"] = _times(time, frame)
    _check_unique_times(frame, time is not None)
    common = dict(harvey_correction=harvey_correction, alternative=alternative, confidence_level=confidence_level)
    horizons = sorted(frame["horizon"].unique())
    several = frame["series"].nunique() > 1

    by_series = []
    if several:
        for (s, hz), cell in frame.groupby(["series", "horizon"], sort=True):
            by_series.append(_row(str(s), hz, cell.sort_values("time", kind="stable"), common))
    by_horizon = [_row(ALL_SERIES if several else str(frame["series"].iloc[0]), hz,
                       _mean_per_time(frame[frame["horizon"] == hz]), common) for hz in horizons]
    by_horizon, by_series = _holm(by_horizon), _holm(by_series)

    big_h = int(max(horizons))
    pooled = _mean_per_time(frame)
    if len(pooled) < 3 or big_h >= len(pooled):
        raise AssessError(f"Diebold–Mariano needs more than h = {big_h} time points and at least 3 "
                          f"(got {len(pooled)})")
    core = dm_core(pooled["d"].to_numpy(), big_h, **common)
    if math.isnan(core.statistic):
        warn_undefined("Diebold–Mariano is undefined: the loss differential is zero throughout")
    single = len(horizons) == 1 and not several
    pooling = ("one horizon and one series: the loss differentials in time order" if single else
               f"mean loss differential per time point over {counted(len(horizons), 'horizon')} and "
               f"{counted(frame['series'].nunique(), 'series', 'series')}, lags up to H − 1 = {big_h - 1}")
    word, _ = loss_words(loss, target)
    alpha = alpha_of(confidence_level)
    where = (f" over {count(len(frame))} forecasts" if single else
             f" over {counted(len(horizons), 'horizon')}" + (f" and {frame['series'].nunique()} series" if several
                                                            else "") + f", {count(len(frame))} forecasts")
    lead = loss_lead(names, loss, target, core.mean, core.low, core.high, confidence_level, where)
    sentence = f"{lead}; {verdict(core.pvalue, alpha, 'Diebold–Mariano')}."
    if not single:
        sentence += " " + _horizon_summary(names, by_horizon, alpha, len(horizons))
    assumptions = [
        Assumption("stationary loss differential", None, "the loss differential is assumed covariance-stationary "
                                                         "within each horizon"),
        _variance_assumption(by_horizon),
        Assumption("time order known", time is not None,
                   "forecasts ordered by their time stamps" if time is not None else
                   "no time stamps: the rows of each series and horizon are taken in file order"),
    ]
    method = ("Diebold–Mariano" + (" with Harvey–Leybourne–Newbold correction" if harvey_correction else "")
              + ("" if single else ", per horizon, pooled by time point"))
    return TestResult(test="diebold_mariano", method=method, statistic=core.statistic, pvalue=core.pvalue,
                      df=core.df, alternative=alternative,
                      effect=Effect(f"mean {word} difference (A - B)" + ("" if single else ", per time point"),
                                    core.mean, ConfidenceInterval(core.low, core.high, confidence_level,
                                                                  "t (Harvey–Leybourne–Newbold)" if harvey_correction
                                                                  else "normal")),
                      assumptions=assumptions, sentence=sentence, n=len(pooled), models=names,
                      details=DieboldMarianoDetails(loss, big_h, core.h_used, float(frame["la"].mean()),
                                                    float(frame["lb"].mean()), pooling, tuple(by_horizon),
                                                    tuple(by_series)))


# ------------------------------------------------------------------------------------------------------ helpers


def _series(series, n: int) -> np.ndarray:
    if series is None:
        return np.full(n, ONE_SERIES, dtype=object)
    values = pd.Series(np.asarray(series, dtype=object))
    if values.isna().any():
        i = int(np.flatnonzero(values.isna().to_numpy())[0])
        raise AssessError(f"the series id is missing for {int(values.isna().sum())} forecasts (first at row {i})")
    if len(values) != n:
        raise AssessError(f"`series` must have one value per forecast ({n}) (got {len(values)})")
    return values.astype(str).to_numpy(dtype=object)


def _horizons(horizon, n: int, h: int | None) -> np.ndarray:
    if horizon is None:
        return np.full(n, float(h or 1))
    values = np.asarray(horizon, dtype=float)
    if values.shape != (n,):
        raise AssessError(f"`horizon` must have one value per forecast ({n}) (got shape {values.shape})")
    bad = ~np.isfinite(values) | (values < 1) | (values != np.round(values))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise AssessError(f"the horizon must be a whole number of steps ≥ 1; {int(bad.sum())} forecasts have "
                          f"another value (first at row {i}: {shown(values[i])})")
    return values


def _times(time, frame: pd.DataFrame) -> np.ndarray:
    """The time stamps of the kept rows, or each row's position within its series and horizon."""
    if time is None:
        return frame.groupby(["series", "horizon"], sort=False).cumcount().to_numpy()
    values = pd.Series(np.asarray(time)).iloc[frame.index.to_numpy()]
    missing = values.isna().to_numpy()
    if missing.any():
        i = int(frame.index[np.flatnonzero(missing)[0]])
        raise AssessError(f"the time stamp is missing for {int(missing.sum())} forecasts (first at row {i}); "
                          "Diebold–Mariano orders forecasts in time")
    return values.to_numpy()


def _check_unique_times(frame: pd.DataFrame, has_time: bool) -> None:
    dup = frame.duplicated(["series", "horizon", "time"]).to_numpy()
    if has_time and dup.any():
        i = int(np.flatnonzero(dup)[0])
        row = frame.iloc[i]
        where = "" if row["series"] == ONE_SERIES else f"series {shown(row['series'])}, "
        raise AssessError(f"{where}horizon {row['horizon']:g} has two forecasts for time {shown(row['time'])} "
                          f"(row {int(frame.index[i])}); one forecast per series, horizon and time is needed")


def _mean_per_time(frame: pd.DataFrame) -> pd.DataFrame:
    """Mean loss differential (and losses) per time point across the rows given, in time order (one factorize and
    three bincounts: the type-I simulations call this thousands of times)."""
    codes, stamps = pd.factorize(frame["time"].to_numpy(), sort=True)
    counts = np.bincount(codes, minlength=len(stamps))
    return pd.DataFrame({col: np.bincount(codes, weights=frame[col].to_numpy(), minlength=len(stamps)) / counts
                         for col in ("d", "la", "lb")})


def _variance_assumption(rows: list[DieboldMarianoRow]) -> Assumption:
    """Whether the long-run variance was positive at h at every horizon tested; the horizons that fell back to h = 1
    (a row with a statistic whose h_used is not its horizon — its note says so; rows not tested are left out)."""
    fell_back = [r for r in rows if math.isfinite(r.statistic) and r.h_used != int(r.horizon)]
    if not fell_back:
        return Assumption("variance estimate positive at horizon h", True,
                          "long-run variance positive at every horizon tested")
    listed = listing([f"{r.horizon:g}" + ("" if r.series == ONE_SERIES else f" ({r.series})") for r in fell_back], 8)
    return Assumption("variance estimate positive at horizon h", False,
                      f"not positive at horizon{'s' if len(fell_back) > 1 else ''} {listed}; fell back to h = 1 there")

def _row(series: str, horizon: float, cell: pd.DataFrame, common: dict) -> DieboldMarianoRow:
    h, n = int(horizon), len(cell)
    la, lb = float(cell["la"].mean()), float(cell["lb"].mean())
    if n < 3 or h >= n:
        nan = math.nan
        return DieboldMarianoRow(series, float(horizon), n, h, la, lb, la - lb, nan, nan, nan, nan, nan,
                                 f"too few forecasts ({n}) for horizon {h}: at least 3 and more than h are needed")
    core = dm_core(cell["d"].to_numpy(), h, **common)
    if math.isnan(core.statistic):
        note = _IDENTICAL
    else:
        note = "" if core.h_used == h else f"long-run variance not positive at h = {h}; used h = 1"
    return DieboldMarianoRow(series, float(horizon), n, core.h_used, la, lb, core.mean, core.low, core.high,
                             core.statistic, core.pvalue, math.nan, note)


def _holm(rows: list[DieboldMarianoRow]) -> list[DieboldMarianoRow]:
    """The rows with Holm-adjusted p-values over those that have a p-value."""
    p = np.array([r.pvalue for r in rows], dtype=float)
    ok = np.isfinite(p)
    adjusted = np.full(p.shape, math.nan)
    if ok.any():
        adjusted[ok] = adjust_pvalues(p[ok], method="holm")
    return [dataclasses.replace(r, pvalue_holm=float(a)) for r, a in zip(rows, adjusted)]


def _ranges(values: list[float]) -> str:
    """[1, 2, 3, 5, 7, 8] → '1–3, 5, 7–8'."""
    out, run = [], []
    for v in sorted(int(x) for x in values):
        if run and v == run[-1] + 1:
            run.append(v)
        else:
            if run:
                out.append(f"{run[0]}–{run[-1]}" if len(run) > 1 else f"{run[0]}")
            run = [v]
    if run:
        out.append(f"{run[0]}–{run[-1]}" if len(run) > 1 else f"{run[0]}")
    return ", ".join(out)


def _horizon_summary(names, rows: list[DieboldMarianoRow], alpha: float, n_horizons: int) -> str:
    """'By horizon (Holm across 12 horizons, 5% level): ets better at 1–6; naive better at 12; no significant
    difference at 7–11.'"""
    a, b = names
    a_better = [r.horizon for r in rows if r.pvalue_holm < alpha and r.difference < 0]
    b_better = [r.horizon for r in rows if r.pvalue_holm < alpha and r.difference > 0]
    neither = [r.horizon for r in rows if math.isfinite(r.pvalue) and not r.pvalue_holm < alpha]
    same = [r.horizon for r in rows if r.note == _IDENTICAL]
    untested = [r.horizon for r in rows if not math.isfinite(r.pvalue) and r.note != _IDENTICAL]
    parts = [f"{who} better at {_ranges(hs)}" for who, hs in ((a, a_better), (b, b_better)) if hs]
    if neither:
        parts.append(f"no significant difference at {_ranges(neither)}")
    if same:
        parts.append(f"the same losses at {_ranges(same)}")
    if untested:
        parts.append(f"too few forecasts to test at {_ranges(untested)}")
    return (f"By horizon (Holm across {n_horizons} horizons, {percent_level(alpha)} level): " + "; ".join(parts)
            + ".")
