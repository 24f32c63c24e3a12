"""Charts of slices, folds and learning curves, tested as data: order, reference lines, markers, axes, template,
and file text drawn as written."""

import numpy as np
import pandas as pd
import plotly.io as pio
import streamlit  # noqa: F401  - switches plotly's default template, which our charts must not rely on

from assess.present.charts.slices import (fairness_chart, fold_metric_chart, learning_curve_chart, slice_forest_chart,
                                  slice_heatmap)
from assess.present.charts.style import TEMPLATE

ROWS = pd.DataFrame({"slice": ["a", "<b>bold</b>", "c"], "n": [200, 12, 150], "value": [0.9, 0.6, 0.7],
                     "low": [0.85, 0.3, 0.62], "high": [0.94, 0.85, 0.77], "p_adjusted": [0.01, np.nan, 0.2]})


def test_forest_sorts_worst_first_marks_small_slices_and_draws_the_overall_line():
    fig = slice_forest_chart(rows=ROWS, overall=0.8, metric="Accuracy", model="m", min_size=30,
                             confidence_level=0.95, higher_is_better=True)
    assert fig.layout.template == pio.templates[TEMPLATE]
    tested, small = fig.data
    assert list(tested.x) == [0.7, 0.9] and tested.y[0].startswith("c")      # worst tested first
    assert list(small.x) == [0.6] and small.marker.symbol == "circle-open"
    assert small.y[0].startswith("&lt;b&gt;bold&lt;/b&gt;")                 # a slice name is text, not markup
    assert list(small.error_x.arrayminus) == [0.6 - 0.3]
    assert fig.layout.shapes[0].x0 == 0.8                                      # the overall value
    lower_better = slice_forest_chart(rows=ROWS, overall=0.8, metric="Error", model="m", min_size=30,
                                      confidence_level=0.95, higher_is_better=False)
    assert list(lower_better.data[0].x) == [0.9, 0.7]


def test_heatmap_has_one_cell_per_crossing_with_its_size():
    rows = pd.DataFrame({"sex": ["f", "f", "m", "m"], "site": ["x", "y", "x", "y"], "value": [0.1, 0.2, 0.3, 0.4],
                         "n": [40, 5, 50, 60]})
    fig = slice_heatmap(rows=rows, row_column="sex", col_column="site", metric="MAE", model="m", min_size=30)
    assert fig.layout.template == pio.templates[TEMPLATE]
    cells = fig.data[0]                                   # texts and hover at the cell centres, row-major
    assert [c[:2].tolist() for c in cells.customdata] == [["f", "x"], ["f", "y"], ["m", "x"], ["m", "y"]]
    assert [t.split("<br>")[0] for t in cells.text] == ["0.1", "0.2", "0.3", "0.4"]
    assert "(small)" in cells.text[1] and "(small)" not in cells.text[0]


def test_fairness_fold_and_learning_curve_charts():
    by_group = pd.DataFrame({"group": ["a", "b"], "selection_rate": [0.5, 0.2], "tpr": [0.9, 0.6], "fpr": [0.2, 0.1]})
    fig = fairness_chart(by_group=by_group, column="sex", model="m")
    assert [t.name for t in fig.data] == ["Selection rate", "True positive rate", "False positive rate"]
    assert list(fig.data[1].y) == [0.9, 0.6]
    per_fold = pd.DataFrame({"model": ["m"] * 3, "repeat": [None] * 3, "fold": ["1", "2", "3"],
                             "value": [0.8, 0.85, 0.9]})
    summary = pd.DataFrame({"model": ["m"], "mean": [0.85], "low": [0.78], "high": [0.92], "pooled": [0.86]})
    fig = fold_metric_chart(per_fold=per_fold, summary=summary, metric="Accuracy")
    assert sorted(fig.data[0].y) == [0.8, 0.85, 0.9] and fig.data[2].y == (0.86,)
    assert fig.layout.template == pio.templates[TEMPLATE]
    points = pd.DataFrame({"model": ["m"] * 3, "train_size": [100, 200, 400], "mean": [0.7, 0.8, 0.85],
                           "low": [0.6, 0.75, 0.8], "high": [0.8, 0.85, 0.9]})
    fig = learning_curve_chart(points=points, metric="Accuracy", column="train_size")
    assert fig.layout.xaxis.type == "log"
    band, line = fig.data
    assert list(line.y) == [0.7, 0.8, 0.85] and band.fill == "toself"
