"""Forecast charts on the monthly forecast sample: what they draw is checked against pandas, here."""

import numpy as np
import pandas as pd
import pytest

from assess.present.charts.forecast import (error_over_time_chart, forecast_chart, loss_difference_chart,
                                    metric_by_horizon_chart, metric_by_series_chart)
from tests.conftest import ROOT


@pytest.fixture(scope="module")
def sample() -> pd.DataFrame:
    return pd.read_csv(ROOT / "assets/samples/monthly_forecasts.csv")


def one_step(sample, series="co2_mauna_loa"):
    return sample[(sample.series == series) & (sample.horizon == 1)]


def test_forecast_chart_draws_actual_forecasts_and_interval_bands(sample):
    rows = one_step(sample)
    actual = rows[rows.model == "naive"]
    forecasts = {m: {"time": g.timestamp, "forecast": g.y_pred, "lower": g.lower_90, "upper": g.upper_90}
                 for m, g in rows.groupby("model", sort=False)}
    fig = forecast_chart(time=actual.timestamp, actual=actual.y_true, forecasts=forecasts, level=0.9)
    names = [t.name for t in fig.data]
    assert names[0] == "actual" and "ets: 90% interval" in names and "seasonal_naive" in names
    assert [t.name for t in fig.data if t.showlegend is not False] == ["actual", "naive", "seasonal_naive", "ets"]
    assert fig.layout.title.subtitle.text == "Shaded: each model's 90% interval"
    [band] = [t for t in fig.data if t.name == "ets: 90% interval"]
    ets = rows[rows.model == "ets"]
    np.testing.assert_allclose(band.y, np.concatenate([ets.upper_90, ets.lower_90[::-1]]))
    assert fig.layout.template.layout.font.family.startswith("Liberation Sans")


def test_error_over_time_is_forecast_minus_actual(sample):
    rows = one_step(sample)
    errors = {m: (g.timestamp, g.y_pred - g.y_true) for m, g in rows.groupby("model", sort=False)}
    fig = error_over_time_chart(errors=errors)
    [naive] = [t for t in fig.data if t.name == "naive"]
    g = rows[rows.model == "naive"]
    np.testing.assert_allclose(naive.y, (g.y_pred - g.y_true).to_numpy())


def test_metric_by_horizon_draws_the_values_and_their_intervals(sample):
    mae = sample.assign(ae=(sample.y_pred - sample.y_true).abs()).groupby(["model", "horizon"]).ae.mean()
    values = {m: (mae[m].index.to_numpy(), mae[m].to_numpy()) for m in ("naive", "ets")}
    intervals = {"ets": (mae["ets"].to_numpy() * 0.9, mae["ets"].to_numpy() * 1.1)}
    fig = metric_by_horizon_chart(values=values, metric="MAE", intervals=intervals)
    [ets] = [t for t in fig.data if t.name == "ets"]
    np.testing.assert_allclose(ets.y, mae["ets"].to_numpy())
    np.testing.assert_allclose(ets.error_y.array, mae["ets"].to_numpy() * 0.1)
    assert list(ets.x) == list(range(1, 13)) and fig.layout.title.text == "MAE by forecast horizon"


def test_metric_by_series_sorts_and_marks_the_reference():
    fig = metric_by_series_chart(values={"ets": {"b": 1.4, "a": 0.7, "c": float("nan")},
                                         "naive": {"b": 2.0, "a": 0.5, "c": float("nan")}},
                                 metric="MASE", reference=1.0)
    for bars in fig.data:
        assert list(bars.y) == ["c", "a", "b"]          # undefined first (bottom), worst mean at the top
    [naive] = [t for t in fig.data if t.name == "naive"]
    assert list(naive.x)[1:] == [0.5, 2.0] and np.isnan(naive.x[0])
    assert [s.x0 for s in fig.layout.shapes] == [1.0]


def test_loss_difference_shows_the_mean_the_test_weighs(sample):
    rows = one_step(sample)
    a = rows[rows.model == "ets"].set_index("timestamp")
    b = rows[rows.model == "naive"].set_index("timestamp")
    d = (a.y_pred - a.y_true) ** 2 - (b.y_pred - b.y_true) ** 2
    fig = loss_difference_chart(time=d.index, difference=d.to_numpy(), names=("ets", "naive"))
    assert [round(s.y0, 9) for s in fig.layout.shapes] == [round(d.mean(), 9), 0]
    assert fig.layout.annotations[0].text == f"mean {d.mean():.4g}"
    with pytest.raises(ValueError, match="3 times but 2 loss differences"):
        loss_difference_chart(time=[1, 2, 3], difference=[1.0, 2.0], names=("a", "b"))
