"""The cost charts as data: the trade-off's markers, error bars and Pareto line; the latency histogram's shares
(against numpy.histogram) and its 95th-percentile lines; file text drawn as plain text."""

import numpy as np
import plotly.io as pio

from assess.analyses.cost import TradeOffPoint
from assess.present.charts.cost import LATENCY_BINS, latency_distribution_chart, trade_off_chart
from assess.present.charts.style import TEMPLATE


def test_trade_off_chart_marks_the_front_and_draws_both_intervals():
    points = [TradeOffPoint("fast", 0.90, 0.88, 0.92, 1.0, 0.9, 1.1, True),
              TradeOffPoint("slow <b>", 0.95, 0.93, 0.97, 10.0, 9.0, 12.0, True),
              TradeOffPoint("worse", 0.85, 0.80, 0.90, 5.0, 4.0, 6.0, False)]
    fig = trade_off_chart(points=points, metric_name="Accuracy", cost_name="p95 latency (ms)")
    assert fig.layout.template.layout.font.family == pio.templates[TEMPLATE].layout.font.family
    markers = {t.name: t for t in fig.data if t.mode == "markers+text"}
    assert set(markers) == {"fast (Pareto front)", "slow &lt;b&gt; (Pareto front)", "worse"}
    slow = markers["slow &lt;b&gt; (Pareto front)"]
    assert slow.x == (10.0,) and slow.error_x.array == (2.0,) and slow.error_x.arrayminus == (1.0,)
    assert np.allclose(slow.error_y.array, [0.02]) and markers["worse"].marker.symbol == "circle-open"
    [front] = [t for t in fig.data if t.mode == "lines"]
    assert front.x == (1.0, 10.0) and fig.layout.xaxis.type == "log"


def test_trade_off_chart_without_intervals_hides_the_bars():
    fig = trade_off_chart(points=[TradeOffPoint("a", 0.9, np.nan, np.nan, 1.0, np.nan, np.nan, True)],
                          metric_name="Accuracy", cost_name="ms")
    assert fig.data[0].error_x.visible is False


def test_latency_histogram_shares_match_numpy():
    rng = np.random.default_rng(0)
    a, b = rng.lognormal(0, 1, 500), rng.lognormal(1, 0.5, 300)
    fig = latency_distribution_chart(latencies={"a": (a, np.ones(500)), "b": (b, np.full(300, 2.0))},
                                     p95={"a": float(np.percentile(a, 95)), "b": float(np.percentile(b, 95))})
    lines = {t.name: t for t in fig.data if t.name}
    edges = np.geomspace(min(a.min(), b.min()), max(a.max(), b.max()) * 1.001, LATENCY_BINS + 1)
    np.testing.assert_allclose(lines["a (n = 500)"].y, np.histogram(a, edges)[0] / 500)
    np.testing.assert_allclose(lines["b (n = 600)"].y, np.histogram(b, edges)[0] / 300)
    p95_lines = [t for t in fig.data if t.showlegend is False]
    assert [t.x[0] for t in p95_lines] == [np.percentile(a, 95), np.percentile(b, 95)]
    assert fig.layout.xaxis.type == "log"
