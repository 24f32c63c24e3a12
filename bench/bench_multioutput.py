"""Benchmark (not a test) of multi-output regression: ``python bench/bench_multioutput.py [rows] [outputs]``.

Prints the time of :func:`assess.metrics.multioutput.evaluate_output_predictions` (all 13 regression keys per output,
the uniform and variance-weighted averages) without intervals, and with a 200-resample bootstrap, against one
:func:`assess.metrics.evaluate` bootstrap of a single output: the joint run resamples once for every output and
average, so K outputs should cost well under K + 1 single-output runs. Best of a few runs (the machine may be shared).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assess.core.data import Predictions, Task  # noqa: E402
from assess.metrics import evaluate  # noqa: E402
from bench.timing import best  # noqa: E402
from assess.metrics.multioutput import evaluate_output_predictions  # noqa: E402



def main(n: int = 100_000, k: int = 3, n_resamples: int = 200) -> None:
    rng = np.random.default_rng(0)
    preds = {}
    for j in range(k):
        y = rng.normal(0, 1 + j, n)
        preds[f"out{j}"] = Predictions(Task.REGRESSION, (), y, y + rng.normal(0, 1, n), None, model="m")
    one = best(lambda: evaluate(preds["out0"], ci="bootstrap", n_resamples=n_resamples), repeat=2)
    values = best(lambda: evaluate_output_predictions(preds), repeat=2)
    joint = best(lambda: evaluate_output_predictions(preds, ci="bootstrap", n_resamples=n_resamples), repeat=2)
    print(f"{n:,} rows, {k} outputs, 13 keys: values {values:.2f} s; {n_resamples}-resample bootstrap {joint:.2f} s "
          f"= {joint / one:.1f}× one output's bootstrap ({one:.2f} s; K + 1 separate runs would be {k + 1}×)")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
