"""Charts as data: traces, arrays, axis titles, colours and sizes; no pixels (those are in test_export.py)."""

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from assess.charts import (OKABE_ITO, TEMPLATE, confusion_matrix_chart, expected_cost, model_colors,
                           most_confused_pairs, multilabel_confusion_chart, normalized_matrix)
from assess.charts.style import FONT_FAMILY

CLASSES = ["cat", "dog", "bird"]
MATRIX = np.array([[50, 3, 7], [10, 40, 0], [2, 8, 30]])


def _uses_our_template(fig: go.Figure) -> bool:
    return fig.layout.template == pio.templates[TEMPLATE]


# ------------------------------------------------------------------------------------------------------ style --

def test_template_has_our_fonts_and_palette():
    layout = pio.templates[TEMPLATE].layout
    assert layout.font.family == FONT_FAMILY and layout.font.size >= 12
    assert layout.xaxis.tickfont.size >= 12 and layout.legend.font.size >= 12
    assert list(layout.colorway) == list(OKABE_ITO)
    assert pio.templates.default != TEMPLATE  # registered, never made the global default


def test_model_colors_are_positional_stable_and_okabe_ito():
    colors = model_colors(["logreg", "gbm", "rf"])
    assert colors == {"logreg": OKABE_ITO[0], "gbm": OKABE_ITO[1], "rf": OKABE_ITO[2]}
    assert model_colors(["logreg", "gbm", "rf"]) == colors
    assert model_colors(["a", "a", "b"]) == {"a": OKABE_ITO[0], "b": OKABE_ITO[1]}
    many = model_colors([f"m{i}" for i in range(10)])
    assert many["m8"] == OKABE_ITO[0]  # past eight the palette repeats


# -------------------------------------------------------------------------------------------- confusion matrix --

def test_confusion_matrix_counts_with_share_of_all():
    fig = confusion_matrix_chart(matrix=MATRIX, classes=CLASSES)
    assert _uses_our_template(fig)
    (heat,) = fig.data
    assert list(heat.x) == CLASSES and list(heat.y) == CLASSES
    np.testing.assert_array_equal(heat.z, MATRIX)
    assert heat.text[0][0] == f"50<br>{100 * 50 / MATRIX.sum():.1f}%"
    assert fig.layout.xaxis.title.text == "Predicted class" and fig.layout.yaxis.title.text == "True class"
    assert fig.layout.yaxis.autorange == "reversed"  # first class on top, in the order given
    assert fig.layout.xaxis.type == "category"


@pytest.mark.parametrize("normalize, cell, expected", [
    ("true", (1, 0), 10 / 50), ("pred", (1, 0), 10 / 62), ("all", (1, 0), 10 / 150),
])
def test_confusion_matrix_normalisations(normalize, cell, expected):
    fig = confusion_matrix_chart(matrix=MATRIX, classes=CLASSES, normalize=normalize)
    (heat,) = fig.data
    assert heat.z[cell] == pytest.approx(expected)
    assert heat.text[cell[0]][cell[1]] == f"10<br>{100 * expected:.1f}%"
    assert heat.zmax == 1


def test_normalised_rows_and_columns_sum_to_one_and_empty_rows_are_nan():
    m = np.array([[3, 1, 0], [0, 0, 0], [1, 1, 2]])
    np.testing.assert_allclose(np.nansum(normalized_matrix(m, normalize="true"), axis=1), [1, 0, 1])
    assert np.isnan(normalized_matrix(m, normalize="true")[1]).all()
    np.testing.assert_allclose(normalized_matrix(m, normalize="pred").sum(axis=0)[[0, 1, 2]], [1, 1, 1])
    text = confusion_matrix_chart(matrix=m, classes=CLASSES, normalize="true").data[0].text
    assert text[1][0] == "0<br>–"


def test_confusion_matrix_keeps_numeric_looking_class_names_categorical_and_in_order():
    fig = confusion_matrix_chart(matrix=MATRIX, classes=[10, 2, 1])
    assert list(fig.data[0].x) == ["10", "2", "1"]
    assert fig.layout.xaxis.type == "category" and list(fig.layout.xaxis.categoryarray) == ["10", "2", "1"]


def test_cost_matrix_gives_expected_cost_in_subtitle():
    cost = np.array([[0, 1, 1], [5, 0, 1], [5, 1, 0]])
    fig = confusion_matrix_chart(matrix=MATRIX, classes=CLASSES, cost_matrix=cost)
    expected = (3 + 7 + 50 + 0 + 10 + 8) / 150
    assert expected_cost(MATRIX, cost) == pytest.approx(expected)
    assert fig.layout.title.subtitle.text == f"Expected cost per sample: {expected:.3f}"
    with pytest.raises(ValueError, match=r"shape of the confusion matrix \(3, 3\) \(got \(2, 2\)\)"):
        confusion_matrix_chart(matrix=MATRIX, classes=CLASSES, cost_matrix=np.eye(2))


@pytest.mark.parametrize("kwargs, message", [
    (dict(matrix=np.ones((2, 3)), classes=["a", "b"]), r"square 2-D array \(got shape \(2, 3\)\)"),
    (dict(matrix=MATRIX, classes=["a", "b"]), "`classes` has 2 names but `matrix` is 3×3"),
    (dict(matrix=-MATRIX, classes=CLASSES), "finite counts >= 0"),
    (dict(matrix=MATRIX, classes=CLASSES, normalize="rows"), "`normalize` must be one of"),
])
def test_confusion_matrix_rejects_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        confusion_matrix_chart(**kwargs)


def test_large_confusion_matrix_has_no_cell_text_but_keeps_hover():
    k = 25
    fig = confusion_matrix_chart(matrix=np.eye(k) * 10 + 1, classes=[f"c{i}" for i in range(k)])
    assert fig.data[0].texttemplate is None and "Count" in fig.data[0].hovertemplate


def test_most_confused_pairs():
    table = most_confused_pairs(MATRIX, CLASSES, top=3)
    assert list(table.columns) == ["true_class", "predicted_class", "count", "share_of_true_class"]
    assert table[["true_class", "predicted_class"]].values.tolist() == [["dog", "cat"], ["bird", "dog"],
                                                                        ["cat", "bird"]]
    assert table["count"].tolist() == [10, 8, 7]
    assert table["share_of_true_class"].tolist() == pytest.approx([10 / 50, 8 / 40, 7 / 60])
    assert len(most_confused_pairs(np.diag([5, 5, 5]), CLASSES)) == 0  # no confusion, no rows
    with pytest.raises(ValueError, match="'top' must be an integer >= 1"):
        most_confused_pairs(MATRIX, CLASSES, top=0)


def test_multilabel_grid_has_one_panel_per_label():
    mats = np.array([[[90, 10], [5, 45]], [[70, 0], [20, 60]], [[10, 10], [10, 10]]])
    fig = multilabel_confusion_chart(matrices=mats, labels=["spam", "urgent", "=x"], columns=2)
    assert _uses_our_template(fig)
    assert len(fig.data) == 3
    assert [a.text for a in fig.layout.annotations] == ["spam", "urgent", "=x"]
    np.testing.assert_allclose(fig.data[0].z, [[0.9, 0.1], [0.1, 0.9]])
    assert fig.data[1].text[1][1] == "60<br>75.0%"
    assert [t.showscale for t in fig.data] == [True, False, False]  # one shared 0–100 % scale
    assert {t.xaxis for t in fig.data} == {"x", "x2", "x3"}
    with pytest.raises(ValueError, match=r"shape \(L, 2, 2\) \(got \(3, 3\)\)"):
        multilabel_confusion_chart(matrices=np.ones((3, 3)), labels=["a", "b", "c"])
