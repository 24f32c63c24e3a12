"""Benchmark (not a test) of the regression metrics: ``python bench/bench_regression.py [rows]``.

Prints, in one run:

1. all 13 regression metrics at 1e7 rows (one :func:`assess.metrics.evaluate`, no intervals or baselines) as a ratio
   to one ``numpy.abs(y_true - y_pred).mean()`` (target ≤ 8×);
2. the same numbers from scikit-learn's functions called one by one (target: ours ≥ 3× faster);
3. the 1,000-resample bootstrap of the MAE at 1e6 rows (target ≤ 5 s).

Each timing is the best of a few runs (the machine may be shared).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import sklearn.metrics as skm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assess.core.data import Predictions, Task  # noqa: E402
from assess.metrics import evaluate  # noqa: E402
from bench.timing import best  # noqa: E402



def sklearn_all(y, yp):
    # scikit-learn has no sMAPE, MSPE, RMSPE or mean error: those are computed with numpy, one call each
    r = yp - y
    return [skm.mean_absolute_error(y, yp), skm.mean_squared_error(y, yp), skm.root_mean_squared_error(y, yp),
            skm.mean_squared_error(y, yp) * y.size, skm.max_error(y, yp), skm.r2_score(y, yp),
            skm.explained_variance_score(y, yp), skm.median_absolute_error(y, yp),
            skm.mean_absolute_percentage_error(y, yp), np.mean(2 * np.abs(r) / (np.abs(y) + np.abs(yp))),
            np.mean((r / y) ** 2), np.sqrt(np.mean((r / y) ** 2)), np.mean(r)]


def main(rows: int = 10_000_000) -> None:
    rng = np.random.default_rng(0)
    y = rng.gamma(4.0, 25.0, rows)
    yp = y + rng.normal(0.0, 10.0, rows)
    pred = Predictions(Task.REGRESSION, (), y, yp)
    one_pass = best(lambda: np.abs(y - yp).mean())
    ours = best(lambda: evaluate(pred, baselines=False))
    theirs = best(lambda: sklearn_all(y, yp), repeat=2)
    print(f"rows: {rows:,}")
    print(f"numpy abs-mean pass:          {one_pass * 1e3:8.1f} ms")
    print(f"assess, 13 metrics:           {ours * 1e3:8.1f} ms  = {ours / one_pass:5.1f}x one pass  (target <= 8x)")
    print(f"scikit-learn one by one:      {theirs * 1e3:8.1f} ms  = {theirs / ours:5.1f}x slower than assess "
          f"(target >= 3x)")
    n = 1_000_000
    small = Predictions(Task.REGRESSION, (), y[:n], yp[:n])
    boot = best(lambda: evaluate(small, ["mae"], ci="bootstrap", n_resamples=1000, baselines=False), repeat=2)
    print(f"bootstrap MAE, 1,000 x 1e6:   {boot:8.2f} s   (target <= 5 s)")


if __name__ == "__main__":
    main(int(float(sys.argv[1])) if len(sys.argv) > 1 else 10_000_000)
