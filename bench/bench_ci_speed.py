"""What intervals cost on the command line: ``metrics --ci auto`` against ``metrics`` on a binary, a regression and
two 5-class files of two scikit-learn models each (issue 32's goals: ≤ 3× each, the 1e6-row 5-class file with
intervals in under a minute); prints, per file, both times, their ratio, the CPU seconds of each (user + system of
the child process: what a shared machine's load changes least), the load average and the core count, in one run.

    .venv/bin/python bench/bench_ci_speed.py                  # binary 1e6, regression 1e6, 5-class 1e5 and 1e6
    .venv/bin/python bench/bench_ci_speed.py --scale 0.1      # every file a tenth the size (quick)
    .venv/bin/python bench/bench_ci_speed.py --files binary multiclass-1e5
    .venv/bin/python bench/bench_ci_speed.py --profile DIR    # also cProfile each --ci auto run into DIR/*.prof
    git archive COMMIT assess | tar -x -C /tmp/before && .venv/bin/python bench/bench_ci_speed.py --root /tmp/before
                                                              # the same files against an earlier commit's package

The files are long-format CSV (``id, model, y_true, score`` / ``y_pred`` / ``proba_*``): scikit-learn models fitted
on 20,000 synthetic rows (``make_classification`` / ``make_regression``), scoring the file's rows — a logistic
regression (every score distinct) and a depth-8 decision tree (a few hundred distinct scores) for the binary file, a
ridge regression and a depth-8 tree for the regression file; the 5-class files are
`bench_multiclass_ci.multiclass_file` (a logistic regression and a Gaussian naive Bayes). Each command runs in its
own process (reading the CSV included), alternately with and without intervals, best of ``--repeats``; the machine
may be shared, so the load average (at the start and at the end) and the core count are printed with the results.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
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


def command(path: Path, ci: bool, root: Path, profile: Path | None = None) -> tuple[float, float]:
    """Wall time and CPU seconds (user + system) of ``python -m assess metrics FILE [--ci auto]`` in a fresh
    process, the package from ``root``."""
    head = [sys.executable] + (["-m", "cProfile", "-o", str(profile)] if profile else []) + ["-m", "assess"]
    args = head + ["metrics", str(path), "--quiet"] + (["--ci", "auto"] if ci else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, cwd=root, check=True, stdout=subprocess.DEVNULL,
                   env={**os.environ, "PYTHONPATH": str(root)})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _multiclass(rows):
    def make(path: Path, _rows: int) -> None:
        from bench_multiclass_ci import multiclass_file
        multiclass_file(path, rows)
    return make


def files(scale: float) -> dict:
    """{name: (maker(path, rows), rows)} of the four files of issue 32."""
    big, small = max(1000, int(1_000_000 * scale)), max(1000, int(100_000 * scale))
    return {"binary": (binary_file, big), "regression": (regression_file, big),
            "multiclass-1e5": (_multiclass(small), small), "multiclass-1e6": (_multiclass(big), big)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="size of every file relative to issue 32's")
    parser.add_argument("--files", nargs="+", default=list(files(1.0)), choices=list(files(1.0)))
    parser.add_argument("--repeats", type=int, default=1, help="runs of each command; the best counts")
    parser.add_argument("--profile", type=Path, help="directory for a cProfile of each --ci auto run")
    parser.add_argument("--root", type=Path, default=ROOT, help="directory holding the `assess` package to time")
    options = parser.parse_args()
    start_load = os.getloadavg()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in options.files:
            make, rows = files(options.scale)[name]
            path = Path(tmp) / f"{name}.csv"
            make(path, rows)
            plain, auto = [], []
            for _ in range(options.repeats):
                plain.append(command(path, ci=False, root=options.root))
                auto.append(command(path, ci=True, root=options.root))
            results.append((name, rows, min(plain), min(auto)))
            path.unlink()
            if options.profile:
                options.profile.mkdir(parents=True, exist_ok=True)
                make(path, rows)
                command(path, ci=True, root=options.root, profile=options.profile / f"{name}.prof")
    load = os.getloadavg()
    print(f"package: {options.root}")
    print(f"2 models per file; load average {start_load[0]:.2f} at the start, {load[0]:.2f} {load[1]:.2f} "
          f"{load[2]:.2f} (1, 5, 15 min) at the end, on {os.cpu_count()} cores; best of {options.repeats}, "
          f"alternating")
    for name, rows, (plain, plain_cpu), (auto, auto_cpu) in results:
        print(f"  {name:<15} {rows:>9,} rows per model:  metrics {plain:7.2f} s   --ci auto {auto:7.2f} s   "
              f"ratio {auto / plain:5.2f}x (goal <= 3x)   CPU {plain_cpu:6.2f} s / {auto_cpu:6.2f} s = "
              f"{auto_cpu / plain_cpu:5.2f}x")


if __name__ == "__main__":
    main()
