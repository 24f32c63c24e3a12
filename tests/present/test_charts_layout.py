"""Chart layout as data (issue 11): legends under the plot with room made for them, one no-skill entry on a
one-vs-rest precision–recall chart, confusion cells drawn as vector rectangles."""

import numpy as np
import plotly.graph_objects as go

from assess import curves
from assess.present import charts
from assess.present.charts.style import HEIGHT, LEGEND_ROW, legend_below, legend_entries


def binary_curves(seed):
    rng = np.random.default_rng(seed)
    y = (rng.random(300) < 0.4).astype(np.int8)
    s = np.clip(0.3 * y + 0.7 * rng.random(300), 0, 1)
    counts = curves.threshold_counts(y, s)
    return curves.roc_curve(counts), curves.pr_curve(counts), curves.ks_curve(counts)


def test_legend_sits_under_the_plot_and_the_figure_grows_by_its_rows():
    rocs = {f"model {i}": binary_curves(i)[0] for i in range(3)}
    fig = charts.roc_chart(curves=rocs, threshold=0.5)
    shown = [t for t in fig.data if t.showlegend is not False and t.name]   # chance + 3 models + operating point
    assert legend_entries(fig) == len(shown) == 5
    assert fig.layout.legend.y < 0 and fig.layout.legend.yanchor == "top"    # below the x axis, not over the data
    assert fig.layout.height == HEIGHT + 5 * LEGEND_ROW + 8
    assert fig.layout.margin.b >= 5 * LEGEND_ROW


def test_legend_below_twice_recounts_instead_of_adding_room_twice():
    fig = go.Figure([go.Scatter(x=[0, 1], y=[0, 1], name="a")], layout=dict(template=charts.TEMPLATE))
    legend_below(fig)
    fig.add_trace(go.Scatter(x=[0, 1], y=[1, 0], name="b"))
    legend_below(fig)
    assert fig.layout.height == HEIGHT + 2 * LEGEND_ROW + 8


def test_ks_legend_is_below_and_one_vs_rest_pr_has_one_no_skill_entry():
    ks = charts.ks_chart(curves={"a": binary_curves(1)[2], "b": binary_curves(2)[2]})
    assert ks.layout.legend.y < 0 and legend_entries(ks) == 6
    rng = np.random.default_rng(3)
    per_class = {}
    for c, rate in (("red", 0.2), ("green", 0.3), ("blue", 0.5)):   # three prevalences: three baselines
        y = (rng.random(400) < rate).astype(np.int8)
        per_class[c] = curves.pr_curve(curves.threshold_counts(y, np.clip(0.4 * y + 0.6 * rng.random(400), 0, 1)))
    fig = charts.ovr_chart(per_class=per_class)
    no_skill = [t for t in fig.data if t.name and t.name.startswith("No skill")]
    assert len(no_skill) == 3 and sum(t.showlegend is not False for t in no_skill) == 1
