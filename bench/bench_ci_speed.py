"""What intervals cost on the command line: ``metrics --ci auto`` against ``metrics`` on a binary and a regression file
of two scikit-learn models (issue 32's goal: ≤ 3× each); prints the times and their ratios measured in one run.

    .venv/bin/python bench/bench_ci_speed.py                  # 1e6 rows per model, 2 models
    .venv/bin/python bench/bench_ci_speed.py --rows 100000    # quick
    .venv/bin/python bench/bench_ci_speed.py --profile DIR    # also cProfile each --ci auto run into DIR/*.prof
    git archive COMMIT assess | tar -x -C /tmp/before && .venv/bin/python bench/bench_ci_speed.py --root /tmp/before
                                                              # the same files against an earlier commit's package

The files are long-format CSV (``id, model, y_true, score`` or ``y_pred``): scikit-learn models fitted on 20,000
synthetic rows (``make_classification`` / ``make_regression``), scoring ``--rows`` other rows each — a logistic
regression (every score distinct) and a depth-8 decision tree (a few hundred distinct scores) for the binary file, a
ridge regression and a depth-8 tree for the regression file. Each command runs in its own process (reading the CSV
included), alternately with and without intervals, best of ``--repeats``; the machine may be shared, so the load
average and core count are printed with the results.
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
TRAIN = 20_000


def binary_file(path: Path, rows: int, seed: int = 0) -> None:
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.tree import DecisionTreeClassifier

    X, y = make_classification(n_samples=TRAIN + rows, n_features=20, n_informative=6, flip_y=0.1, weights=[0.7],
                               random_state=seed)
    models = {"logistic": LogisticRegression(max_iter=500), "tree": DecisionTreeClassifier(max_depth=8,
                                                                                            random_state=seed)}
    frames = []
    for name, model in models.items():
        model.fit(X[:TRAIN], y[:TRAIN])
        frames.append(pd.DataFrame({"id": np.arange(rows), "model": name, "y_true": y[TRAIN:],
                                    "score": np.round(model.predict_proba(X[TRAIN:])[:, 1], 6)}))
    pd.concat(frames).to_csv(path, index=False)


def regression_file(path: Path, rows: int, seed: int = 0) -> None:
    from sklearn.datasets import make_regression
    from sklearn.linear_model import Ridge
    from sklearn.tree import DecisionTreeRegressor

    X, y = make_regression(n_samples=TRAIN + rows, n_features=20, n_informative=8, noise=30.0, random_state=seed)
    y = y + 0.002 * y ** 2          # a little curvature, so the linear model has structured errors
    models = {"ridge": Ridge(), "tree": DecisionTreeRegressor(max_depth=8, random_state=seed)}
    frames = []
    for name, model in models.items():
        model.fit(X[:TRAIN], y[:TRAIN])
        frames.append(pd.DataFrame({"id": np.arange(rows), "model": name, "y_true": np.round(y[TRAIN:], 4),
                                    "y_pred": np.round(model.predict(X[TRAIN:]), 4)}))
    pd.concat(frames).to_csv(path, index=False)


def command(path: Path, ci: bool, root: Path, profile: Path | None = None) -> float:
    """Wall time of ``python -m assess metrics FILE [--ci auto]`` in a fresh process, the package from ``root``."""
    head = [sys.executable] + (["-m", "cProfile", "-o", str(profile)] if profile else []) + ["-m", "assess"]
    args = head + ["metrics", str(path), "--quiet"] + (["--ci", "auto"] if ci else [])
    start = time.perf_counter()
    subprocess.run(args, cwd=root, check=True, stdout=subprocess.DEVNULL,
                   env={**os.environ, "PYTHONPATH": str(root)})
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows per model (2 models)")
    parser.add_argument("--repeats", type=int, default=2, help="runs of each command; the best counts")
    parser.add_argument("--profile", type=Path, help="directory for a cProfile of each --ci auto run")
    parser.add_argument("--root", type=Path, default=ROOT, help="directory holding the `assess` package to time")
    options = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in (("binary", binary_file), ("regression", regression_file)):
            path = Path(tmp) / f"{name}.csv"
            make(path, options.rows)
            plain, auto = [], []
            for _ in range(options.repeats):
                plain.append(command(path, ci=False, root=options.root))
                auto.append(command(path, ci=True, root=options.root))
            results.append((name, min(plain), min(auto)))
            if options.profile:
                options.profile.mkdir(parents=True, exist_ok=True)
                command(path, ci=True, root=options.root, profile=options.profile / f"{name}.prof")
    load = os.getloadavg()
    print(f"package: {options.root}")
    print(f"{options.rows:,} rows per model, 2 models; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on "
          f"{os.cpu_count()} cores; best of {options.repeats}, alternating")
    for name, plain, auto in results:
        print(f"  {name:<11} metrics {plain:7.2f} s   metrics --ci auto {auto:7.2f} s   ratio {auto / plain:5.2f}x "
              f"(goal <= 3x)")


if __name__ == "__main__":
    main()
