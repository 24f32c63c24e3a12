r"""Forecast metrics out of core: the state of :mod:`assess.metrics.forecast_state` from a few SQL aggregations.

A forecast's metrics are the regression sums (:func:`assess.engine.regression.regression_sums_sql`) plus sums that
read the file's *actuals* — one ``y_true`` per (model, series, time step) — rather than the row alone:

- **time steps.** The distinct time stamps (and origins) of each model are few (one per target time, whatever the
  number of rows, origins and horizons): they are read back and numbered by the in-memory
  :func:`assess.inputs.timestamps.time_steps` (so the frequency and the season length m are the ones the in-memory path
  finds), and the (stamp → step) table goes back to the engine as an inline ``VALUES`` table;
- **actuals.** ``GROUP BY model, series, step`` of ``y_true`` (materialised: a temporary table in DuckDB, a cached
  view in Spark). Rows of one target time must agree on the actual; where they do not, the in-memory path keeps the
  first row's and the engines refuse the file (row order is not theirs to keep) naming the series and time;
- **MASE scales** (Hyndman & Koehler 2006; FPP3 §5.8, :mod:`assess.metrics.forecast`): per series
  :math:`s_m = \operatorname{mean}|y_t - y_{t-m}|` over the pairs of actuals exactly m steps apart — a self-join of
  the actuals on ``step = step - m`` (a pair across a gap is skipped, as in memory), for m = 1 and the season;
- **baselines** (FPP3 §5.2, :mod:`assess.metrics.forecast_baselines`): per row with origin o, target t and h = t − o,
  naive :math:`y_o`, seasonal naive :math:`y_{t - m(\lfloor (h-1)/m \rfloor + 1)}` and drift
  :math:`y_o + h (y_o - y_f)/(o - f)` (f the series' first step) — joins of each row to the actuals at those steps;
- the sums themselves, per model, per (model, horizon) and per (model, series): :math:`\sum w|e|/s_1`,
  :math:`\sum w|e|/s_m`, the interval's coverage, width, Winkler score and pinball loss (FPP3 §5.9) and, for each
  baseline, :math:`\sum w e^2` and :math:`\sum w (b - y)^2` over the rows where the baseline exists (skill scores).

The registry's formulas then run on those states unchanged, so the numbers are those of
``python -m assess metrics --engine memory`` (to rounding: sums in another order). Scans: the whole-file input checks
(horizons; one forecast per model, series, time and origin — at 10⁷ rows the costliest part after the sums), the
distinct stamps, the actuals, one aggregation per (model, horizon, series) that numpy combines into the pooled,
per-horizon and per-series sums (`_combine`), and the exact medians from the rows in ``GROUPING SETS``
(`_medians`; with weights the averaged inverted CDF of `assess.engine.median`, as for regression); every join's
other side is a per-series or per-time table.

Not out of core: the block-bootstrap intervals of forecasts (their note says so; use ``--engine memory``). The
season of a per-horizon or per-series group is the model's (the in-memory path re-reads it from the group's own
stamps; they differ only for a group with a single stamp).
When several series' MASE scales are undefined, the reason names the series first in text order (memory: the
series of the first such row).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

import numpy as np
import pandas as pd

from assess.core.data import Task
from assess.core.errors import AssessError
from assess.engine import expressions
from assess.engine.binary import file_order
from assess.engine.median import weighted_medians
from assess.engine.regression import regression_sums_sql, state_of_row, sums_metric
from assess.inputs.columns import label_strings, time_values
from assess.inputs.roles import interval_level
from assess.inputs.timestamps import FREQUENCY_SEASONS, time_steps
from assess.metrics.evaluate import ForecastBaselines, MetricReport, MetricResult, run_metric
from assess.metrics.forecast_baselines import BASELINES
from assess.metrics.forecast_state import ForecastState
from assess.metrics.registry import applicable, get

#: The key of "no series column" / of a missing series cell in SQL (joins do not match NULL).
NO_SERIES = "\u0000"
#: The breakdown frame's columns (those of `assess.metrics.breakdown.breakdown`).
COLUMNS = ["model", "by", "series", "horizon", "key", "value", "low", "high", "n", "reason"]


@dataclass(frozen=True)
class ForecastRun:
    """Per model the pooled `MetricReport`; ``breakdown`` the per-horizon and per-series metrics as
    `assess.metrics.breakdown.breakdown`'s tidy frame; ``season`` the season length per model."""

    reports: dict[str, MetricReport]
    breakdown: pd.DataFrame
    season: dict[str, int | None]


def _text(backend) -> str:
    return "VARCHAR" if backend.name == "duckdb" else "STRING"


def _rows_sql(backend, assessment, sources) -> str:
    """One row per (model, forecast): model, skey, s_raw, tkey, t_raw, okey, o_raw, h, y, yp, w, lo, hi."""
    r, q, text = assessment.roles, backend.ident, _text(backend)
    skey = f"COALESCE(CAST({q(r.series)} AS {text}), {backend.literal(NO_SERIES)})" if r.series else \
        backend.literal(NO_SERIES)
    parts = []
    for c in sources:
        w = f"CAST({c.weight} AS DOUBLE)" if c.weight else "CAST(1.0 AS DOUBLE)"
        parts.append(
            f"SELECT {c.model} AS model, {skey} AS skey, {q(r.series) if r.series else 'NULL'} AS s_raw, "
            f"CAST({q(r.timestamp)} AS {text}) AS tkey, {q(r.timestamp)} AS t_raw, "
            + (f"CAST({q(r.origin)} AS {text}) AS okey, {q(r.origin)} AS o_raw, " if r.origin else
               f"CAST(NULL AS {text}) AS okey, NULL AS o_raw, ")
            + (f"CAST({q(r.horizon)} AS DOUBLE) AS h, " if r.horizon else "CAST(1.0 AS DOUBLE) AS h, ")
            + f"CAST({c.y_true} AS DOUBLE) AS y, CAST({c.y_pred} AS DOUBLE) AS yp, {w} AS w, "
            + (f"CAST({q(r.lower)} AS DOUBLE) AS lo, CAST({q(r.upper)} AS DOUBLE) AS hi " if r.lower and r.upper
               else "CAST(NULL AS DOUBLE) AS lo, CAST(NULL AS DOUBLE) AS hi ")
            + "FROM predictions")
    return "(" + "\nUNION ALL\n".join(parts) + ") AS r"


def _materialise(backend, name: str, sql: str) -> None:
    if backend.name == "duckdb":
        backend.query(f"CREATE OR REPLACE TEMP TABLE {name} AS {sql}")
    else:
        backend.query(f"CREATE OR REPLACE TEMP VIEW {name} AS {sql}")
        backend.query(f"CACHE TABLE {name}")


def _values_sql(backend, rows: list[tuple], names: str, types: tuple[str, ...]) -> str:
    """An inline table of ``rows`` (typed by ``types``: "text", "int", "double")."""
    def lit(v, kind):
        if v is None or (isinstance(v, float) and not np.isfinite(v)):
            return f"CAST(NULL AS {'DOUBLE' if kind == 'double' else 'BIGINT' if kind == 'int' else _text(backend)})"
        if kind == "text":
            return backend.literal(str(v))
        return f"CAST({int(v)} AS BIGINT)" if kind == "int" else f"CAST({float(v)!r} AS DOUBLE)"
    body = ", ".join("(" + ", ".join(lit(v, k) for v, k in zip(row, types)) + ")" for row in rows)
    return f"(VALUES {body}) AS v({names})"


def _numeric_like(values) -> pd.Series:
    """Raw stamps or labels as the in-memory reader would type them (Spark reads CSV cells as text)."""
    s = pd.Series(list(values), dtype=object)
    try:
        return pd.to_numeric(s)
    except (ValueError, TypeError):
        return s


def _steps(backend, assessment, rows_sql, season) -> tuple[list[tuple], dict]:
    """(stamp rows (model, key, is_origin, step), {model: season m or None}) by the in-memory numbering."""
    r, name = assessment.roles, assessment.table.name
    times = backend.query(f"SELECT model, tkey AS key, min(t_raw) AS raw, count(*) AS n FROM {rows_sql} "
                          "GROUP BY model, tkey")
    if times["key"].isna().any():
        raise AssessError(f"{name}: column {r.timestamp!r} has empty cells; every forecast needs its time stamp")
    origins = backend.query(f"SELECT model, okey AS key, min(o_raw) AS raw FROM {rows_sql} WHERE okey IS NOT NULL "
                            "GROUP BY model, okey") if r.origin else None
    out, seasons = [], {}
    for model, t in times.groupby("model", sort=False):
        tv = time_values(_numeric_like(t["raw"]))
        try:
            t_steps, freq = time_steps(tv)
            if origins is not None:
                o = origins[origins["model"] == model]
                ov = time_values(_numeric_like(o["raw"]))
                both, freq_both = time_steps(np.concatenate([np.asarray(tv), np.asarray(ov)]))
                if freq_both != freq:
                    raise ValueError(f"the time stamps are {freq} but with the origins {freq_both}")
                out += [(model, k, 1, int(s)) for k, s in zip(o["key"], both[len(tv):])]
        except ValueError as exc:
            raise AssessError(f"{name}: column {r.timestamp!r}: {exc}") from None
        out += [(model, k, 0, int(s)) for k, s in zip(t["key"], t_steps)]
        seasons[str(model)] = int(season) if season is not None else FREQUENCY_SEASONS[freq]
    return out, seasons


def _check_rows(backend, assessment, rows_sql) -> None:
    """The in-memory input checks that read the whole file: horizons (whole numbers >= 1) and one forecast per
    model, series, time stamp and origin (or horizon) (`assess.inputs.forecast_checks`)."""
    r, name = assessment.roles, assessment.table.name
    if r.horizon:
        bad = backend.query(f"SELECT count(*) AS n, min(h) AS first FROM {rows_sql} "
                            "WHERE h IS NULL OR h < 1 OR h <> floor(h)")
        if int(bad["n"][0]):
            raise AssessError(f"{name}: column {r.horizon!r} has {int(bad['n'][0]):,} horizon(s) that are not a "
                              "whole number of steps >= 1 (or are empty)")
    within = "okey" if r.origin else "h"
    dup = backend.query(f"SELECT count(*) AS n, min(tkey) AS t FROM (SELECT model, skey, tkey, {within}, count(*) AS c "
                        f"FROM {rows_sql} GROUP BY model, skey, tkey, {within}) AS d WHERE c > 1")
    if int(dup["n"][0]):
        what = f"origin ({r.origin!r})" if r.origin else (f"horizon ({r.horizon!r})" if r.horizon else "")
        raise AssessError(f"{name}: column {r.timestamp!r} has {int(dup['n'][0]):,} time stamp(s) repeated within "
                          f"one model, series{' and ' + what if what else ''} (e.g. {dup['t'][0]}); each forecast "
                          "must appear once")


def forecast_reports(backend, assessment, sources, *, models=None, keys=None, ci=None, season=None,
                     level=None, baselines=False) -> ForecastRun:
    """The forecast metrics of every model (pooled) and per horizon and series (module docstring); with
    ``baselines`` also each metric of the naive, seasonal naive and drift forecasts (one more scan), as the
    in-memory reports carry them (`assess.metrics.evaluate._forecast_baselines`)."""
    r, name = assessment.roles, assessment.table.name
    weighted = r.weight is not None
    rows_sql = _rows_sql(backend, assessment, sources)
    _check_rows(backend, assessment, rows_sql)
    stamps, seasons = _steps(backend, assessment, rows_sql, season)
    steps_sql = _values_sql(backend, stamps, "model, key, is_origin, step", ("text", "text", "int", "int"))
    season_sql = _values_sql(backend, [(m, s) for m, s in seasons.items()], "model, m", ("text", "int"))
    text = _text(backend)
    _materialise(backend, "fc_actuals", f"""
        SELECT r.model AS model, r.skey AS skey, v.step AS step, min(r.y) AS y, max(r.y) AS y_max,
               min(CAST(r.t_raw AS {text})) AS t_raw, min(r.s_raw) AS s_raw
        FROM {rows_sql} JOIN {steps_sql} ON r.model = v.model AND r.tkey = v.key AND v.is_origin = 0
        WHERE r.y IS NOT NULL GROUP BY r.model, r.skey, v.step""")
    clash = backend.query("SELECT count(*) AS n, min(skey) AS skey, min(t_raw) AS t FROM fc_actuals "
                          "WHERE y <> y_max")
    if int(clash["n"][0]):
        series = "" if clash["skey"][0] == NO_SERIES else f"series {clash['skey'][0]}, "
        raise AssessError(f"{name}: rows of one target time disagree on the actual ({series}time {clash['t'][0]}; "
                          f"{int(clash['n'][0]):,} such times); the out-of-core engines need one {r.y_true!r} per "
                          "series and time (use --engine memory, which keeps the first row's)")
    # per series: the first step and its actual (drift), and the MASE scales' pair sums for m = 1 and the season
    pair = "count(b{i}.y) AS pairs{i}, sum(abs(a.y - b{i}.y)) AS sum{i}"
    _materialise(backend, "fc_series", f"""
        SELECT a.model AS model, a.skey AS skey, min(a.s_raw) AS s_raw, min(a.step) AS f,
               {pair.format(i=1)}, {pair.format(i='m')},
               CASE WHEN count(b1.y) > 0 AND sum(abs(a.y - b1.y)) > 0
                    THEN sum(abs(a.y - b1.y)) / count(b1.y) END AS scale1,
               CASE WHEN count(bm.y) > 0 AND sum(abs(a.y - bm.y)) > 0
                    THEN sum(abs(a.y - bm.y)) / count(bm.y) END AS scalem
        FROM fc_actuals a JOIN {season_sql} ON a.model = v.model
        LEFT JOIN fc_actuals b1 ON b1.model = a.model AND b1.skey = a.skey AND b1.step = a.step - 1
        LEFT JOIN fc_actuals bm ON bm.model = a.model AND bm.skey = a.skey AND bm.step = a.step - v.m
        GROUP BY a.model, a.skey""")
    _materialise(backend, "fc_first", """
        SELECT s.model AS model, s.skey AS skey, s.f AS f, a.y AS y_f, s.scale1 AS scale1, s.scalem AS scalem
        FROM fc_series s JOIN fc_actuals a ON a.model = s.model AND a.skey = s.skey AND a.step = s.f""")
    series = backend.query("SELECT model, skey, s_raw, pairs1, sum1, pairsm, summ FROM fc_series")
    labels = dict(zip(series["skey"], label_strings(_numeric_like(series["s_raw"])))) if r.series else {}
    why = {(str(mo), sk, m): _scale_reason(p, s, m)
           for mo, sk, p1, s1, pm, sm in zip(series["model"], series["skey"], series["pairs1"], series["sum1"],
                                            series["pairsm"], series["summ"])
           for m, p, s in ((1, p1, s1), (seasons[str(mo)], pm, sm)) if m is not None}
    origin = "os.step" if r.origin else "ts.step - CAST(r.h AS BIGINT)"
    joined = f"""
        SELECT r.model AS model, r.skey AS skey, r.h AS h, r.y AS y, r.yp AS yp, r.w AS w, r.lo AS lo, r.hi AS hi,
               ts.step AS t, {origin} AS o, sf.f AS f, sf.y_f AS y_f, sf.scale1 AS scale1, sf.scalem AS scalem,
               se.m AS m
        FROM {rows_sql}
        JOIN {steps_sql.replace(' AS v(', ' AS ts(')} ON r.model = ts.model AND r.tkey = ts.key AND ts.is_origin = 0
        {f"LEFT JOIN {steps_sql.replace(' AS v(', ' AS os(')} ON r.model = os.model AND r.okey = os.key "
         "AND os.is_origin = 1" if r.origin else ""}
        LEFT JOIN fc_first sf ON r.model = sf.model AND r.skey = sf.skey
        JOIN {season_sql.replace(' AS v(', ' AS se(')} ON r.model = se.model"""
    with_baselines = f"""
        SELECT j.*, ao.y AS naive, al.y AS seasonal_naive,
               CASE WHEN j.o - j.f > 0 THEN ao.y + CAST(j.t - j.o AS DOUBLE) * (ao.y - j.y_f)
                                                 / CAST(j.o - j.f AS DOUBLE) END AS drift
        FROM ({joined}) AS j
        LEFT JOIN fc_actuals ao ON ao.model = j.model AND ao.skey = j.skey AND ao.step = j.o
        LEFT JOIN fc_actuals al ON al.model = j.model AND al.skey = j.skey
             AND al.step = j.t - j.m * (CAST(floor(CAST(j.t - j.o - 1 AS DOUBLE) / j.m) AS BIGINT) + 1)"""
    lv = level if level is not None else interval_level(r)
    has_interval = bool(r.lower and r.upper)
    sums = _forecast_sums_sql(lv if has_interval else None)
    aggregate = f"{regression_sums_sql(backend, weighted, median=False)}, {sums}"
    # one scan at the finest grouping (model, horizon, series): a few thousand groups whose sums add up to the
    # pooled, per-horizon and per-series ones (`_combine`) — the engine computes each aggregate once per row
    fine = backend.query(f"""
        SELECT model, h, skey, sum(CASE WHEN t - o < 1 THEN 1 ELSE 0 END) AS early, sum(y) AS sum_y,
               sum(w * y) AS sum_wy, sum(w * y * y) AS sum_wyy, {aggregate}
        FROM ({with_baselines}) AS x GROUP BY model, h, skey""")
    tables = {by: _combine(fine, ["model"] + ([by] if by else []), weighted)
              for by in ("", "h" if r.horizon else None, "skey" if r.series else None) if by is not None}
    _medians(backend, rows_sql, tables, r, weighted)   # the median of |e| needs no join: from the rows alone
    early = int(tables[""]["early"].sum())
    if early:
        raise AssessError(f"{name}: {early:,} forecast(s) have an origin at or after their target time, so no "
                          "baseline forecast can be formed; use --engine memory (it reports the row)")
    context = _Context(assessment, seasons, why, labels, has_interval, lv, weighted)
    pooled = {str(m): context.state(_row(tables[""], i), str(m)) for i, m in enumerate(tables[""]["model"])}
    chosen = list(models or file_order(assessment, pooled))
    unknown = [m for m in chosen if m not in pooled]
    if unknown:
        raise AssessError(f"{name}: no model {unknown[0]!r} (models: {', '.join(pooled)})")
    if keys is None:
        specs = list(applicable(Task.FORECAST, has_scores=False, has_intervals=has_interval))
    else:
        specs = [get(Task.FORECAST, key) for key in keys]
    base = _baselines(backend, with_baselines, context, specs, tables[""], chosen, weighted) if baselines else {}
    reports = {m: _report(pooled[m], m, specs, ci, base.get(m)) for m in chosen}
    rows = []
    for by, column in (("horizon", "h"), ("series", "skey")):
        if column not in tables:
            continue
        t = tables[column]
        for i, (model, g) in enumerate(zip(t["model"], t[column])):
            model = str(model)
            if model not in chosen:
                continue
            state, n = context.state(_row(t, i), model, series=g if by == "series" else None)
            report = _report((state, n), model, specs, None)
            for res in report.results:
                rows.append((model, by, labels.get(g) if by == "series" else None,
                             float(g) if by == "horizon" else np.nan, res.key, res.value, np.nan, np.nan, n,
                             res.reason))
    frame = pd.DataFrame(rows, columns=COLUMNS)
    if not frame.empty:    # the in-memory order: by grouping, model, then the group's value (series: first seen)
        frame = frame.sort_values(["by", "model", "horizon"], kind="stable").reset_index(drop=True)
    return ForecastRun(reports, frame, seasons)


#: How the sums of `_forecast_sums_sql` / `regression_sums_sql` of fine groups combine (the rest add up).
_MAX = ("max_abs", "y_max")
_MIN = ("y_min", "unscaled1_series", "unscaledm_series")
_CENTRED = ("ss_true", "ss_error")


def _combine(fine: pd.DataFrame, keys: list[str], weighted: bool) -> dict:
    r"""The sums of the groups ``keys`` from those of the finest groups: sums and counts add, maxima and minima
    combine, and the centred sums of squares by the parallel formula (Chan, Golub & LeVeque 1979)
    :math:`M_2 = \sum_g M_{2,g} + \sum_g n_g (\bar x_g - \bar x)^2` unweighted — stable, as the engine's
    ``var_pop`` per group — and from the weighted raw moments :math:`\sum w x^2 - (\sum w x)^2 / W` with weights
    (as `assess.engine.regression` does in SQL)."""
    f = fine.copy()
    n = f["n_rows"].astype(np.float64)
    f["_mean_y"] = f["sum_y"] / n
    f["_mean_e"] = f["sum_error"] / n
    grouped = f.groupby(keys, sort=False, dropna=False)
    adds = [c for c in f.columns if c not in keys and c not in _MAX + _MIN + _CENTRED + ("h", "skey", "model")
            and not c.startswith("_")]
    out = grouped[adds].sum()
    for c in _MAX:
        out[c] = grouped[c].max()
    for c in _MIN:
        out[c] = grouped[c].agg(lambda v: min((x for x in v if isinstance(x, str) or (x == x and x is not None)),
                                              default=None) if v.dtype == object else v.min())
    if weighted:
        W = out["w_sum"]
        out["ss_true"] = out["sum_wyy"] - out["sum_wy"] * out["sum_wy"] / W
        out["ss_error"] = out["sum_sq"] - out["sum_error"] * out["sum_error"] / W
    else:
        total = out["n_rows"].astype(np.float64)
        for c, mean in (("ss_true", "_mean_y"), ("ss_error", "_mean_e")):
            grand = (f[mean] * n).groupby([f[k] for k in keys], sort=False, dropna=False).sum() / total
            f["_grand"] = grand.reindex(pd.MultiIndex.from_frame(f[keys]) if len(keys) > 1 else f[keys[0]]).to_numpy()
            f["_between"] = n * (f[mean] - f["_grand"]) ** 2
            out[c] = f.groupby(keys, sort=False, dropna=False)[c].sum() + \
                f.groupby(keys, sort=False, dropna=False)["_between"].sum()
    out["median_abs"] = np.nan
    out = out.reset_index()
    return {c: out[c].to_numpy() for c in out.columns}


def _medians(backend, rows_sql, tables, roles, weighted) -> None:
    """Put the exact median absolute error of every group into ``tables`` (``median_abs``), from the rows' |e| in
    the grouping sets (model), (model, horizon), (model, series) without the joins the other sums need (the holistic
    aggregate was half the time of the joined scan at 10⁷ rows): the engine's exact quantile without weights, the
    averaged inverted CDF of `assess.engine.median.weighted_medians` with them."""
    keys = ["model"] + (["h"] if roles.horizon else []) + (["skey"] if roles.series else [])
    sets = [["model"]] + [["model", k] for k in keys[1:]]
    if weighted:
        med = weighted_medians(backend, rows_sql, keys, sets)
    else:
        quantile = "quantile_cont" if backend.name == "duckdb" else "percentile"
        med = backend.arrays(f"""
            SELECT {', '.join(keys + [f'grouping({k}) AS g_{k}' for k in keys])},
                   {quantile}(abs(CAST(yp AS DOUBLE) - CAST(y AS DOUBLE)), 0.5) AS median_abs
            FROM {rows_sql} GROUP BY GROUPING SETS ({', '.join('(' + ', '.join(g) + ')' for g in sets)})""")
    absent = np.ones(len(med["model"]), dtype=int)           # a key the file lacks is in no grouping set
    g_h, g_s = (med[f"g_{k}"].astype(int) if k in keys else absent for k in ("h", "skey"))
    for by, mask in (("", (g_h == 1) & (g_s == 1)), ("h", g_h == 0), ("skey", g_s == 0)):
        if by not in tables:
            continue
        lookup = {(str(m), None if not by else g): v for m, g, v in
                  zip(med["model"][mask], (med[by][mask] if by else [None] * int(mask.sum())),
                      med["median_abs"][mask])}
        t = tables[by]
        t["median_abs"] = np.array([lookup[(str(m), None if not by else g)] for m, g in
                                    zip(t["model"], t[by] if by else [None] * len(t["model"]))], dtype=np.float64)


def _row(table: dict, i: int) -> dict:
    return {k: v[i] for k, v in table.items()}


def _scale_reason(pairs, total, m: int) -> str | None:
    """Why a series' MASE scale is undefined (the words of `assess.metrics.forecast.naive_scale`)."""
    if not pairs:
        return f"no two actuals {m} step(s) apart (a series needs at least {m + 1} consecutive time stamps)"
    if total == 0:
        return f"the actuals do not change over {m} step(s): the naive forecast is perfect (scale 0)"
    return None


#: The MASE sums (w|e|/s per row) and, per scale, the rows of series whose scale is undefined and the first such
#: series in text order.
_TERMS = expressions.regression_terms("y", "yp")
SCALED_SUMS = (
    f"sum(w * ({_TERMS['sum_abs']} / scale1)) AS sum_scaled",
    "sum(CASE WHEN scale1 IS NULL THEN 1 ELSE 0 END) AS unscaled1",
    "min(CASE WHEN scale1 IS NULL THEN skey END) AS unscaled1_series",
    f"sum(w * ({_TERMS['sum_abs']} / scalem)) AS sum_scaled_seasonal",
    "sum(CASE WHEN scalem IS NULL THEN 1 ELSE 0 END) AS unscaledm",
    "min(CASE WHEN scalem IS NULL THEN skey END) AS unscaledm_series")


def _forecast_sums_sql(level: float | None) -> str:
    """The forecast sums beyond the regression ones (module docstring) over the joined rows."""
    parts = list(SCALED_SUMS) + [
        "sum(CASE WHEN lo > hi THEN 1 ELSE 0 END) AS crossed",
        f"sum(w * {expressions.covered('y', 'lo', 'hi')}) AS sum_covered",
        "sum(w * (hi - lo)) AS sum_width",
    ]
    if level is not None:
        alpha = 1.0 - float(level)
        # the interval's pinball loss: of l at α/2 and of u at 1 - α/2, halved
        parts += [
            f"sum(w * {expressions.winkler('y', 'lo', 'hi', level)}) AS sum_winkler",
            f"sum(w * (0.5 * ({expressions.pinball('y', 'lo', alpha / 2)} "
            f"+ {expressions.pinball('y', 'hi', 1 - alpha / 2)}))) AS sum_pinball"]
    for b in BASELINES:
        parts += [f"count({b}) AS n_{b}",
                  f"sum(CASE WHEN {b} IS NOT NULL THEN w * ({_TERMS['sum_sq']}) ELSE 0.0 END) AS sum_sq_on_{b}",
                  f"sum(CASE WHEN {b} IS NOT NULL THEN w * ({expressions.regression_terms('y', b)['sum_sq']}) "
                  f"ELSE 0.0 END) AS sum_sq_{b}"]
    return ",\n               ".join(parts)


class _Context:
    """What turns a row of sums into a `ForecastState`: seasons, scale reasons, series names, the interval."""

    def __init__(self, assessment, seasons, why, labels, has_interval, level, weighted):
        self.assessment, self.seasons, self.why, self.labels = assessment, seasons, why, labels
        self.has_interval, self.level, self.weighted = has_interval, level, weighted

    def _scaled(self, get, model, m, which, total):
        bad = int(get[f"unscaled{which}"])
        if not bad:
            return float(total), None
        code = get[f"unscaled{which}_series"]
        why = self.why.get((model, code, m))
        first = f" (e.g. series {self.labels.get(code, code)})" if self.assessment.roles.series else ""
        return None, (f"the {'seasonal ' if m > 1 else ''}naive scale (m = {m}) is undefined for the series of "
                      f"{bad:,} row(s){first}{': ' + why if why else ''}")

    def state(self, get, model, series=None, interval=True):
        """The `ForecastState` of one row of sums; ``interval=False`` for a baseline forecast (no interval)."""
        m = self.seasons[model]
        extra = {"season": m}
        extra["sum_scaled"], extra["scaled_reason"] = self._scaled(get, model, 1, "1", get["sum_scaled"])
        if m is None:
            extra["scaled_seasonal_reason"] = ("no season length: the time stamps do not imply one (yearly, integer "
                                               "or irregular stamps); give it (--season, or the page's season input)")
        else:
            extra["sum_scaled_seasonal"], extra["scaled_seasonal_reason"] = self._scaled(
                get, model, m, "m", get["sum_scaled_seasonal"])
        if not self.has_interval or not interval:
            extra["interval_reason"] = "the file has no prediction interval (lower/upper columns)"
        elif int(get["crossed"]):
            # memory names the first such row; the engines count them
            extra["interval_reason"] = f"{int(get['crossed']):,} interval(s) have lower > upper"
        else:
            extra |= {"sum_covered": float(get["sum_covered"]), "sum_width": float(get["sum_width"]),
                      "interval_level": self.level}
            if self.level is not None:
                extra |= {"sum_winkler": float(get["sum_winkler"]), "sum_pinball": float(get["sum_pinball"])}
        skill, reasons = {}, {}
        for b in BASELINES:
            if not int(get[f"n_{b}"]):
                reasons[b] = (f"the {b.replace('_', ' ')} forecast cannot be formed for any row"
                              + (" (no season length: give it)" if b == "seasonal_naive" and m is None else ""))
                continue
            skill[f"sum_sq_on_{b}"] = float(get[f"sum_sq_on_{b}"])
            skill[f"sum_sq_{b}"] = float(get[f"sum_sq_{b}"])
        extra |= {"skill_sums": skill, "skill_reasons": reasons}
        return state_of_row(get, self.assessment, model, ForecastState, **extra)


def _baselines(backend, rows_sql, context, specs, pooled, chosen, weighted) -> dict:
    """{model: {key: ForecastBaselines}}: each baseline forecast scored like a model on the rows where it exists —
    its regression sums and scaled errors (the file's scales), grouped by model and baseline."""
    keys = [m for m in specs if m.needs == "values" and "skill" not in m.shared]
    if not keys:
        return {}
    cols = "model, skey, y, w, scale1, scalem"
    rows = "(" + "\nUNION ALL\n".join(f"SELECT {cols}, {b} AS yp, {backend.literal(b)} AS base FROM ({rows_sql}) "
                                       f"AS x WHERE {b} IS NOT NULL" for b in BASELINES) + ") AS b"
    scaled = ", ".join(SCALED_SUMS)
    table = backend.arrays(f"SELECT model, base, {regression_sums_sql(backend, weighted)}, {scaled} "
                           f"FROM {rows} GROUP BY model, base")
    if weighted and any(m.key == "median_absolute_error" for m in keys):
        med = weighted_medians(backend, rows, ["model", "base"])
        found = {(str(m), b): v for m, b, v in zip(med["model"], med["base"], med["median_abs"])}
        table["median_abs"] = np.array([found.get((str(m), b), np.nan) for m, b in zip(table["model"], table["base"])],
                                       dtype=np.float64)
    out = {}
    for model in chosen:
        i = list(map(str, pooled["model"])).index(model)
        n = int(pooled["n_rows"][i])
        found = {b: int(pooled[f"n_{b}"][i]) for b in BASELINES}
        values = {b: {} for b in BASELINES}
        for j, (mo, b) in enumerate(zip(table["model"], table["base"])):
            if str(mo) != model:
                continue
            get = _row(table, j)
            state, _ = context.state(get | {"crossed": 0, "sum_covered": 0.0, "sum_width": 0.0} |
                                     {f"n_{x}": 0 for x in BASELINES}, model, interval=False)
            for m in keys:
                value, _, _ = run_metric(m.compute, state)
                values[b][m.key] = value
        m_ = context.seasons[model]
        how = ("the naive, seasonal naive" + (f" (m = {m_})" if m_ else "") + " and drift forecasts from the file's "
               "actuals (FPP3 §5.2), scored on the rows where each exists: "
               + ", ".join(f"{found[b]:,}" for b in BASELINES) + f" of {n:,} rows")
        out[model] = {m.key: ForecastBaselines({b: float(values[b].get(m.key, np.nan)) for b in BASELINES}, how)
                      for m in keys}
    return out


def _report(state_rows, model, specs, ci, baselines=None) -> MetricReport:
    state, n = state_rows
    results = []
    for m in specs:
        value, reason, note = sums_metric(
            m, state, interval_note=None if ci is None else
            "no block-bootstrap interval on the out-of-core path yet (use --engine memory)")
        bl = (baselines or {}).get(m.key)
        results.append(MetricResult(m.key, m.name, value, float("nan"), float("nan"), None, reason, note,
                                    MappingProxyType(bl.as_dict()) if bl else MappingProxyType({}),
                                    bl.method if bl else None))
    return MetricReport(task=Task.FORECAST, model=model, n=n, classes=(), results=tuple(results), table=None,
                        params=MappingProxyType({}), ci=ci, confidence_level=0.95, n_resamples=0, seed=None)
