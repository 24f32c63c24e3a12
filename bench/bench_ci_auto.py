"""``--ci auto`` on a 1e6-row binary file: log loss and Brier score by the Student-t interval of a mean (now) against
the bootstrap (before); prints times and ratios measured in the same run.

    .venv/bin/python bench/bench_ci_auto.py              # 1e6 rows
    .venv/bin/python bench/bench_ci_auto.py --rows 200000 --repeats 3

1. log loss and Brier alone (``evaluate(keys=["log_loss", "brier_score"], ci="auto")``): the intervals this change
   replaces, now against before;
2. every binary metric with ``ci="auto"``, now against before: the other metrics without a closed-form interval
   (F1, MCC, average precision, PR AUC, KS, …) are bootstrapped in both, so this shows what log loss and Brier
   added to each resample;
3. the command ``python -m assess metrics FILE --ci auto --quiet`` end to end (reading the CSV included), now only.

"Before" is the same code with `_resolve_ci` patched to send the ``row_mean`` metrics to the bootstrap, as it did
before they had an analytic interval; the two are run alternately, best of ``--repeats``, so load changes hit both.
The machine may be shared: the load average is printed with the results.
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import tempfile
import time
import warnings
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assess.core.data import Predictions, Task  # noqa: E402
from assess.metrics import evaluate  # noqa: E402

evaluate_module = importlib.import_module("assess.metrics.evaluate")
warnings.simplefilter("ignore")


def binary_data(rows: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = (rng.random(rows) < 0.3).astype(np.int8)
    score = 1 / (1 + np.exp(-(rng.normal(size=rows) + 1.2 * y)))
    return y, score


@contextmanager
def bootstrapped_losses():
    """The behaviour before: log loss and Brier score fall back to the bootstrap under ``auto``."""
    original = evaluate_module._resolve_ci

    def before(spec, ci, weighted):
        how = original(spec, ci, weighted)
        return "bootstrap" if how == "t" else how

    evaluate_module._resolve_ci = before
    try:
        yield
    finally:
        evaluate_module._resolve_ci = original


def alternate(run, repeats: int) -> tuple[float, float]:
    """Best wall time of ``run()`` before and now, the two run alternately."""
    now, before = [], []
    for _ in range(repeats):
        with bootstrapped_losses():
            start = time.perf_counter()
            run()
            before.append(time.perf_counter() - start)
        start = time.perf_counter()
        run()
        now.append(time.perf_counter() - start)
    return min(before), min(now)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=2, help="runs of each; the best counts")
    options = parser.parse_args()
    rows, repeats = options.rows, options.repeats
    y, score = binary_data(rows)
    pred = Predictions(Task.BINARY, ("no", "yes"), y, None, score)
    losses = ["log_loss", "brier_score"]
    before_losses, now_losses = alternate(lambda: evaluate(pred, losses, ci="auto", baselines=False), repeats)
    before_all, now_all = alternate(lambda: evaluate(pred, ci="auto", baselines=False), repeats)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "binary.csv"
        pd.DataFrame({"y_true": np.where(y == 1, "yes", "no"), "score": np.round(score, 6)}).to_csv(path, index=False)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "assess", "metrics", str(path), "--ci", "auto", "--quiet"], cwd=ROOT,
                       check=True, stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(ROOT)})
        cli = time.perf_counter() - start
    print(f"rows {rows:,}  load average {os.getloadavg()[0]:.2f} (1 min) on {os.cpu_count()} cores; "
          f"best of {repeats}, alternating")
    print(f"  log loss + Brier intervals   before {before_losses:8.3f} s   now {now_losses:8.3f} s   "
          f"now/before {now_losses / before_losses:.4f}")
    print(f"  every binary metric, auto    before {before_all:8.3f} s   now {now_all:8.3f} s   "
          f"now/before {now_all / before_all:.3f}")
    print(f"  python -m assess metrics FILE --ci auto (CSV read included, now): {cli:.1f} s")


if __name__ == "__main__":
    main()
