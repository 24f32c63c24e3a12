"""Regression charts: what they draw is checked against pandas/numpy computed here, not against the chart code."""

import json

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest
from scipy import stats

from assess.present.charts.regression import (DENSITY_ABOVE, error_by_decile_chart, error_distribution_chart,
                                      predicted_actual_chart, residual_chart)
from assess.present.charts.style import TEMPLATE


def models(n=500, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.gamma(3.0, 20.0, n)
    return {"ridge": (y, y + rng.normal(0, 8, n)), "forest": (y, 0.8 * y + 10 + rng.normal(0, 5, n))}


def traces(fig, kind):
    return [t for t in fig.data if t.type == kind]


def test_predicted_actual_draws_points_and_the_identity_line():
    data = models()
    fig = predicted_actual_chart(models=data)
    assert fig.layout.template.layout.font.family.startswith("Liberation Sans")   # the house template, not streamlit's
    points = traces(fig, "scattergl")
    assert [t.name for t in points] == ["ridge (n = 500)", "forest (n = 500)"]
    np.testing.assert_array_equal(points[1].y, data["forest"][1])
    [identity] = [t for t in traces(fig, "scatter") if t.name == "predicted = actual"]
    assert list(identity.x) == list(identity.y)                                   # the diagonal
    assert fig.layout.xaxis.range == fig.layout.yaxis.range


def test_above_the_density_threshold_a_million_rows_become_a_small_grid():
    rng = np.random.default_rng(1)
    n = 1_000_000
    y = rng.normal(100, 15, n)
    fig = predicted_actual_chart(models={"big": (y, y + rng.normal(0, 5, n))})
    assert n > DENSITY_ABOVE and not traces(fig, "scattergl") and [t for t in fig.data if t.fill == "toself"]
    assert len(json.dumps(fig.to_plotly_json(), default=str)) < 200_000            # bytes sent to the browser
    two = predicted_actual_chart(models={"a": (y, y + 1), "b": (y, y - 1)})
    assert len(traces(two, "contour")) == 2                                         # several models: outlines


def test_residual_chart_shows_errors_as_predicted_minus_actual_and_a_zero_line():
    data = models()
    fig = residual_chart(models=data)
    [ridge] = [t for t in traces(fig, "scattergl") if t.name.startswith("ridge")]
    np.testing.assert_allclose(ridge.y, data["ridge"][1] - data["ridge"][0])
    assert fig.layout.yaxis.title.text == "Error (predicted − actual)"
    assert [s.y0 for s in fig.layout.shapes] == [0]
    assert len([t for t in traces(fig, "scatter") if "trend" in t.name]) == 2
    bands = [t for t in traces(fig, "scatter") if t.fill == "toself" and "interval of the median" in t.name]
    assert len(bands) == 2                                  # each model's trend has its band


def test_error_distribution_shares_sum_to_one_and_the_reference_is_normal():
    data = models()
    fig = error_distribution_chart(models=data, bins=30)
    for bar in traces(fig, "bar"):
        assert sum(bar.y) == pytest.approx(1.0)
    [ridge_curve] = [t for t in traces(fig, "scatter") if t.name == "ridge: normal reference"]
    e = data["ridge"][1] - data["ridge"][0]
    width = traces(fig, "bar")[0].width
    peak = max(ridge_curve.y) / width                       # the density at its mode, ≈ 1 / (σ √(2π))
    assert peak == pytest.approx(1 / (e.std(ddof=1) * np.sqrt(2 * np.pi)), rel=1e-3)


def test_error_by_decile_matches_pandas():
    data = models(n=1000)
    fig = error_by_decile_chart(models=data)
    y, p = data["forest"]
    frame = pd.DataFrame({"d": pd.qcut(y, 10, labels=False), "ae": np.abs(p - y)})
    expected = frame.groupby("d")["ae"].mean().to_numpy()
    [forest] = [t for t in traces(fig, "bar") if t.name == "forest"]
    np.testing.assert_allclose(forest.y, expected, rtol=1e-12)
    assert [row[0] for row in forest.customdata] == frame.groupby("d").size().tolist()
    # each bar's error bar is the t interval of its mean (SciPy oracle)
    groups = [g.to_numpy() for _, g in frame.groupby("d")["ae"]]
    lows = [stats.t.interval(0.95, g.size - 1, loc=g.mean(), scale=stats.sem(g))[0] for g in groups]
    np.testing.assert_allclose(np.asarray(forest.y) - np.asarray(forest.error_y.arrayminus), lows, rtol=1e-9)


def test_bad_input_names_the_model():
    with pytest.raises(ValueError, match="model 'm': y_true has 3 values, y_pred 2"):
        predicted_actual_chart(models={"m": ([1, 2, 3], [1, 2])})
    with pytest.raises(ValueError, match="no colour for model 'm'"):
        residual_chart(models={"m": ([1, 2], [1, 3])}, colors={"other": "#000000"})
    assert isinstance(error_by_decile_chart(models={"m": ([1.0, 2.0, 3.0], [1.0, 2.5, 2.0])}), go.Figure)
    assert TEMPLATE == "assess"
