"""Benchmark of the in-memory path of ``python -m assess metrics`` at 1e7 rows, with a stage breakdown.

Run: .venv/bin/python bench/bench_memory.py [--rows 1e7] [--dir /tmp/assess-bench] [--no-sklearn] [--before DIR]
     (with --dir the file is kept there and reused by the next run; --before runs another checkout's CLI too)

The file is bench/bench_engine.py's: binary Parquet in long format (score float64, y_true int8, 2 models). Prints,
in one run (wall seconds; the machine may be shared, so each line carries the 1-minute load average):

- ``python -m assess metrics FILE --engine memory --labels-from scores`` in a child process, end to end including
  start-up and reading the file, against scikit-learn called one metric at a time after ``pandas.read_parquet``
  (bench_engine's baseline): the in-memory path's lead (target >= 5x); then both once more, in wall and in CPU
  seconds (user + system: on a shared machine the CPU ratio moves less with the load than the wall ratio);
- the same command's stages, timed in this process: start-up imports (a child that only imports the subcommand),
  reading, role detection, task inference, classes and positive class, the models' rows, validation (with the
  inverted-score check inside it), the metrics, and the JSON output.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_engine import PY, _file, _load, run_child, sklearn_one_by_one  # noqa: E402


def cpu_child(argv: list[str], root: Path = ROOT) -> tuple[float, float]:
    """(wall seconds, CPU seconds user + system) of one child run from the checkout ``root``: on a shared machine the
    CPU time moves less with the load than the wall time (the child waits for a core without being charged)."""
    script = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
              "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True); "
              "r = resource.getrusage(resource.RUSAGE_CHILDREN); "
              "print(time.perf_counter() - t, r.ru_utime + r.ru_stime)")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONPATH": str(root)}
    out = subprocess.run([PY, "-c", script, *argv], capture_output=True, text=True, cwd=root, env=env, check=True)
    wall, cpu = out.stdout.split()
    return float(wall), float(cpu)


def sklearn_cpu(path: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of bench_engine's scikit-learn baseline, in this process."""
    cpu = time.process_time()
    wall = sklearn_one_by_one(path)
    return wall, time.process_time() - cpu


def import_seconds() -> float:
    """Start-up: a fresh interpreter importing the metrics subcommand (bytecode cached, as an installed copy)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONPATH": str(ROOT)}
    code = ("import time; t = time.perf_counter(); import assess.cli; "   # as assess/__main__.py starts
            "from assess.cli.lazy_imports import defer; defer(); "
            "assess.cli.build_parser(['metrics']); print(time.perf_counter() - t)")
    out = subprocess.run([PY, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    return float(out.stdout)


def stage_breakdown(path: Path, argv_tail: list[str]) -> dict[str, float]:
    """Seconds per stage of one in-process run of the metrics command (inclusive: validation holds the
    inverted-score check)."""
    import assess.cli.common as common
    import assess.cli.metrics as metrics
    import assess.inputs.assessment as schema
    import assess.inputs.validation as validation
    from assess.cli import main

    seconds: dict[str, float] = {}

    def timed(module, name: str, label: str):
        original = getattr(module, name)

        @functools.wraps(original)
        def wrapper(*args, **kwargs):
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                seconds[label] = seconds.get(label, 0.0) + time.perf_counter() - start
        setattr(module, name, wrapper)
        return module, name, original

    patches = [timed(common, "read_table", "read the file"),
               timed(schema, "detect_roles", "detect roles"),
               timed(schema, "infer_task", "infer the task"),
               timed(schema, "task_classes", "classes"),
               timed(schema, "infer_positive", "positive class"),
               timed(schema, "rows_by_code", "models' rows"),
               timed(schema, "validate", "validate (all)"),
               timed(validation, "check_score_direction", "  of which inverted-score check"),
               timed(common, "describe", "describe (all)"),
               timed(metrics, "compute_reports", "metrics"),
               timed(metrics, "print_json", "JSON output")]
    start = time.perf_counter()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            code = main(["metrics", str(path), *argv_tail])
    finally:
        for module, name, original in patches:
            setattr(module, name, original)
    seconds["total in process"] = time.perf_counter() - start
    seconds["exit status"] = code
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=float, default=1e7)
    parser.add_argument("--dir", default=None, help="keep the file here and reuse it")
    parser.add_argument("--no-sklearn", action="store_true", help="skip the scikit-learn baseline")
    parser.add_argument("--before", metavar="CHECKOUT", help="another checkout of the package (e.g. the main branch) "
                                                            "whose CLI runs too, in the same run: before/after")
    args = parser.parse_args()
    rows = int(args.rows)
    print(f"cores: {os.cpu_count()}, {_load()}")
    tail = ["--engine", "memory", "--labels-from", "scores"]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.dir) if args.dir else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        path = _file(folder, "binary", rows, bool(args.dir))
        run_child([PY, "-m", "assess", "metrics", str(ROOT / "assets" / "samples" / "breast_cancer_binary.csv")])
        wall, rss, code = run_child([PY, "-m", "assess", "metrics", str(path), *tail])
        line = f"at {rows:,} rows: memory CLI {wall:.2f} s (exit {code}, peak RSS {rss:,.0f} MiB)"
        if not args.no_sklearn:
            sk = sklearn_one_by_one(path)
            line += f", scikit-learn one by one after read_parquet {sk:.2f} s: lead {sk / wall:.2f}x (target >= 5x)"
        print(f"{line}; {_load()}")
        if not args.no_sklearn:   # the same comparison in CPU seconds (less sensitive to a shared machine's load)
            wall_c, cpu_c = cpu_child([PY, "-m", "assess", "metrics", str(path), *tail])
            wall_s, cpu_s = sklearn_cpu(path)
            print(f"again: memory CLI {wall_c:.2f} s wall, {cpu_c:.2f} s CPU; scikit-learn {wall_s:.2f} s wall, "
                  f"{cpu_s:.2f} s CPU: lead {wall_s / wall_c:.2f}x wall, {cpu_s / cpu_c:.2f}x CPU; {_load()}")
        if args.before:
            mine = cpu_child([PY, "-m", "assess", "metrics", str(path), *tail])
            before = cpu_child([PY, "-m", "assess", "metrics", str(path), *tail], Path(args.before).resolve())
            print(f"before ({args.before}): {before[0]:.2f} s wall, {before[1]:.2f} s CPU; this checkout: "
                  f"{mine[0]:.2f} s wall, {mine[1]:.2f} s CPU: {before[1] / mine[1]:.2f}x less CPU; {_load()}")
        imports = import_seconds()
        stages = stage_breakdown(path, tail)
    print(f"stages ({_load()}):")
    print(f"  {'start-up imports (own child)':<36}{imports:8.2f} s")
    for label, value in stages.items():
        print(f"  {label:<36}{value:8.2f}" + ("" if label == "exit status" else " s"))


if __name__ == "__main__":
    main()
