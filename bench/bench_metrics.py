"""Benchmark of the classification metrics engine (prints ratios; not a test).

    .venv/bin/python bench/bench_metrics.py            # 1e6 and 1e7 rows
    .venv/bin/python bench/bench_metrics.py --quick    # 1e6 only, fewer repeats

Measures, against the SPEC budgets:

1. every binary metric and the curve-derived scalars (one ``evaluate`` call) at 1e6 and 1e7 rows, as a multiple of one
   ``np.argsort`` of the scores and as a speed-up over scikit-learn's functions called one by one (target >= 40x);
2. the 1,000-resample ROC AUC bootstrap at 1e6 rows (target <= 5 s) and its speed-up over a naive loop of resampled
   ``roc_auc_score`` calls, timed on 20 resamples and extrapolated;
3. the DeLong interval at 1e6 rows as a multiple of one argsort;
4. all multi-class metrics + one-vs-rest / one-vs-one AUC at 1e6 rows x 10 classes vs scikit-learn (target >= 5x).

The machine is shared; the load average is printed with the results.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sklearn.metrics as skm  # noqa: E402

from assess import intervals  # noqa: E402
from assess.core.data import Predictions, Task  # noqa: E402
from assess.metrics import evaluate  # noqa: E402
from bench.timing import best  # noqa: E402

warnings.simplefilter("ignore")



def binary_data(n, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(np.int8)
    s = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.2 * y)))
    return y, s


def sklearn_binary(y, s):
    yp = (s >= 0.5).astype(np.int8)
    skm.confusion_matrix(y, yp)
    skm.accuracy_score(y, yp)
    skm.precision_score(y, yp)
    skm.recall_score(y, yp)
    skm.recall_score(y, yp, pos_label=0)          # specificity
    skm.precision_score(y, yp, pos_label=0)       # npv
    skm.f1_score(y, yp)
    skm.fbeta_score(y, yp, beta=2.0)
    skm.balanced_accuracy_score(y, yp)
    skm.matthews_corrcoef(y, yp)
    skm.cohen_kappa_score(y, yp)
    skm.class_likelihood_ratios(y, yp)
    skm.roc_auc_score(y, s)
    skm.average_precision_score(y, s)
    prec, rec, _ = skm.precision_recall_curve(y, s)
    skm.auc(rec, prec)
    fpr, tpr, _ = skm.roc_curve(y, s)
    float(np.max(tpr - fpr))                      # KS
    skm.log_loss(y, s)
    skm.brier_score_loss(y, s)


def bench_binary(n, repeats, sk_repeats):
    y, s = binary_data(n)
    pred = Predictions(Task.BINARY, ("neg", "pos"), y, None, s)
    t_sort = best(lambda: np.argsort(s), repeats)
    evaluate(pred, baselines=False)                          # warm-up
    t_ours = best(lambda: evaluate(pred, baselines=False), repeats)
    t_sk = best(lambda: sklearn_binary(y, s), sk_repeats)
    keys = len(evaluate(pred, baselines=False).keys)
    print(f"binary, {n:>10,} rows, {keys} metrics: evaluate {t_ours:7.3f} s = {t_ours / t_sort:5.1f} x argsort "
          f"({t_sort:.3f} s); scikit-learn one by one {t_sk:7.2f} s -> {t_sk / t_ours:5.1f} x faster (target >= 40x)")
    return t_ours


def bench_bootstrap(n=1_000_000, n_resamples=1000):
    y, s = binary_data(n, seed=1)
    pred = Predictions(Task.BINARY, ("neg", "pos"), y, None, s)
    t = time.perf_counter()
    r = evaluate(pred, keys=["roc_auc"], ci="bootstrap", n_resamples=n_resamples, seed=0, baselines=False)["roc_auc"]
    t_boot = time.perf_counter() - t
    rng = np.random.default_rng(0)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    naive_b = 20

    def naive():
        for _ in range(naive_b):
            idx = np.concatenate([rng.choice(pos, pos.size), rng.choice(neg, neg.size)])
            skm.roc_auc_score(y[idx], s[idx])
    t_naive = best(naive, 1) * n_resamples / naive_b
    print(f"ROC AUC bootstrap, {n:,} rows x {n_resamples} resamples: {t_boot:6.2f} s (target <= 5 s); "
          f"naive stratified loop of roc_auc_score {t_naive:7.1f} s (20 resamples x 50) -> {t_naive / t_boot:5.1f} x; "
          f"CI [{r.low:.4f}, {r.high:.4f}] ({r.method})")
    y2, s2 = binary_data(n, seed=2)
    t_all = time.perf_counter()
    keys = ["roc_auc", "average_precision", "pr_auc", "ks_statistic", "log_loss", "brier_score"]
    evaluate(Predictions(Task.BINARY, ("neg", "pos"), y2, None, s2), keys=keys, ci="bootstrap", n_resamples=100,
             baselines=False)
    t_all = time.perf_counter() - t_all
    print(f"  all six binary score metrics, 100 resamples x {n:,} rows: {t_all:6.2f} s "
          f"(~{t_all * 10:.0f} s per 1,000)")


def bench_delong(n=1_000_000, repeats=3):
    y, s = binary_data(n, seed=3)
    t_sort = best(lambda: np.argsort(s), repeats)
    t_dl = best(lambda: intervals.delong_ci(y, s), repeats)
    print(f"DeLong CI, {n:,} rows: {t_dl:.3f} s = {t_dl / t_sort:4.1f} x argsort ({t_sort:.3f} s)")


def sklearn_multiclass(y, P):
    yp = np.argmax(P, axis=1)
    labels = np.arange(P.shape[1])
    skm.confusion_matrix(y, yp, labels=labels)
    skm.accuracy_score(y, yp)
    skm.balanced_accuracy_score(y, yp)
    for avg in ("macro", "micro", "weighted"):
        skm.precision_score(y, yp, average=avg)
        skm.recall_score(y, yp, average=avg)
        skm.f1_score(y, yp, average=avg)
        skm.fbeta_score(y, yp, beta=2.0, average=avg)
    skm.cohen_kappa_score(y, yp)
    skm.matthews_corrcoef(y, yp)
    skm.top_k_accuracy_score(y, P, k=2, labels=labels)
    skm.roc_auc_score(y, P, multi_class="ovr", labels=labels)
    skm.roc_auc_score(y, P, multi_class="ovr", average="weighted", labels=labels)
    skm.roc_auc_score(y, P, multi_class="ovo", labels=labels)
    skm.log_loss(y, P, labels=labels)
    skm.brier_score_loss(y, P, labels=labels)


def bench_multiclass(n=1_000_000, k=10, repeats=2):
    rng = np.random.default_rng(4)
    y = rng.integers(0, k, n)
    logits = rng.normal(size=(n, k))
    logits[np.arange(n), y] += 1.5
    P = np.exp(logits)
    P /= P.sum(axis=1, keepdims=True)
    pred = Predictions(Task.MULTICLASS, tuple(f"c{i}" for i in range(k)), y, None, P)
    evaluate(pred, baselines=False)
    t_ours = best(lambda: evaluate(pred, baselines=False), repeats)
    t_sk = best(lambda: sklearn_multiclass(y, P), 1)
    no_ovo = [m for m in evaluate(pred, baselines=False).keys if m != "roc_auc_ovo"]
    t_ours_no = best(lambda: evaluate(pred, keys=no_ovo, baselines=False), repeats)
    print(f"multi-class, {n:,} rows x {k} classes, all metrics + per-class table: evaluate {t_ours:6.2f} s "
          f"(without one-vs-one {t_ours_no:5.2f} s); scikit-learn one by one {t_sk:6.2f} s -> {t_sk / t_ours:5.1f} x "
          f"faster (target >= 5x)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="1e6 rows only, fewer repeats")
    args = ap.parse_args()
    print(f"numpy {np.__version__}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start")
    sizes = [1_000_000] if args.quick else [1_000_000, 10_000_000]
    for n in sizes:
        bench_binary(n, repeats=2 if args.quick else 3, sk_repeats=1)
    bench_bootstrap()
    bench_delong()
    bench_multiclass(repeats=1 if args.quick else 2)
    print(f"load average {os.getloadavg()[0]:.2f} at end")


if __name__ == "__main__":
    main()
