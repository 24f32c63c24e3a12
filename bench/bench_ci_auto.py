"""`python -m assess metrics FILE --ci auto` on a 1e6-row binary file: log loss and Brier score by the Student-t
interval of a mean (now) against the bootstrap (before), end to end through the command line (prints ratios).

    .venv/bin/python bench/bench_ci_auto.py              # 1e6 rows
    .venv/bin/python bench/bench_ci_auto.py --rows 200000

Three commands on the same file, best of ``--repeats`` (2) runs each:

- ``no --ci``: reading, roles and every metric without intervals (the floor);
- ``auto, before``: ``--ci auto`` with log loss and Brier sent to the bootstrap, as before they had an analytic
  interval (the same code, its ``_resolve_ci`` patched in the child process);
- ``auto, now``: ``--ci auto`` as shipped.

The other metrics without a closed-form interval (F1, MCC, average precision, KS, …) are bootstrapped in both, so
the gain is what log loss and Brier added to each resample. The machine may be shared: the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]

BEFORE = """
import runpy, sys
import importlib
ev = importlib.import_module("assess.metrics.evaluate")
original = ev._resolve_ci
ev._resolve_ci = lambda spec, ci, weighted: "bootstrap" if original(spec, ci, weighted) == "t" else original(
    spec, ci, weighted)
sys.argv = ["assess", *sys.argv[1:]]
runpy.run_module("assess", run_name="__main__")
"""


def write_file(path: Path, rows: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    y = rng.random(rows) < 0.3
    score = 1 / (1 + np.exp(-(rng.normal(size=rows) + 1.2 * y)))
    pd.DataFrame({"y_true": np.where(y, "yes", "no"), "score": np.round(score, 6)}).to_csv(path, index=False)


def run(args: list[str], repeats: int = 2) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(args, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=2, help="runs of each command; the best counts")
    options = parser.parse_args()
    rows, repeats = options.rows, options.repeats
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "binary.csv"
        write_file(path, rows)
        common = ["metrics", str(path), "--quiet", "--format", "json"]
        floor = run([sys.executable, "-m", "assess", *common], repeats)
        before = run([sys.executable, "-c", BEFORE, *common, "--ci", "auto"], repeats)
        now = run([sys.executable, "-m", "assess", *common, "--ci", "auto"], repeats)
    print(f"rows {rows:,}  load average {os.getloadavg()[0]:.2f} (1 min) on {os.cpu_count()} cores")
    print(f"  no --ci           {floor:7.2f} s")
    print(f"  --ci auto before  {before:7.2f} s   ({before / floor:.2f}× no intervals)")
    print(f"  --ci auto now     {now:7.2f} s   ({now / floor:.2f}× no intervals)")
    print(f"  now / before      {now / before:.2f}   interval time now / before {(now - floor) / (before - floor):.2f}")


if __name__ == "__main__":
    main()
