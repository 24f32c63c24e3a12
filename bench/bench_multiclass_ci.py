"""The 5-class file of the interval benchmark (`multiclass_file`, used by bench/bench_ci_speed.py, which times
``metrics --ci auto`` against ``metrics`` on it at 1e5 and 1e6 rows per model) and the one-vs-one AUC of a
many-class file: the seconds of Hand & Till's k² pairwise AUCs alone and of ``evaluate(keys=["roc_auc_ovo"],
ci="auto")`` whole (DeLong interval included).

    .venv/bin/python bench/bench_multiclass_ci.py                  # 1,500 classes, 20,000 rows
    .venv/bin/python bench/bench_multiclass_ci.py --rows-many 5000 --classes-many 300

The file: ``make_classification`` (5 classes, 10 informative features), a logistic regression and a Gaussian naive
Bayes fitted on a separate half, their ``predict_proba`` rounded to 6 decimals in long format (``model`` column, ``id``
aligning the rows). The machine may be shared: the load average and core count are printed with the results.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assess.core.data import Predictions, Task  # noqa: E402
from assess.metrics import evaluate  # noqa: E402

warnings.simplefilter("ignore")


def multiclass_file(path: Path, rows: int, classes: int = 5, seed: int = 0) -> None:
    """Two models' predicted probabilities on ``rows`` rows of a ``classes``-class problem, long format."""
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB

    X, y = make_classification(n_samples=2 * rows, n_features=20, n_informative=10, n_classes=classes,
                               n_clusters_per_class=1, random_state=seed)
    train, test = slice(0, rows), slice(rows, 2 * rows)
    names = [f"c{c}" for c in range(classes)]
    frames = []
    for model, est in (("logistic", LogisticRegression(max_iter=500)), ("naive_bayes", GaussianNB())):
        proba = est.fit(X[train], y[train]).predict_proba(X[test])
        frame = pd.DataFrame(np.round(proba, 6), columns=[f"proba_{c}" for c in names])
        frame.insert(0, "y_true", np.asarray(names)[y[test]])
        frame.insert(0, "model", model)
        frame.insert(0, "id", np.arange(rows))
        frames.append(frame)
    pd.concat(frames).to_csv(path, index=False)


def many_classes(rows: int, classes: int, seed: int = 0) -> tuple[float, float]:
    """Seconds of the pairwise AUC matrix alone (`assess.metrics.multiclass.ovo_matrix`, the one sort per column
    given) and of ``evaluate(keys=["roc_auc_ovo"])`` whole (the sorts and the per-class table included) on
    ``classes`` classes (scores: uniform, the true class's column shifted up)."""
    from assess import curves
    from assess.metrics.multiclass import ovo_matrix

    rng = np.random.default_rng(seed)
    y = rng.integers(0, classes, rows)
    scores = rng.random((rows, classes))
    scores[np.arange(rows), y] += 0.5
    rankings = [curves.rank_scores(scores[:, c]) for c in range(classes)]
    start = time.perf_counter()
    ovo_matrix(y, scores, None, rankings)
    pairs = time.perf_counter() - start
    pred = Predictions(Task.MULTICLASS, tuple(f"c{c}" for c in range(classes)), y, None, scores)
    start = time.perf_counter()
    evaluate(pred, ["roc_auc_ovo"], ci="auto", baselines=False)
    return pairs, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--classes-many", type=int, default=1500)
    parser.add_argument("--rows-many", type=int, default=20_000)
    options = parser.parse_args()
    pairs, whole = many_classes(options.rows_many, options.classes_many)
    print(f"load average {os.getloadavg()[0]:.2f} (1 min) on {os.cpu_count()} cores")
    print(f"  one-vs-one AUC, {options.classes_many:,} classes x {options.rows_many:,} rows: pairwise AUC matrix "
          f"{pairs:.2f} s, evaluate(['roc_auc_ovo'], ci='auto') {whole:.2f} s")


if __name__ == "__main__":
    main()
