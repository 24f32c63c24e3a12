"""Benchmark of assess.analyses.cost: the four latency statistics and throughput with 1,000 bootstrap resamples, as a ratio to
one np.argsort of the latencies, and the searchsorted percentile kernel against the per-resample loop it replaces.

Run: .venv/bin/python bench/bench_cost.py [--sizes 1e4 1e5 1e6] [--resamples 1000]

Every resample's percentiles come from one cumulative sum of its counts and one np.searchsorted over all resamples
(`assess.analyses.cost.weighted_percentiles`), so the cost grows with resamples × rows like any bootstrap, not with the number
of percentiles. Times are the best of 3 runs (bench/timing.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assess.analyses import cost  # noqa: E402
from bench.timing import best  # noqa: E402


def loop_percentiles(values: np.ndarray, counts: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The obvious alternative: np.repeat each resample and call np.percentile, one resample at a time."""
    return np.stack([np.percentile(np.repeat(values, c), q) for c in counts])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e4, 1e5, 1e6])
    parser.add_argument("--resamples", dest="n_resamples", type=int, default=1000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    q = np.array([50.0, 95.0, 99.0])
    for size in map(int, args.sizes):
        latency = rng.lognormal(0, 1, size)
        data = cost.CostInput(latency, None, np.ones(size), False)
        sort = best(lambda: np.argsort(latency))
        full = best(lambda: cost.summarise("m", data, n_resamples=args.n_resamples, seed=0), repeat=1)
        print(f"n = {size:>9,}: {args.n_resamples:,} resamples of 5 cost statistics = {full / sort:8.0f} × one argsort "
              f"({full:.2f} s)")
        counts = rng.multinomial(size, np.full(size, 1 / size), size=20)
        kernel = best(lambda: cost.weighted_percentiles(np.sort(latency), counts, q))
        loop = best(lambda: loop_percentiles(np.sort(latency), counts, q), repeat=1)
        print(f"{'':15}20 resamples' percentiles: searchsorted kernel {loop / kernel:5.1f}× faster than "
              "np.repeat + np.percentile per resample")


if __name__ == "__main__":
    main()
