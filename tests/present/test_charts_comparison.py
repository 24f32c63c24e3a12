"""Comparison charts as data: the CD diagram's placements and cliques, the forest plot, fold box plots."""

import math

import numpy as np
import pandas as pd
import pytest

from assess.intervals import ConfidenceInterval
from assess.present import charts
from assess.present.charts.style import plain
from assess.stats import Effect


def test_cd_diagram_places_models_and_joins_cliques():
    # Demšar (2006) definition: models whose average ranks differ by less than CD are joined by a bar.
    ranks = {"a": 1.2, "b": 2.0, "c": 3.4, "d": 3.9}
    fig = charts.critical_difference_chart(average_ranks=ranks, critical_difference=1.0)
    labels = [t.text[0] for t in fig.data if t.mode == "text"]
    assert labels == ["a (1.20)", "b (2.00)", "c (3.40)", "d (3.90)"]
    bars = [t for t in fig.data if t.mode == "lines" and t.line.width == 5]
    joined = sorted(t.hovertemplate.split(": ")[1].split("<")[0] for t in bars)
    assert joined == ["a, b", "c, d"]  # 2.0 - 1.2 < 1; 3.9 - 3.4 < 1; b to c is 1.4 apart
    assert "CD = 1.00" in [t.text[1] for t in fig.data if t.mode == "lines+text"]


def test_cd_diagram_rejects_bad_input():
    with pytest.raises(ValueError, match=r"`critical_difference` must be a positive number \(got nan\)"):
        charts.critical_difference_chart(average_ranks={"a": 1, "b": 2}, critical_difference=float("nan"))
    with pytest.raises(ValueError, match="at least two model names"):
        charts.critical_difference_chart(average_ranks={"a": 1}, critical_difference=1.0)


def test_forest_plot_has_one_row_per_pair_with_its_interval():
    def effect(value, low, high):
        return Effect("accuracy difference", value, ConfidenceInterval(low, high, 0.9, "t"))
    fig = charts.difference_chart(effects=[("a − b", effect(0.05, 0.01, 0.09)), ("a − c", effect(-0.02, np.nan,
                                                                                                  np.nan))])
    [trace] = fig.data
    assert list(trace.y) == ["a − b", "a − c"]
    np.testing.assert_allclose(trace.error_x.array, [0.04, 0.0])
    np.testing.assert_allclose(trace.error_x.arrayminus, [0.04, 0.0])
    assert fig.layout.xaxis.title.text == "accuracy difference"
    assert "90% confidence interval" in fig.layout.title.subtitle.text


def test_forest_plot_draws_one_sided_intervals_to_the_edge():
    one_sided = Effect("d", 0.05, ConfidenceInterval(0.01, math.inf, 0.95, "t"))
    fig = charts.difference_chart(effects=[("a − b", one_sided)])
    [trace] = fig.data
    np.testing.assert_allclose(trace.error_x.arrayminus, [0.04])
    assert trace.error_x.array[0] == pytest.approx(2 * 0.05 - 0.05)   # to twice the largest finite magnitude


def test_fold_box_chart_one_box_per_model_in_order():
    scores = pd.DataFrame({"model": ["b", "a", "b", "a"], "fold": [1, 1, 2, 2], "f1": [0.7, 0.8, 0.72, 0.81]})
    fig = charts.fold_box_chart(scores=scores, metric="f1", colors={"a": "#000000", "b": "#111111"})
    assert [t.name for t in fig.data] == ["b", "a"]
    np.testing.assert_allclose(fig.data[1].y, [0.8, 0.81])
    with pytest.raises(ValueError, match="`scores` has no column 'auc'"):
        charts.fold_box_chart(scores=scores, metric="auc")


@pytest.mark.parametrize("name, value, low, high, line, words", [
    ("accuracy difference (A - B)", 0.05, 0.01, 0.09, 0.0, "0 = no difference"),
    ("Cramér's V", 0.12, 0.03, 0.2, 0.0, "0 = no association"),
    ("odds ratio (conditional MLE)", 2.0, 1.2, 3.5, 1.0, "1 = no difference"),
    ("probability of superiority P(A > B)", 0.61, 0.55, 0.67, 0.5, "0.5 = no difference"),
])
def test_forest_plot_draws_the_line_where_the_effect_says_nothing(name, value, low, high, line, words):
    """Cramér's V was drawn on a "0 = no difference" axis and an odds ratio's line sat at 0, not 1."""
    fig = charts.difference_chart(effects=[("a vs b", Effect(name, value, ConfidenceInterval(low, high, 0.95, "x")))])
    [vline] = [s for s in fig.layout.shapes if s.type == "line"]
    assert vline.x0 == vline.x1 == line
    assert fig.layout.title.subtitle.text.endswith(words)
    assert fig.layout.xaxis.title.text == plain(name)   # the axis names the effect, never "difference" for a V


def test_forest_plot_of_an_effect_with_no_null_value_draws_no_line():
    fig = charts.difference_chart(effects=[("a", Effect("error rate", 0.1, ConfidenceInterval(0.05, 0.15, 0.95, "x")))])
    assert not fig.layout.shapes and "=" not in fig.layout.title.subtitle.text
