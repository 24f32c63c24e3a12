"""Benchmark of the weighted median out of core (assess.engine.median): the histogram plan against the windows.

Run: flock /work/bench.lock .venv/bin/python bench/bench_engine_median.py [--rows 1e7] [--dir /tmp/assess-bench]

Writes a regression Parquet file (two models in long format, all-distinct errors, weights 1-4) with DuckDB — kept
and reused with --dir — then times `weighted_medians` per model on DuckDB, each plan once in the same process
(wall and CPU seconds, the 1-minute load average beside them), checks that both give the same medians, and prints
the ratio windows / histogram. On a shared machine the ratio of one run is the figure to read.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def make_file(path: Path, rows: int) -> None:
    import duckdb

    con = duckdb.connect()
    con.execute("SET preserve_insertion_order = false")
    con.execute(f"""
        COPY (SELECT CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END AS model, y AS y_true,
                     y + (random() - 0.5) * 4 AS y_pred, CAST(1 + floor(random() * 4) AS DOUBLE) AS weight
              FROM (SELECT i, random() * 100 AS y FROM range({rows}) t(i)))
        TO '{path}' (FORMAT parquet, ROW_GROUP_SIZE 1000000)""")
    con.close()


def timed(fn):
    before, start = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    out = fn()
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF)
    return out, wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=float, default=1e7)
    parser.add_argument("--dir", default=None)
    args = parser.parse_args()
    rows = int(args.rows)
    from assess.engine import median
    from assess.engine.backends import DuckDBBackend
    from assess.engine.source import resolve_source

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.dir or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"regression-weighted-{rows}.parquet"
        if not path.exists():
            make_file(path, rows)
        sql = ('(SELECT model, CAST(y_true AS DOUBLE) AS y, CAST(y_pred AS DOUBLE) AS yp, CAST(weight AS DOUBLE) AS w '
               'FROM predictions) AS r')
        print(f"cores: {os.cpu_count()}, {rows:,} rows, all-distinct errors")
        results = {}
        with DuckDBBackend(resolve_source(str(path))) as backend:
            for plan, limit in (("histogram", median.FETCH_LIMIT), ("windows", 0)):
                median.FETCH_LIMIT = limit
                out, wall, cpu = timed(lambda: median.weighted_medians(backend, sql, ["model"]))
                results[plan] = ({str(m): float(v) for m, v in zip(out["model"], out["median_abs"])}, wall, cpu)
                print(f"{plan:9s} wall {wall:6.2f} s  CPU {cpu:6.2f} s  load {os.getloadavg()[0]:.1f}  "
                      f"medians {results[plan][0]}", flush=True)
        same = results["histogram"][0] == results["windows"][0]
        print(f"same medians: {same}; windows / histogram: wall {results['windows'][1] / results['histogram'][1]:.1f}x, "
              f"CPU {results['windows'][2] / results['histogram'][2]:.1f}x")


if __name__ == "__main__":
    main()
