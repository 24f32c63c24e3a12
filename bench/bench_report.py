"""Report timings against the issue-12 budget (prints; not a test).

    .venv/bin/python bench/bench_report.py [--rows 1000000] [--skip-large]

1. The breast-cancer sample's full report (18 charts): building it (metrics with auto intervals, 1,000 resamples;
   tests; charts), then the HTML (budget ≤ 3 s warm) and the PDF (budget ≤ 10 s warm), best of three warm runs.
2. A ``--rows``-row binary file with two models: the report with 200 resamples, as HTML and as PDF
   (budget ≤ 30 s), once, with the time of each stage of the build (metrics, tests, charts). Also the ratio of each
   time to one `numpy.argsort` of the scores.

Every line ends with the load average (1, 5, 15 min): on a shared machine the figures are the machine's, not the
code's; compare the ratios.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assess.inputs.assessment import describe  # noqa: E402
from assess.inputs.read import read_table  # noqa: E402
from assess.present.report import ReportOptions, build_report, render_html, render_pdf  # noqa: E402
from assess.present.report.render import html_to_pdf  # noqa: E402
from bench.timing import best  # noqa: E402


def load() -> str:
    return "load " + ", ".join(f"{x:.1f}" for x in os.getloadavg())


class Stages:
    """The build's progress callback: the wall time spent in each stage it names."""

    def __init__(self) -> None:
        self.times: dict[str, float] = {}
        self.stage, self.start = None, time.perf_counter()

    def __call__(self, fraction: float, what: str) -> None:
        now = time.perf_counter()
        if what != self.stage:
            if self.stage is not None:
                self.times[self.stage] = self.times.get(self.stage, 0.0) + now - self.start
            self.stage, self.start = what, now

    def text(self) -> str:
        self("", None)
        return "; ".join(f"{what} {t:.2f} s" for what, t in self.times.items())


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def sample_report() -> None:
    assessment = describe(read_table(ROOT / "assets/samples/breast_cancer_binary.csv"))
    report, t_build = timed(lambda: build_report(assessment, ReportOptions()))
    render_pdf(report)  # warm: the page cache holds Chromium
    t_html = best(lambda: render_html(report))
    t_pdf = best(lambda: render_pdf(report))
    # Chromium's own start and print of an empty page: what no report can go below on this machine right now
    t_blank = best(lambda: html_to_pdf("<!DOCTYPE html><p>blank</p>"))
    print(f"breast cancer ({len(report.figures)} charts): build {t_build:.2f} s; HTML {t_html:.2f} s (budget 3); "
          f"PDF {t_pdf:.2f} s (budget 10; = {t_pdf / t_blank:.1f} × printing a blank page, {t_blank:.2f} s); "
          f"build + PDF {t_build + t_pdf:.2f} s ({load()})")


def large_report(rows: int) -> None:
    rng = np.random.default_rng(0)
    n = rows // 2  # samples, each scored by two models: `rows` rows in all
    truth = np.tile(rng.random(n) < 0.2, 2)
    frame = pd.DataFrame({"id": np.tile(np.arange(n), 2), "model": np.repeat(["A", "B"], n),
                          "y_true": np.where(truth, "fraud", "ok")})
    shift = np.where(frame["model"] == "A", 1.5, 1.2)
    frame["score"] = 1 / (1 + np.exp(-(rng.normal(0, 1, len(frame)) + shift * truth - 1.5)))
    path = Path("/tmp/bench_report_large.parquet")
    frame.to_parquet(path)
    scores = frame["score"].to_numpy()
    t_sort = best(lambda: np.argsort(scores))
    assessment, t_read = timed(lambda: describe(read_table(path)))
    stages = Stages()
    report, t_build = timed(lambda: build_report(assessment, ReportOptions(n_resamples=200), progress=stages))
    stages_text = stages.text()
    _, t_html = timed(lambda: render_html(report))
    _, t_pdf = timed(lambda: render_pdf(report))
    total = t_read + t_build + t_pdf
    print(f"{len(frame):,} rows, 2 models, 200 resamples: read {t_read:.2f} s, build {t_build:.2f} s, HTML "
          f"{t_html:.2f} s, PDF {t_pdf:.2f} s; read + build + PDF {total:.2f} s (budget 30); "
          f"= {total / t_sort:,.0f} argsorts of the scores ({t_sort:.3f} s) ({load()})\n  build: {stages_text}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--skip-large", action="store_true")
    args = parser.parse_args()
    sample_report()
    if not args.skip_large:
        large_report(args.rows)


if __name__ == "__main__":
    main()
