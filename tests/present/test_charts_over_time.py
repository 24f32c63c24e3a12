"""The over-time chart as data: the line is each period's value, the band its interval, the diamonds exactly the
periods whose BH-adjusted change is below α, the bars the rows per period (reference periods grey)."""

import numpy as np
import pandas as pd
import pytest

from assess.present.charts.over_time import over_time_chart
from assess.present.charts.style import REFERENCE_COLOR

PERIODS = pd.to_datetime(["2024-01-01", "2024-02-01", "2024-03-01", "2024-04-01"])


def _figure(p_adjusted=(0.4, 0.01, 0.06)):
    metrics = pd.DataFrame({"period": PERIODS, "value": [0.9, 0.88, 0.8, 0.79], "low": [0.85, 0.83, 0.74, 0.73],
                            "high": [0.94, 0.92, 0.85, 0.84]})
    periods = pd.DataFrame({"period": PERIODS, "n": [120, 100, 90, 95], "n_labelled": [120, 100, 90, 95],
                            "reference": [True, False, False, False]})
    changes = pd.DataFrame({"period": PERIODS[1:], "reference_value": [0.9] * 3, "p_adjusted": list(p_adjusted)})
    return over_time_chart(metrics=metrics, periods=periods, changes=changes, metric="Accuracy", model="<b>m</b>",
                           period_name="month", confidence_level=0.95)


def test_line_band_changed_periods_and_bars():
    fig = _figure()
    by_name = {t.name: t for t in fig.data if t.name}
    line = by_name["Accuracy"]
    assert list(line.y) == [0.9, 0.88, 0.8, 0.79]
    band = by_name["95% interval"]
    assert list(band.y) == [0.85, 0.83, 0.74, 0.73] and band.fill == "tonexty"
    changed = by_name["changed (BH-adjusted p < 0.05)"]
    assert list(pd.to_datetime(changed.x)) == [PERIODS[2]] and list(changed.y) == [0.8]   # March: p = 0.01
    bars = by_name["rows per period"]
    assert list(bars.y) == [120, 100, 90, 95] and bars.marker.color[0] == REFERENCE_COLOR
    assert bars.marker.color[1] != REFERENCE_COLOR
    assert fig.layout.template.layout.font.family       # the "assess" template, not plotly's
    assert "&lt;b&gt;m&lt;/b&gt;" in fig.layout.title.text or "<b>" not in fig.layout.title.text
    assert fig.layout.shapes[0].y0 == pytest.approx(0.9)  # the reference line


def test_no_diamonds_when_nothing_changed():
    fig = _figure(p_adjusted=(0.4, 0.2, np.nan))
    assert not [t for t in fig.data if (t.name or "").startswith("changed")]


def test_quarters_are_ticked_at_their_starts_and_named_as_the_sentences_name_them():
    """Walk of issue 35 (churn sample by quarter): the automatic ticks read "Mar 2024", "May 2024" under points at
    1 January, 1 April, 1 July and 1 October. Oracle: the quarter starts by hand and pandas' quarter number."""
    starts = pd.to_datetime(["2024-01-01", "2024-04-01", "2024-07-01", "2024-10-01"])
    metrics = pd.DataFrame({"period": starts, "value": [0.85, 0.82, 0.69, 0.64], "low": [0.82, 0.79, 0.65, 0.6],
                            "high": [0.87, 0.85, 0.73, 0.68]})
    periods = pd.DataFrame({"period": starts, "n": [777, 724, 777, 722], "n_labelled": [777, 724, 777, 722],
                            "reference": [True, False, False, False]})
    changes = pd.DataFrame({"period": starts[1:], "reference_value": [0.85] * 3, "p_adjusted": [0.2, 0.001, 0.001]})
    fig = over_time_chart(metrics=metrics, periods=periods, changes=changes, metric="ROC AUC", model="m",
                          period_name="quarter", confidence_level=0.95)
    for axis in (fig.layout.xaxis, fig.layout.xaxis2):
        assert list(pd.to_datetime(axis.tickvals)) == list(starts)
        assert list(axis.ticktext) == ["2024 Q1", "2024 Q2", "2024 Q3", "2024 Q4"]
    assert _figure().layout.xaxis.tickvals is None    # months keep plotly's own ticks
