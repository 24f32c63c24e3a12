"""Precomputed drawn indices and the threshold line: the explorer's fast path draws exactly what the slow path does."""

import numpy as np
import plotly.graph_objects as go

from assess.present import charts
from assess import curves
from assess.metrics.threshold import metric_vs_threshold


def scored(seed=0, n=50_000):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.2).astype(np.int8)
    s = rng.random(n) * 0.7 + 0.3 * y
    return curves.threshold_counts(y, s)


def test_drawn_indices_give_the_same_figure_as_thinning_inside():
    counts = scored()
    roc = curves.roc_curve(counts)
    slow = charts.roc_chart(curves={"m": roc}, counts={"m": counts}, threshold=0.5)
    idx = charts.drawn_indices(roc.x, roc.y, max_points=charts.points_per_curve(1))
    fast = charts.roc_chart(curves={"m": roc}, counts={"m": counts}, threshold=0.5, drawn={"m": idx})
    a, b = slow.data[1], fast.data[1]
    np.testing.assert_array_equal(a.x, b.x)
    np.testing.assert_array_equal(np.asarray(a.customdata), np.asarray(b.customdata))
    # hover counts are the exact cumulative counts at the drawn thresholds (curve point 0 is the +inf start)
    k = idx[idx > 0]
    np.testing.assert_allclose(np.asarray(b.customdata)[idx > 0, 1], counts.tps[k - 1])


def test_drawn_subset_is_what_is_drawn():
    counts = scored(1)
    gain = curves.gain_curve(counts)
    idx = np.array([0, 10, 100, len(gain) - 1])
    fig = charts.gain_chart(curves={"m": gain}, drawn={"m": idx})
    [trace] = [t for t in fig.data if t.name == "m"]
    np.testing.assert_array_equal(trace.x, gain.x[idx])


def test_threshold_line_is_added_to_a_copy():
    counts = scored(2)
    rates = metric_vs_threshold(counts, ("precision", "recall", "f1"))
    base = charts.metric_threshold_chart(metrics=rates)
    marked = charts.with_threshold_line(base, 0.42)
    assert isinstance(marked, go.Figure) and not base.layout.shapes
    assert [s.x0 for s in marked.layout.shapes] == [0.42]
    direct = charts.metric_threshold_chart(metrics=rates, threshold=0.42)
    assert [s.x0 for s in direct.layout.shapes] == [0.42]
