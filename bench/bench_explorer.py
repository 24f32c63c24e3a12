"""The threshold explorer's server-side work per slider move at 1e6 rows (SPEC/issue budget: <= 300 ms).

A slider move reruns only the fragment: per model a binary search in the counts (metrics_at, binary_matrix), then
the confusion charts and the six threshold-marked charts are rebuilt and serialised to JSON for the browser. The
one sort per model happened before, once; its time is printed too, as a ratio to one numpy.argsort.
"""

import time

import numpy as np

from assess.analyses.operating_points import binary_matrix, scored_model
from assess.core.data import Predictions, Task
from assess.metrics.threshold import metric_vs_threshold, metrics_at
from assess.present import charts


def main(n: int = 1_000_000, models: int = 3) -> None:
    rng = np.random.default_rng(0)
    y = (rng.random(n) < 0.1).astype(np.int8)
    preds = {f"model_{i}": Predictions(Task.BINARY, ("ok", "fraud"), y, None,
                                       np.clip(rng.normal(0.3 + (0.15 + 0.1 * i) * y, 0.2), 0, 1), model=f"m{i}")
             for i in range(models)}
    t = time.perf_counter()
    np.argsort(preds["model_0"].scores)
    argsort = time.perf_counter() - t
    t = time.perf_counter()
    scored = {m: scored_model(p) for m, p in preds.items()}
    once = time.perf_counter() - t
    colors = charts.model_colors(list(scored))
    # What the page computes once per model and memoises: the drawn indices and the threshold-free charts.
    budget = charts.points_per_curve(len(scored))
    drawn = {kind: {m: charts.drawn_indices(getattr(sm, kind).x, getattr(sm, kind).y, max_points=budget)
                    for m, sm in scored.items()} for kind in ("roc", "pr", "gain", "lift")}
    first = next(iter(scored.values()))
    by_threshold = charts.metric_threshold_chart(metrics=metric_vs_threshold(first.counts))
    distribution = charts.score_distribution_chart(scores_by_class=first.scores_by_class)
    times, sizes = [], []
    for threshold in (0.3, 0.45, 0.5, 0.62, 0.8):
        t = time.perf_counter()
        [metrics_at(sm.counts, threshold) for sm in scored.values()]
        figs = [charts.confusion_matrix_chart(matrix=binary_matrix(sm.counts, threshold), classes=["ok", "fraud"],
                                              normalize="true") for sm in scored.values()]
        counts = {m: sm.counts for m, sm in scored.items()}
        curves_of = {kind: {m: getattr(sm, kind) for m, sm in scored.items()} for kind in drawn}
        figs += [charts.roc_chart(curves=curves_of["roc"], counts=counts, colors=colors, threshold=threshold,
                                  drawn=drawn["roc"]),
                 charts.pr_chart(curves=curves_of["pr"], counts=counts, colors=colors, threshold=threshold,
                                 drawn=drawn["pr"]),
                 charts.gain_chart(curves=curves_of["gain"], counts=counts, colors=colors, threshold=threshold,
                                   drawn=drawn["gain"]),
                 charts.lift_chart(curves=curves_of["lift"], counts=counts, colors=colors, threshold=threshold,
                                   drawn=drawn["lift"]),
                 charts.with_threshold_line(by_threshold, threshold),
                 charts.with_threshold_line(distribution, threshold)]
        payload = [f.to_json() for f in figs]
        times.append(time.perf_counter() - t)
        sizes.append(sum(len(p) for p in payload))
    print(f"{n:,} rows × {models} models; one argsort: {argsort * 1000:.0f} ms")
    print(f"  all curves of all models, once (3 sorts):  {once:6.2f} s  ({once / argsort / models:5.1f}× argsort "
          "per model)")
    print(f"  slider move, fragment work (median of 5):  {np.median(times) * 1000:6.0f} ms  (budget 300 ms)")
    print(f"  JSON sent per move: {np.median(sizes) / 1024:,.0f} KB for {len(payload)} charts")


if __name__ == "__main__":
    main()
