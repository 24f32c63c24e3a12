"""Benchmark of the multi-label views: per-label ROC/PR curves with micro and macro averages from one sort per label
(plus one of the n·L pooled pairs for the micro-average), against the sorts themselves and scikit-learn.

Run: .venv/bin/python bench/bench_multilabel.py [--rows 1e6] [--labels 20] [--repeat 3]

Prints the time of :func:`assess.analyses.label_curves.per_label_curves` as a ratio to L + 1 ``np.argsort`` calls (L
label columns of n scores, and the n·L pooled scores: the sorts it cannot avoid; target ≤ 2), and the speed-up over
scikit-learn's ``roc_curve`` + ``precision_recall_curve`` per label and micro (``ravel``), plus ``roc_auc_score`` and
``average_precision_score`` with ``average="macro"`` and ``"micro"``; also the per-label McNemar test at that size
as a ratio to one ``np.argsort`` of n scores. Wall times, best of --repeat runs (bench/timing.py); the machine is
shared, so expect some noise.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import best  # noqa: E402

from assess.analyses.label_curves import per_label_curves  # noqa: E402
from assess.core.data import Predictions, Task  # noqa: E402
from assess.stats.multilabel import mcnemar_per_label  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=float, default=1e6)
    parser.add_argument("--labels", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n, n_labels = int(args.rows), args.labels
    rng = np.random.default_rng(0)
    y = rng.random((n, n_labels)) < rng.uniform(0.05, 0.5, n_labels)
    scores = np.round(np.clip(0.3 * y + rng.random((n, n_labels)) * 0.7, 0, 1), 4)
    pred = Predictions(Task.MULTILABEL, tuple(f"l{j}" for j in range(n_labels)), y, None, scores)

    sorts = best(lambda: ([np.argsort(scores[:, j], kind="stable") for j in range(n_labels)],
                          np.argsort(scores.ravel(), kind="stable")), args.repeat)
    ours = best(lambda: per_label_curves(pred), args.repeat)
    print(f"per-label curves, {n:,} rows × {n_labels} labels: {ours:.2f} s = {ours / sorts:.2f} × the {n_labels + 1} "
          f"argsorts ({sorts:.2f} s)")

    from sklearn.metrics import average_precision_score, precision_recall_curve, roc_auc_score, roc_curve

    def sklearn_all():
        for j in range(n_labels):
            roc_curve(y[:, j], scores[:, j])
            precision_recall_curve(y[:, j], scores[:, j])
        roc_curve(y.ravel(), scores.ravel())
        precision_recall_curve(y.ravel(), scores.ravel())
        for average in ("macro", "micro"):
            roc_auc_score(y, scores, average=average)
            average_precision_score(y, scores, average=average)
    theirs = best(sklearn_all, 1)
    print(f"scikit-learn, the same curves and areas one by one: {theirs:.2f} s = {theirs / ours:.1f} × slower")

    one_sort = best(lambda: np.argsort(scores[:, 0], kind="stable"), args.repeat)
    b = scores >= 0.6
    test = best(lambda: mcnemar_per_label(y, scores >= 0.5, b), args.repeat)
    print(f"McNemar per label with Benjamini–Hochberg: {test:.2f} s = {test / one_sort:.2f} × one argsort of n scores")


if __name__ == "__main__":
    main()
