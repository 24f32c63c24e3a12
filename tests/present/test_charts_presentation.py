"""Presentation mode's figures (`assess.present.charts.style.presentation`): every text larger by one factor, the figure with
it, the original untouched. The sizes expected here are the house template's constants times the scale."""

import numpy as np
import plotly.io as pio
import pytest

from assess.present import charts
from assess import curves
from assess.present.charts.style import (FONT_SIZE, HEIGHT, PRESENTATION_SCALE, PRESENTATION_TEMPLATE, TEMPLATE, TICK_SIZE,
                                 TITLE_SIZE, legend_below, presentation)


def test_the_presentation_template_is_the_house_template_scaled():
    big, normal = pio.templates[PRESENTATION_TEMPLATE].layout, pio.templates[TEMPLATE].layout
    assert big.title.font.size == pytest.approx(TITLE_SIZE * PRESENTATION_SCALE)
    assert big.font.size == pytest.approx(FONT_SIZE * PRESENTATION_SCALE)
    assert big.xaxis.tickfont.size == pytest.approx(TICK_SIZE * PRESENTATION_SCALE)
    assert big.legend.font.size == pytest.approx(TICK_SIZE * PRESENTATION_SCALE)
    assert big.height == pytest.approx(HEIGHT * PRESENTATION_SCALE)
    assert big.font.family == normal.font.family and list(big.colorway) == list(normal.colorway)


def test_explicit_sizes_and_the_figure_grow_and_the_original_stays():
    fig = charts.confusion_matrix_chart(matrix=np.array([[50, 3], [8, 40]]), classes=["a", "b"])
    before = fig.to_json()
    big = presentation(fig)
    assert fig.to_json() == before                                  # downloads keep the normal size
    assert big.data[0].textfont.size == pytest.approx(fig.data[0].textfont.size * PRESENTATION_SCALE)
    assert big.layout.height == pytest.approx(fig.layout.height * PRESENTATION_SCALE)
    assert big.layout.template.layout.title.font.size == pytest.approx(TITLE_SIZE * PRESENTATION_SCALE)
    assert [t.type for t in big.data] == [t.type for t in fig.data]


def test_a_legend_below_keeps_its_place_and_room_in_proportion():
    rng = np.random.default_rng(0)
    y = (rng.random(300) < 0.4).astype(np.int8)
    roc = {m: curves.roc_curve(curves.threshold_counts(y, np.clip(0.5 * y + rng.random(300) * 0.7, 0, 1)))
           for m in ("a", "b", "c")}
    fig = legend_below(charts.roc_chart(curves=roc))
    big = presentation(fig)
    assert big.layout.legend.y == pytest.approx(fig.layout.legend.y)       # in units of the (scaled) plot height
    assert big.layout.margin.b == pytest.approx(fig.layout.margin.b * PRESENTATION_SCALE)
    assert big.layout.height == pytest.approx(fig.layout.height * PRESENTATION_SCALE)
