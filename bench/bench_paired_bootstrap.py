"""The paired bootstrap's cost against the point estimate's (issue 32): CPU seconds of ``paired_bootstrap`` (the
default resamples, the registry's vectorised ROC AUC / MAE) and of ``python -m assess report FILE --out r.html`` on
the 1e6-row binary and regression files of `bench/bench_peers.py`, each also as a ratio to one ``numpy.argsort`` of
the file's scores (the unit of work of a rank metric), measured in one run.

    .venv/bin/python bench/bench_paired_bootstrap.py                      # this checkout
    .venv/bin/python bench/bench_paired_bootstrap.py --root /tmp/before   # another checkout (git archive), to compare
    .venv/bin/python bench/bench_paired_bootstrap.py --scale 0.1 --no-report

CPU seconds (user + system, the report's child process included) do not grow with other people's load on a shared
machine; each line ends with the load average when it was measured.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout whose `assess` is measured")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the 1e6 rows (quick runs)")
    parser.add_argument("--no-report", action="store_true", help="only the paired bootstrap, not the report")
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "assess-peers")
    options = parser.parse_args()
    sys.path.insert(0, str(HERE))
    from bench.bench_ci_speed import binary_file, regression_file
    sys.path.insert(0, str(options.root.resolve()))
    import numpy as np
    import pandas as pd

    from assess.stats import paired_bootstrap
    from assess.stats.bridge import registry_metric

    print(f"assess from {options.root}; {os.cpu_count()} cores; CPU seconds (ratio to one argsort of the scores)")
    options.dir.mkdir(parents=True, exist_ok=True)
    for task, make, key, value in (("binary", binary_file, "roc_auc", "score"),
                                   ("regression", regression_file, "mae", "y_pred")):
        rows = int(1_000_000 * options.scale)
        path = options.dir / f"{task}-{rows}.csv"
        if not path.exists():
            make(path, rows)
        data = pd.read_csv(path)
        models = list(dict.fromkeys(data["model"]))
        y = data[data["model"] == models[0]]["y_true"].to_numpy()
        a, b = (data[data["model"] == m][value].to_numpy(dtype=float) for m in models[:2])
        if task == "binary":
            y = (y == sorted(set(y))[-1]).astype(int)   # the positive class: the file's last label in sorted order
        start = cpu()
        np.argsort(a)
        unit = cpu() - start
        metric = registry_metric(task, key, classes=("0", "1") if task == "binary" else ())
        start = cpu()
        paired_bootstrap(y, a, b, metric=metric, vectorized=True, seed=0)
        boot = cpu() - start
        report = None
        if not options.no_report:
            env = {**os.environ, "PYTHONPATH": str(options.root.resolve())}
            start = cpu()
            subprocess.run([sys.executable, "-m", "assess", "report", str(path), "--out",
                            str(options.dir / f"bench-pb-{task}.html"), "--quiet"], check=True, env=env,
                           cwd=options.root, stdout=subprocess.DEVNULL)
            report = cpu() - start
        load = " ".join(f"{x:.1f}" for x in os.getloadavg())
        rep = f"report {report:6.1f} s ({report / unit:5.0f}×)" if report is not None else "report -"
        print(f"  {task:<10} {rows:>9,} rows  argsort {unit:5.2f} s  paired_bootstrap({key}) {boot:6.1f} s "
              f"({boot / unit:5.0f}×)  {rep}  load {load}", flush=True)


if __name__ == "__main__":
    main()
