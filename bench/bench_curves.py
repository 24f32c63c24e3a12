"""Benchmark of assess.curves: every curve and ranking metric from one sort, against one np.argsort and sklearn.

Run: .venv/bin/python bench/bench_curves.py [--sizes 1e6 1e7] [--repeat 5]

Prints, per size (random scores, ~10 % positives), the time of threshold_counts + the ROC, PR, gain, lift and KS
curves + ROC AUC, AP, PR AUC and KS as a ratio to one np.argsort of the same scores (target <= 0.6 at 1e7), and
to scikit-learn's roc_curve, precision_recall_curve, roc_auc_score and average_precision_score called one by one
(target >= 40x faster); also DeLong placements and the weighted / pre-ranked paths as ratios to np.argsort. Times
are process CPU times, minima over --repeat interleaved runs (sklearn: one run at 1e7); the machine is shared, so
expect some noise.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assess import curves  # noqa: E402
from assess.intervals import delong_placements  # noqa: E402
from assess.metrics.threshold import metric_vs_threshold  # noqa: E402

MVT_KEYS = ("precision", "recall", "f1", "specificity", "accuracy")   # the five timed since the first run

# CPU time of this process: on a shared machine, waiting for a core does not count (memory contention still does).
# Everything timed here runs on one thread (OPENBLAS_NUM_THREADS=1 above, for the few dot products).
CLOCK = time.process_time


def best_time(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = CLOCK()
        fn()
        best = min(best, CLOCK() - start)
    return best


def best_times(fns: dict, repeat: int) -> dict:
    """Minimum time of each function, the runs interleaved so that load from other processes hits all alike."""
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(repeat):
        for name, fn in fns.items():
            start = CLOCK()
            fn()
            best[name] = min(best[name], CLOCK() - start)
    return best


def everything(y, s, w=None, ranking=None):
    counts = curves.threshold_counts(y, s, sample_weight=w, ranking=ranking)
    for curve in (curves.roc_curve, curves.pr_curve, curves.gain_curve, curves.lift_curve, curves.ks_curve):
        curve(counts)
    return (curves.roc_auc(counts), curves.average_precision(counts), curves.pr_auc(counts),
            curves.ks_statistic(counts))


def sklearn_sequence(y, s):
    from sklearn import metrics

    metrics.roc_curve(y, s)
    metrics.precision_recall_curve(y, s)
    return metrics.roc_auc_score(y, s), metrics.average_precision_score(y, s)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e6, 1e7])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"numpy {np.__version__}; process CPU times, minima over {args.repeat} interleaved runs "
          f"({4 * args.repeat} at 1e6)")
    for size in args.sizes:
        n = int(size)
        rng = np.random.default_rng(0)
        s = rng.random(n)
        y = rng.random(n) < 0.1
        counts = curves.threshold_counts(y, s)
        repeat = args.repeat if n > 2_000_000 else 4 * args.repeat        # small sizes are cheap and noisier
        times = best_times({"argsort": lambda: np.argsort(s), "ours": lambda: everything(y, s),
                            "counts": lambda: curves.threshold_counts(y, s),
                            "mvt": lambda: metric_vs_threshold(counts, MVT_KEYS)}, repeat)
        t_argsort, t_ours, t_counts, t_mvt = times["argsort"], times["ours"], times["counts"], times["mvt"]
        t_sk = best_time(lambda: sklearn_sequence(y, s), 1 if n > 2_000_000 else args.repeat)
        ours, theirs = everything(y, s), sklearn_sequence(y, s)
        assert abs(ours[0] - theirs[0]) < 1e-9 and abs(ours[1] - theirs[1]) < 1e-9
        print(f"\nn = {n:,}  (np.argsort {t_argsort:.3f} s)")
        print(f"  threshold_counts alone                       {t_counts / t_argsort:6.2f} x argsort")
        print(f"  counts + 5 curves + AUC/AP/PR-AUC/KS          {t_ours / t_argsort:6.2f} x argsort   "
              f"({t_ours:.3f} s)")
        print(f"  sklearn roc_curve+pr_curve+roc_auc+AP         {t_sk / t_argsort:6.2f} x argsort   "
              f"({t_sk:.3f} s) -> ours is {t_sk / t_ours:.0f}x faster")
        print(f"  metric_vs_threshold (5 metrics)               {t_mvt / t_argsort:6.2f} x argsort")
        tied = np.round(s, 3)                                          # 1,001 distinct scores
        t_tied = best_time(lambda: everything(y, tied), repeat)
        print(f"  same, scores rounded to 3 decimals (ties)     {t_tied / t_argsort:6.2f} x argsort (of the unrounded)")
        w = rng.random(n)
        t_weighted = best_time(lambda: everything(y, s, w), 2)
        print(f"  weighted: counts + curves + scalars           {t_weighted / t_argsort:6.2f} x argsort")
        if n <= 2_000_000:
            t_rank = best_time(lambda: curves.rank_scores(s), 2)
            ranking = curves.rank_scores(s)
            t_ranked = best_time(lambda: curves.threshold_counts(y, s, sample_weight=w, ranking=ranking),
                                 args.repeat)
            t_delong = best_time(lambda: delong_placements(y, s), args.repeat)
            print(f"  rank_scores once (for bootstrap reuse)        {t_rank / t_argsort:6.2f} x argsort")
            print(f"  weighted counts from a ranking (per resample) {t_ranked / t_argsort:6.2f} x argsort")
            print(f"  delong_placements                             {t_delong / t_argsort:6.2f} x argsort")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak RSS {peak:.0f} MB")


if __name__ == "__main__":
    main()
