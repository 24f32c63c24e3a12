"""Benchmark of the out-of-core path (assess.engine): the CLI on a large binary Parquet file, against one read.

Run: .venv/bin/python bench/bench_engine.py [--rows 1e8] [--memory-rows 1e7] [--spark-rows 1e7] [--no-spark]
     [--duckdb-only]
     [--dir /tmp/assess-bench]   (with --dir the files are kept there and reused by the next run)

Writes a binary Parquet file in long format (score float64, y_true int8, 2 models; scores with ~all values
distinct, so the run takes the 2^16-bin grid with error bounds) with DuckDB, then prints, each one run (wall
seconds; the machine may be shared, so the load average is printed too):

- ``python -m assess metrics FILE --engine duckdb --ci delong`` (every binary metric, DeLong interval) against the
  physical floor — one DuckDB scan summing the score column — as a ratio (target <= 4x), and the CLI's peak RSS
  (getrusage of the child; target <= 1 GiB);
- the in-memory path (``--engine memory``) at --memory-rows, time and peak RSS, and scikit-learn called one metric at
  a time after pandas.read_parquet (the in-memory path's lead);
- the same aggregation on local Spark (``--engine spark``, local[*]) at --spark-rows: time, ratio to DuckDB on the
  same file;
- CLI cold start: ``python -m assess --help`` and ``inspect`` on the breast-cancer sample.

The DuckDB run at --rows also prints DuckDB's floor for this work (`work_floor`: start-up, one logarithm per row for
the exact log loss and the cheapest bin count found, less one read) and its stage-by-stage breakdown: every SQL statement's wall time (the engine's
``ASSESS_ENGINE_TRACE``), how many of them read the file, and the rest of the run (start-up, imports, Python).

Every line carries the 1-minute load average when it was measured (``load``): on a shared machine the ratios of one
run are the figures to read.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable


def make_file(path: Path, rows: int) -> None:
    import duckdb

    con = duckdb.connect()
    con.execute("SET preserve_insertion_order = false")
    con.execute("SET enable_progress_bar = false")
    # y ~ Bernoulli(0.3); the score leans towards the truth: an AUC of about 0.8
    con.execute(f"""
        COPY (SELECT CASE WHEN i % 2 = 0 THEN 'model_a' ELSE 'model_b' END AS model,
                     CAST(y AS TINYINT) AS y_true,
                     least(1.0, greatest(0.0, 0.35 + 0.25 * y + 0.2 * (random() - 0.5) * 2)) AS score
              FROM (SELECT i, CASE WHEN random() < 0.3 THEN 1 ELSE 0 END AS y FROM range({rows}) t(i)))
        TO '{path}' (FORMAT parquet, ROW_GROUP_SIZE 1000000)""")
    con.close()


def floor_scan(path: Path) -> tuple[float, float]:
    """(wall, CPU seconds) of one DuckDB scan summing the score column."""
    import duckdb
    import resource

    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.perf_counter()
    con.execute(f"SELECT sum(score) FROM read_parquet('{path}')").fetchall()
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_SELF)
    con.close()
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def timed_scan(path: Path, sql: str) -> float:
    """Best wall seconds of two runs of ``sql`` (``{file}`` stands for the Parquet file) on one DuckDB connection."""
    import duckdb

    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    con.execute("SET perfect_ht_threshold = 23")       # as the engine sets it (assess.engine.backends)
    best = float("inf")
    for _ in range(2):
        start = time.perf_counter()
        con.execute(sql.format(file=f"read_parquet('{path}')")).fetchall()
        best = min(best, time.perf_counter() - start)
    con.close()
    return best


def work_floor(path: Path, floor: float) -> None:
    """What any DuckDB plan of this assessment must spend, each part in its cheapest form found, against the floor:

    - start-up: a Python that imports DuckDB and nothing else (the CLI also needs NumPy and pandas);
    - the log loss, exact as the issue asks: one logarithm per row, a scan that sums only that;
    - the ranking metrics: rows counted per model, truth and score bin at 2^16 bins, the bin a USMALLINT cast that
      DuckDB counts in its perfect hash table without a clamp (the engine's own curve scan; the cheapest of the keys
      tried: least/floor at 2^18, a modulo at 2^18, raw columns in a hash table);
    - less one read of the file, as a plan doing both in one scan would read it once.

    The sum is a floor for DuckDB, not for the hardware: a hand-written SIMD kernel could take the logarithms at a
    fraction of DuckDB's cost (one libm call per row)."""
    import duckdb

    con = duckdb.connect()
    lo, hi = con.execute(f"SELECT min(score), max(score) FROM read_parquet('{path}')").fetchone()
    con.close()
    starts = []
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run([PY, "-c", "import duckdb"], check=True)
        starts.append(time.perf_counter() - t)
    start_up = min(starts)
    log_loss = timed_scan(path, "SELECT sum(-ln(CASE WHEN y_true = 1 THEN score ELSE 1.0 - score END)) FROM {file}")
    model = "CASE WHEN model = 'model_a' THEN 0 WHEN model = 'model_b' THEN 1 ELSE 2 END"
    count = timed_scan(path, f"SELECT {model} * 2 + CASE WHEN y_true = 1 THEN 1 ELSE 0 END AS g, "
                             f"CAST(floor((score - {lo!r}) * {65535 / (hi - lo)!r}) AS USMALLINT) AS bin, "
                             "count(*) FROM {file} GROUP BY 1, 2")
    total = start_up + log_loss + count - floor
    print(f"  DuckDB's floor for this work: start-up {start_up:.2f} s + log-loss scan {log_loss:.2f} s + bin-count "
          f"scan {count:.2f} s - one read {floor:.2f} s = {total:.2f} s: {total / floor:.1f}x the floor scan")


#: CPU seconds (user + system, all threads) of the last child run: on a shared machine a steadier figure than wall
#: time, printed beside it.
LAST_CPU = [0.0]


def run_child(argv: list[str]) -> tuple[float, float, int]:
    """(wall seconds, peak RSS MiB of this child, exit status): one child per call, so the RSS maximum is its own."""
    return run_traced(argv)[:3]


def run_traced(argv: list[str], trace: bool = False) -> tuple[float, float, int, list[str]]:
    """`run_child` plus, with ``trace``, the engine's statement trace (``ASSESS_ENGINE_TRACE``: one stderr line per
    SQL statement with its wall seconds)."""
    script = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
              "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
              "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
              "print(time.perf_counter() - t, u.ru_maxrss, r.returncode, u.ru_utime + u.ru_stime)")
    # bytecode cached as a user's Python caches it: with PYTHONDONTWRITEBYTECODE set (as in some sandboxes) every run
    # would compile the package's ~400 modules again, a second of start-up that no installed copy pays
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONPATH": str(ROOT)}
    if trace:
        env["ASSESS_ENGINE_TRACE"] = "1"
    out = subprocess.run([PY, "-c", script, *argv], capture_output=True, text=True, cwd=ROOT, env=env)
    wall, rss_kb, code, cpu = out.stdout.split()
    lines = [line for line in out.stderr.splitlines() if line.startswith("engine-trace")]
    LAST_CPU[0] = float(cpu)
    return float(wall), int(rss_kb) / 1024, int(code), lines


def print_breakdown(wall: float, lines: list[str]) -> None:
    """The run's statements, slowest first, how many read the file, and what the rest of the run took (start-up,
    imports, reading the first rows into pandas, the metrics on the grouped tables, the JSON)."""
    timed = []
    for line in lines:
        parts = line.split(None, 3)          # engine-trace <seconds> s <what: sql>
        timed.append((float(parts[1]), parts[3]))
    sql = sum(t for t, _ in timed)
    scans = sum("[reads the file]" in what for _, what in timed)
    print(f"  breakdown: {len(timed)} statements, {scans} reading the file, {sql:.2f} s in the engine; the rest of "
          f"the run (start-up, imports, Python) {wall - sql:.2f} s")
    for t, what in sorted(timed, reverse=True)[:6]:
        print(f"    {t:7.2f} s  {what[:150]}")


def sklearn_one_by_one(path: Path) -> float:
    import numpy as np
    import pandas as pd
    from sklearn import metrics as skm

    start = time.perf_counter()
    frame = pd.read_parquet(path)
    for _, rows in frame.groupby("model"):
        y, s = rows["y_true"].to_numpy(), rows["score"].to_numpy()
        p = (s >= 0.5).astype(np.int8)
        skm.roc_auc_score(y, s)
        skm.average_precision_score(y, s)
        skm.log_loss(y, s)
        skm.brier_score_loss(y, s)
        skm.confusion_matrix(y, p)
        for fn in (skm.accuracy_score, skm.precision_score, skm.recall_score, skm.f1_score, skm.matthews_corrcoef,
                   skm.cohen_kappa_score, skm.balanced_accuracy_score):
            fn(y, p)
        skm.roc_curve(y, s)
        skm.precision_recall_curve(y, s)
    return time.perf_counter() - start


def _load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def _file(folder: Path, name: str, rows: int, keep: bool) -> Path:
    """The benchmark file of ``rows`` rows in ``folder``: written once, reused by later runs when ``keep``."""
    path = folder / f"{name}-{rows}.parquet"
    if keep and path.exists():
        return path
    start = time.perf_counter()
    make_file(path, rows)
    print(f"wrote {rows:,} rows ({path.stat().st_size / 2**20:,.0f} MiB) in {time.perf_counter() - start:.1f} s")
    return path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=float, default=1e8)
    parser.add_argument("--memory-rows", type=float, default=1e7)
    parser.add_argument("--spark-rows", type=float, default=1e7)
    parser.add_argument("--no-spark", action="store_true")
    parser.add_argument("--duckdb-only", action="store_true", help="only the DuckDB run at --rows and its breakdown")
    parser.add_argument("--dir", default=None, help="keep the files here and reuse them (default: a temporary "
                                                    "directory, removed at the end)")
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}, {_load()} (a shared machine: read the ratios of one run, not the seconds)")
    sample = ROOT / "assets" / "samples" / "breast_cancer_binary.csv"
    run_child([PY, "-m", "assess", "metrics", str(sample)])      # writes the bytecode caches once, before any timing
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.dir) if args.dir else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        keep = bool(args.dir)
        rows, memory_rows, spark_rows = int(args.rows), int(args.memory_rows), int(args.spark_rows)
        big = _file(folder, "binary", rows, keep)
        floor, floor_cpu = min(floor_scan(big) for _ in range(2))   # the second read from the page cache, as the CLI's
        duck_argv = ["-m", "assess", "metrics", "--engine", "duckdb", "--ci", "delong"]
        wall, rss, code, lines = run_traced([PY, *duck_argv[:3], str(big), *duck_argv[3:]], trace=True)
        cpu = LAST_CPU[0]
        print(f"duckdb CLI at {rows:,} rows: {wall:.1f} s (exit {code}), one scan summing the score {floor:.2f} s: "
              f"ratio {wall / floor:.1f}x (target <= 4x); peak RSS {rss:,.0f} MiB (target <= 1024); {_load()}")
        print(f"  CPU seconds (all threads): CLI {cpu:.1f}, the scan {floor_cpu:.2f}: ratio {cpu / floor_cpu:.1f}x")
        print_breakdown(wall, lines)
        work_floor(big, floor)
        if args.duckdb_only:
            return

        mem = big if memory_rows == rows else _file(folder, "binary", memory_rows, keep)
        wall_d, rss_d, _ = run_child([PY, *duck_argv[:3], str(mem), *duck_argv[3:]])
        wall_m, rss_m, code = run_child([PY, "-m", "assess", "metrics", str(mem), "--engine", "memory",
                                         "--labels-from", "scores"])
        sk = sklearn_one_by_one(mem)
        print(f"at {memory_rows:,} rows: memory CLI {wall_m:.1f} s (exit {code}, peak RSS {rss_m:,.0f} MiB), duckdb "
              f"CLI {wall_d:.1f} s (peak RSS {rss_d:,.0f} MiB), scikit-learn one by one after read_parquet "
              f"{sk:.1f} s: memory's lead over scikit-learn {sk / wall_m:.1f}x (target >= 5x); {_load()}")

        if not args.no_spark:
            spark_file = mem if spark_rows == memory_rows else _file(folder, "binary", spark_rows, keep)
            if spark_file != mem:
                wall_d, _, _ = run_child([PY, *duck_argv[:3], str(spark_file), *duck_argv[3:]])
            wall_s, rss_s, code = run_child([PY, "-m", "assess", "metrics", str(spark_file), "--engine", "spark",
                                             "--ci", "delong"])
            print(f"spark (local[*]) CLI at {spark_rows:,} rows: {wall_s:.1f} s (exit {code}); duckdb "
                  f"{wall_d:.1f} s: spark / duckdb {wall_s / wall_d:.1f}x; {_load()}")

    helps = [run_child([PY, "-m", "assess", "--help"])[0] for _ in range(3)]
    inspects = [run_child([PY, "-m", "assess", "inspect", str(sample)])[0] for _ in range(3)]
    print(f"CLI cold start (best of 3): --help {min(helps):.2f} s, inspect on the sample {min(inspects):.2f} s; "
          f"{_load()}")


if __name__ == "__main__":
    main()
