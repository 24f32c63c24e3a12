"""Benchmark of the out-of-core paired tests and bootstrap (assess.engine.compare, assess.engine.bootstrap).

Run: .venv/bin/python bench/bench_engine_compare.py [--rows 2e7] [--memory-rows 2e6] [--big-only] [--distinct]

``--distinct`` keeps the scores unrounded (all distinct: DeLong takes its row windows, the memory-heavy way; the
budget is 1 GiB of peak RSS at 1e7 rows: ``--rows 1e7 --big-only --distinct``).

Writes a long Parquet file (id, model, y_true, score; 2 models, rows = samples x 2; scores rounded to 4 decimals, so
the grouped tables are exact) with DuckDB, then prints, each one run (wall seconds of a child process and its peak
RSS; the machine may be shared, so the load average is printed too; the DuckDB runs at --rows with their statement
breakdown, see bench_engine.py):

- ``compare --test delong`` and ``--test mcnemar`` with ``--engine duckdb`` at --rows, as a ratio to one DuckDB scan
  summing the score column (the physical floor);
- at --memory-rows: the same two tests in memory and on DuckDB, and ``metrics --ci bootstrap`` (1,000 resamples) in
  memory and on DuckDB (the grouped table's resampling costs the number of distinct scores, not of rows).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_engine import LAST_CPU, PY, floor_scan, print_breakdown, run_child, run_traced  # noqa: E402


def make_file(path: Path, rows: int, distinct: bool = False) -> None:
    import duckdb

    samples = rows // 2
    con = duckdb.connect()
    con.execute("SET preserve_insertion_order = false")
    con.execute("SET enable_progress_bar = false")
    # y ~ Bernoulli(0.3); model_b's score is noisier (AUC ~0.85 and ~0.75); both models score every sample
    digits = 15 if distinct else 4
    con.execute(f"""
        COPY (SELECT i AS id, m.model, CAST(y AS TINYINT) AS y_true,
                     round(least(1.0, greatest(0.0, 0.35 + 0.25 * y + m.noise * (random() - 0.5))), {digits})
                         AS score,
                     CAST(round(least(1.0, greatest(0.0, 0.35 + 0.25 * y + m.noise * (random() - 0.5)))) AS TINYINT)
                         AS y_pred
              FROM (SELECT i, CASE WHEN random() < 0.3 THEN 1 ELSE 0 END AS y FROM range({samples}) t(i)) s,
                   (VALUES ('model_a', 0.5), ('model_b', 0.8)) m(model, noise))
        TO '{path}' (FORMAT parquet, ROW_GROUP_SIZE 1000000)""")
    con.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=float, default=2e7)
    parser.add_argument("--memory-rows", type=float, default=2e6)
    parser.add_argument("--dir", default=None, help="where to write the files (default: a temporary directory)")
    parser.add_argument("--big-only", action="store_true", help="only the two tests at --rows, with breakdowns")
    parser.add_argument("--distinct", action="store_true", help="unrounded (all distinct) scores")
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        big = Path(tmp) / "big.parquet"
        make_file(big, int(args.rows), args.distinct)
        floor, _ = floor_scan(big)
        for test in ("delong", "mcnemar"):
            wall, rss, code, lines = run_traced([PY, "-m", "assess", "compare", str(big), "--test", test, "--engine",
                                                 "duckdb"], trace=True)
            print(f"compare --test {test} --engine duckdb at {int(args.rows):,} rows: {wall:.1f} s (exit {code}), "
                  f"one scan summing the score {floor:.2f} s: ratio {wall / floor:.1f}x; peak RSS {rss:,.0f} MiB "
                  f"(budget 1024); {LAST_CPU[0]:.1f} CPU s; load {os.getloadavg()[0]:.1f}")
            print_breakdown(wall, lines)
        if args.big_only:
            return
        small = Path(tmp) / "small.parquet"
        make_file(small, int(args.memory_rows), args.distinct)
        print(f"at {int(args.memory_rows):,} rows (load average {os.getloadavg()[0]:.1f}):")
        for test in ("delong", "mcnemar"):
            runs = {e: run_child([PY, "-m", "assess", "compare", str(small), "--test", test, "--engine", e])
                    for e in ("memory", "duckdb")}
            print(f"  compare --test {test}: memory {runs['memory'][0]:.1f} s ({runs['memory'][1]:,.0f} MiB), duckdb "
                  f"{runs['duckdb'][0]:.1f} s ({runs['duckdb'][1]:,.0f} MiB): memory / duckdb "
                  f"{runs['memory'][0] / runs['duckdb'][0]:.1f}x")
        runs = {e: run_child([PY, "-m", "assess", "metrics", str(small), "--ci", "bootstrap", "--engine", e,
                              "--quiet"]) for e in ("memory", "duckdb")}
        print(f"  metrics --ci bootstrap (1,000 resamples): memory {runs['memory'][0]:.1f} s "
              f"({runs['memory'][1]:,.0f} MiB), duckdb {runs['duckdb'][0]:.1f} s ({runs['duckdb'][1]:,.0f} MiB): "
              f"memory / duckdb {runs['memory'][0] / runs['duckdb'][0]:.1f}x")


if __name__ == "__main__":
    main()
