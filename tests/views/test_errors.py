"""AppTest of the Errors page on the regression and forecast samples; the drawn values come from pandas, here."""

import base64
import json

import numpy as np
import pandas as pd

from tests.conftest import ROOT, open_app

REGRESSION = "Diabetes — regression, 3 models, 5 folds"
FORECAST = "CO₂ and El Niño — monthly forecasts, 3 models, 1–12 months ahead"


def figures(at) -> dict[str, dict]:
    out = {}
    for element in at.get("plotly_chart"):
        spec = json.loads(element.proto.spec)
        out[spec["layout"]["title"]["text"]] = spec
    return out


def trace(spec, name):
    return next(t for t in spec["data"] if t.get("name") == name)


def values(array) -> np.ndarray:
    """An array of the figure JSON: a list, or Plotly's typed-array form {"dtype", "bdata": base64}."""
    if isinstance(array, dict):
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=np.dtype(array["dtype"]))
    return np.asarray(array, dtype=float)


def test_regression_sample_draws_every_chart_from_the_file():
    at = open_app("views/errors.py", sample=REGRESSION)
    drawn = figures(at)
    assert set(drawn) == {"Predicted against actual", "Errors against the prediction", "Distribution of the errors",
                          "Mean absolute error by decile of the actual value",
                          "Mean absolute error per fold"}    # the sample has folds (see tests/views/test_slices.py)
    data = pd.read_csv(ROOT / "assets/samples/diabetes_regression.csv")
    forest = data[data.model == "forest"]
    points = trace(drawn["Predicted against actual"], "forest (n = 442)")
    np.testing.assert_allclose(values(points["y"]), forest.y_pred.to_numpy())
    errors = trace(drawn["Errors against the prediction"], "forest (n = 442)")
    np.testing.assert_allclose(values(errors["y"]), (forest.y_pred - forest.y_true).to_numpy())
    assert [b.label for b in at.get("download_button") if b.label.startswith("All")] == ["All 5 charts on this page (PDF)"]


def test_forecast_sample_picks_a_series_and_a_horizon():
    at = open_app("views/errors.py", sample=FORECAST)
    [series] = [s for s in at.selectbox if s.label == "Series"]
    series.set_value("elnino_sst").run()
    [horizon] = [s for s in at.select_slider if s.label == "Horizon (steps ahead)"]
    horizon.set_value(6).run()
    assert not at.exception
    drawn = figures(at)
    data = pd.read_csv(ROOT / "assets/samples/monthly_forecasts.csv")
    rows = data[(data.series == "elnino_sst") & (data.horizon == 6)]
    ets = rows[rows.model == "ets"].sort_values("timestamp")
    forecast = trace(drawn["Actual and forecast, 6 ahead"], "ets")
    np.testing.assert_allclose(values(forecast["y"]), ets.y_pred.to_numpy())
    actual = trace(drawn["Actual and forecast, 6 ahead"], "actual")
    np.testing.assert_allclose(values(actual["y"]), ets.y_true.to_numpy())
    errors = trace(drawn["Errors over time, 6 ahead"], "naive")
    naive = rows[rows.model == "naive"].sort_values("timestamp")
    np.testing.assert_allclose(values(errors["y"]), (naive.y_pred - naive.y_true).to_numpy())


def test_forecast_sample_draws_error_by_horizon_series_and_loss_differences():
    at = open_app("views/errors.py", sample=FORECAST)
    [loss] = [r for r in at.radio if r.label == "Error measure"]
    loss.set_value("RMSE").run()
    assert not at.exception
    drawn = figures(at)
    data = pd.read_csv(ROOT / "assets/samples/monthly_forecasts.csv")
    data["error"] = data.y_pred - data.y_true
    co2 = data[data.series == "co2_mauna_loa"]
    by_horizon = drawn["RMSE by horizon, series co2_mauna_loa"]
    for model in ("naive", "seasonal_naive", "ets"):
        expected = co2[co2.model == model].groupby("horizon").error.apply(lambda e: np.sqrt(np.mean(e ** 2)))
        line = trace(by_horizon, model)
        np.testing.assert_allclose(values(line["x"]), expected.index.to_numpy())
        np.testing.assert_allclose(values(line["y"]), expected.to_numpy(), rtol=1e-12)
    # by series: MASE over all horizons, each series scaled by the naive one-step error of its distinct actuals
    # (Hyndman & Koehler 2006), computed here with pandas; a reference line at 1
    mase_chart = drawn["MASE by series, all horizons"]
    bars = trace(mase_chart, "ets")
    got = dict(zip(bars["y"], values(bars["x"])))
    ets = data[data.model == "ets"]
    for series, rows in ets.groupby("series"):
        actual = rows.drop_duplicates("timestamp").sort_values("timestamp").y_true.to_numpy()
        scale = np.mean(np.abs(np.diff(actual)))          # the sample's stamps are consecutive months
        assert np.isclose(got[series], np.mean(np.abs(rows.error)) / scale, rtol=1e-12)
    assert any(shape.get("x0") == 1.0 for shape in mase_chart["layout"].get("shapes", []))
    # Model A naive, model B seasonal_naive by default: the squared-error difference per time point
    rows = co2[co2.horizon == 1].pivot(index="timestamp", columns="model", values="error").sort_index()
    bars = drawn["Squared-error differences, 1 ahead"]["data"][0]
    np.testing.assert_allclose(values(bars["y"]), (rows.naive ** 2 - rows.seasonal_naive ** 2).to_numpy(),
                               rtol=1e-12)


def test_classification_files_are_pointed_to_their_pages():
    at = open_app("views/errors.py")
    assert "see the Confusion and Curves pages" in at.info[0].value


def test_compare_opens_on_numeric_samples_and_runs_the_suggested_test():
    for sample, expected in ((REGRESSION, "paired_bootstrap"), (FORECAST, "diebold_mariano")):
        at = open_app("views/compare.py", sample=sample)
        assert not at.exception
        [test] = [s for s in at.selectbox if s.label == "Test"]
        assert test.value == expected
        [run] = [b for b in at.button if b.label == "Run test"]
        run.click().run()
        assert not at.exception and (at.success or at.error)   # a sentence, or one clear message


def test_one_series_forecast_has_no_series_picker_and_no_placeholder_name(tmp_path):
    """A forecast file without a series column: no 'Series' picker offering '(one series)', and no chart title or
    caption naming that placeholder; the drawn errors are the file's (pandas oracle)."""
    data = pd.read_csv(ROOT / "assets/samples/monthly_forecasts.csv")
    one = data[(data.series == "co2_mauna_loa") & (data.model == "ets")][["timestamp", "horizon", "y_true", "y_pred"]]
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("co2.csv", one.to_csv(index=False).encode(), "text/csv").run()
    at.switch_page("views/errors.py").run()
    assert not at.exception
    assert not [s for s in at.selectbox if s.label == "Series"]
    drawn = figures(at)
    assert "RMSE by horizon" in drawn or "MAE by horizon" in drawn, list(drawn)
    shown = " ".join([c.value for c in at.caption] + [h.value for h in at.subheader] + list(drawn))
    assert "one series" not in shown
    first = one[one.horizon == 1].sort_values("timestamp")
    errors = trace(drawn["Errors over time, 1 ahead"], "co2")
    np.testing.assert_allclose(values(errors["y"]), (first.y_pred - first.y_true).to_numpy())
