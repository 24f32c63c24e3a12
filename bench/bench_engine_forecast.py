"""Benchmark (not a test) of forecasts out of core: ``python bench/bench_engine_forecast.py [rows]``.

Writes a long forecast Parquet file (default 10,000,000 rows: 1,000 monthly series × 120 origins × 12 horizons ×
~7 models, with a 90 % interval) and prints, in one run, with the load average and the core count:

1. one DuckDB scan that only sums ``y_pred`` (the physical floor: one read of the data);
2. every forecast metric pooled, per horizon and per series out of core (`assess.engine.reports.engine_reports`
   with DuckDB) and its ratio to the floor;
3. the in-memory path (`compute_reports` + `compute_breakdowns` after `read_table`) on the same file when it has
   at most 2,000,000 rows, and the ratio of the two.

Each timing is one run (the out-of-core one is minutes at 1e8 rows); on a shared machine compare the ratios.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assess.engine.reports import engine_reports  # noqa: E402
from assess.engine.source import resolve_source  # noqa: E402
from assess.inputs.roles import Overrides  # noqa: E402


def write_file(path: Path, rows: int) -> None:
    rng = np.random.default_rng(0)
    n_series, origins, horizons = 1000, 120, 12
    per_model = n_series * origins * horizons
    models = max(1, int(np.ceil(rows / per_model)))
    s = np.repeat(np.arange(n_series), origins * horizons)
    o = np.tile(np.repeat(np.arange(origins), horizons), n_series)
    h = np.tile(np.arange(1, horizons + 1), n_series * origins)
    t = o + h
    level = rng.normal(100, 20, n_series)
    actual = level[:, None] + 5 * np.sin(np.arange(origins + horizons + 1)[None, :] / 2) \
        + rng.normal(0, 1, (n_series, origins + horizons + 1))
    y = np.round(actual[s, t], 2)
    months = pd.period_range("2000-01", periods=origins + horizons + 1, freq="M").strftime("%Y-%m").to_numpy()
    parts = []
    for m in range(models):
        yp = np.round(actual[s, o] + rng.normal(m * 0.1, 1.5, per_model), 2)
        parts.append(pd.DataFrame({"series": pd.Categorical(np.char.add("s", s.astype(str))), "model": f"m{m}",
                                   "origin": months[o], "timestamp": months[t], "horizon": h.astype(np.int16),
                                   "y_true": y, "y_pred": yp, "lower_90": yp - 2.5, "upper_90": yp + 2.5}))
    pd.concat(parts, ignore_index=True).iloc[:rows].to_parquet(path, row_group_size=1_000_000)


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def main(rows: int = 10_000_000) -> None:
    import duckdb

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "forecasts.parquet"
        write_file(path, rows)
        print(f"{rows:,} rows, {path.stat().st_size / 2**20:,.0f} MiB; cores {os.cpu_count()}; load average "
              f"{os.getloadavg()[0]:.2f}")
        floor, _ = timed(lambda: duckdb.connect().execute(
            f"SELECT sum(y_pred) FROM read_parquet('{path}')").fetchall())
        engine, run = timed(lambda: engine_reports(resolve_source(str(path)), "duckdb", Overrides()))
        print(f"floor (one DuckDB scan summing y_pred): {floor:.2f} s")
        print(f"forecast metrics out of core (pooled, per horizon, per series): {engine:.2f} s = "
              f"{engine / floor:.1f}x the floor; load average {os.getloadavg()[0]:.2f}")
        if rows <= 2_000_000:
            from assess.inputs.assessment import describe
            from assess.inputs.read import read_table
            from assess.metrics.reports import compute_breakdowns, compute_reports

            def memory():
                a = describe(read_table(path), Overrides())
                return compute_reports(a), compute_breakdowns(a)

            mem, _ = timed(memory)
            print(f"in memory (read, describe, pooled + breakdowns): {mem:.2f} s; out of core / memory = "
                  f"{engine / mem:.2f}; load average {os.getloadavg()[0]:.2f}")
        print(f"models: {', '.join(run.reports)}; mase of m0 = {run.reports['m0']['mase'].value:.4f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000)
