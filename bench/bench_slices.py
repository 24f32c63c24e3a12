"""Benchmark of assess.analyses.slices: metrics per slice with intervals and the tests across slices, as a ratio to one
`evaluate` of the same model on all rows (with the same intervals); and the fairness gaps' bootstrap.

Run: .venv/bin/python bench/bench_slices.py [--rows 100000] [--slices 10] [--repeat 3]

A binary file with scores, one model, ``--slices`` equally likely slices. Prints per tested metric (accuracy: χ²,
roc_auc: DeLong, f1: the vectorised two-sample bootstrap) the time of `analyse_slices` / the time of `evaluate` on
all rows (both with ``ci="auto"``), and `fairness_gaps` (1,000 resamples) / `evaluate`. Expect the per-slice part
to cost about one `evaluate` per slice, plus the test.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import best  # noqa: E402

from assess.analyses.slices import analyse_slices, fairness_gaps  # noqa: E402
from assess.inputs.assessment import describe  # noqa: E402
from assess.inputs.read import read_table  # noqa: E402
from assess.metrics.evaluate import evaluate  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=float, default=1e5)
    parser.add_argument("--slices", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n = int(args.rows)
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, n)
    score = 1 / (1 + np.exp(-(2 * y - 1) + rng.normal(0, 1, n)))
    frame = pd.DataFrame({"y_true": y, "score": score.round(6), "site": rng.integers(0, args.slices, n)})
    assessment = describe(read_table(frame.to_csv(index=False).encode(), name="bench.csv"))
    pred = assessment.predictions()
    warnings.simplefilter("ignore")
    base = best(lambda: evaluate(pred, ["accuracy", "roc_auc", "f1"], ci="auto", baselines=False), args.repeat)
    print(f"{n:,} rows, {args.slices} slices; evaluate (accuracy, roc_auc, f1; ci auto) on all rows: {base:.3f} s")
    for key in ("accuracy", "roc_auc", "f1"):
        t = best(lambda key=key: analyse_slices(assessment, ["site"], keys=[key], test_keys=[key], ci="auto"),
                 args.repeat)
        print(f"  analyse_slices, {key:<9} tested: {t / base:6.1f} × evaluate")
    groups = frame["site"].to_numpy()
    t = best(lambda: fairness_gaps(pred, groups), args.repeat)
    print(f"  fairness_gaps (1,000 resamples):  {t / base:6.2f} × evaluate")


if __name__ == "__main__":
    main()
