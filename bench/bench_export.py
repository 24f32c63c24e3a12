"""Chart payload and export timings (prints; not a test).

    .venv/bin/python bench/bench_export.py [--rows 1000000]

1. Figure JSON size per curve at ``--rows`` rows (what Streamlit sends to the browser for one chart).
2. A 10-chart multi-page PDF: cold (export browser not running: Chromium start + 10 renders + merge) and warm
   (the browser already up), three warm runs.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assess.present import charts  # noqa: E402
from assess import curves  # noqa: E402
from assess.metrics.threshold import metric_vs_threshold  # noqa: E402
from assess.present import export  # noqa: E402


def _data(n: int, seed: int, shift: float):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.1
    return y, 1 / (1 + np.exp(-(rng.normal(0, 1, n) + shift * y - 2.2)))


def build_charts(n: int):
    y, a = _data(n, 1, 2.0)
    _, b = _data(n, 2, 1.2)
    t0 = time.perf_counter()
    counts = {"Model A": curves.threshold_counts(y, a), "Model B": curves.threshold_counts(y, b)}
    t_counts = time.perf_counter() - t0
    one = {"Model A": counts["Model A"]}
    single = {
        "roc": charts.roc_chart(curves={k: curves.roc_curve(c) for k, c in one.items()}, counts=one, threshold=0.3),
        "pr": charts.pr_chart(curves={k: curves.pr_curve(c) for k, c in one.items()}, counts=one, threshold=0.3),
        "gain": charts.gain_chart(curves={k: curves.gain_curve(c) for k, c in one.items()}, counts=one, threshold=0.3),
        "lift": charts.lift_chart(curves={k: curves.lift_curve(c) for k, c in one.items()}, counts=one, threshold=0.3),
        "ks": charts.ks_chart(curves={k: curves.ks_curve(c) for k, c in one.items()}),
    }
    t1 = time.perf_counter()
    page = [
        charts.roc_chart(curves={k: curves.roc_curve(c) for k, c in counts.items()}, counts=counts, threshold=0.3),
        charts.pr_chart(curves={k: curves.pr_curve(c) for k, c in counts.items()}, counts=counts, threshold=0.3),
        charts.gain_chart(curves={k: curves.gain_curve(c) for k, c in counts.items()}, counts=counts),
        charts.lift_chart(curves={k: curves.lift_curve(c) for k, c in counts.items()}, counts=counts),
        charts.ks_chart(curves={k: curves.ks_curve(c) for k, c in counts.items()}),
        charts.calibration_chart(curves={"Model A": curves.calibration_curve(y, a),
                                         "Model B": curves.calibration_curve(y, b)}),
        charts.score_distribution_chart(scores_by_class={"negative": a[~y], "positive": a[y]}, threshold=0.3),
        charts.metric_threshold_chart(metrics=metric_vs_threshold(counts["Model A"], ("precision", "recall", "f1")),
                                      threshold=0.3),
        charts.confusion_matrix_chart(matrix=[[8000, 1000], [300, 700]], classes=["negative", "positive"],
                                  normalize="true"),
        charts.fold_curves_chart(folds=[curves.roc_curve(curves.threshold_counts(y[i::5], a[i::5])) for i in range(5)],
                             name="Model A"),
    ]
    t_page = time.perf_counter() - t1
    return counts, single, page, t_counts, t_page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args()
    counts, single, page, t_counts, t_page = build_charts(args.rows)
    print(f"rows: {args.rows:,}; distinct thresholds: {len(counts['Model A']):,}; counts for 2 models "
          f"{t_counts:.2f} s; the 10 page charts built in {t_page:.2f} s")
    print("\nFigure JSON, one curve per chart (incl. template, hover data, operating point):")
    for name, fig in single.items():
        points = max(len(t.x) for t in fig.data if t.x is not None)
        print(f"  {name:5s} {len(fig.to_json()) / 1024:6.1f} KB   longest trace {points:,} points")
    sizes = [len(f.to_json()) / 1024 for f in page]
    print(f"  10-chart page: {sum(sizes):.0f} KB in all, largest chart {max(sizes):.0f} KB")

    print("\n10-chart multi-page PDF:")
    export.stop_export_browser()
    t = time.perf_counter()
    pdf = export.figures_to_pdf(page)
    print(f"  cold (browser start + render + merge): {time.perf_counter() - t:.2f} s, {len(pdf) / 1024:.0f} KB")
    for run in range(3):
        t = time.perf_counter()
        export.figures_to_pdf(page)
        print(f"  warm run {run + 1}: {time.perf_counter() - t:.2f} s")
    t = time.perf_counter()
    export.figure_to_pdf(page[0])
    print(f"  one chart, warm: {time.perf_counter() - t:.2f} s")
    export.stop_export_browser()


if __name__ == "__main__":
    main()
