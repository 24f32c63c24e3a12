"""Forecast metrics wired through the registry, evaluate() and breakdown(): checked against the forecast module's own
functions on worked examples (Hyndman & Koehler's MASE), direct numpy and pandas groupby."""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from assess.core.data import Predictions, Task
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.metrics import evaluate
from assess.metrics import forecast as F
from assess.metrics.breakdown import breakdown
from assess.metrics.forecast_baselines import baseline_forecasts, skill_score

SAMPLE = Path(__file__).resolve().parents[2] / "assets" / "samples" / "monthly_forecasts.csv"


@pytest.fixture(scope="module")
def assessment():
    return describe(read_table(str(SAMPLE)))


@pytest.fixture(scope="module")
def frame():
    return pd.read_csv(SAMPLE)


def forecast(y, p, times, **kw):
    return Predictions(Task.FORECAST, (), np.asarray(y, float), np.asarray(p, float), time=np.asarray(times), **kw)


def test_mase_of_the_hand_worked_example():
    """y = 1, 3, 2, 4; forecasts all 2: naive scale s = (2 + 1 + 2) / 3 = 5/3, mean |e| = 1, so MASE = 0.6
    (Hyndman & Koehler 2006's definition, worked by hand)."""
    report = evaluate(forecast([1, 3, 2, 4], [2, 2, 2, 2], [1, 2, 3, 4]), ["mase", "mase_seasonal"], season=2)
    assert report["mase"].value == pytest.approx(0.6, rel=1e-12)
    # m = 2: pairs (y3 - y1, y4 - y2) = (1, 1): s = 1, MASE = 1
    assert report["mase_seasonal"].value == pytest.approx(1.0, rel=1e-12)


@pytest.mark.parametrize("model", ["naive", "seasonal_naive", "ets"])
def test_mase_through_evaluate_equals_the_forecast_module(assessment, frame, model):
    rows = frame[frame.model == model]
    report = evaluate(assessment.predictions(model), ["mase", "mase_seasonal"])
    for key, m in (("mase", 1), ("mase_seasonal", 12)):
        oracle = F.mase(rows.y_true, rows.y_pred, times=rows.timestamp, series=rows.series, season=m)
        assert report[key].value == pytest.approx(oracle.value, rel=1e-12)


def test_interval_scores_equal_numpy(assessment, frame):
    rows = frame[frame.model == "ets"]
    y, lo, hi = rows.y_true.to_numpy(), rows.lower_90.to_numpy(), rows.upper_90.to_numpy()
    report = evaluate(assessment.predictions("ets"), ["coverage", "interval_width", "winkler_score"])
    assert report["coverage"].value == pytest.approx(np.mean((y >= lo) & (y <= hi)), rel=1e-12)
    assert report["interval_width"].value == pytest.approx(np.mean(hi - lo), rel=1e-12)
    alpha = 0.1                                                # 90 %: the column names say it
    winkler = (hi - lo) + 2 / alpha * (np.maximum(lo - y, 0) + np.maximum(y - hi, 0))
    assert report["winkler_score"].value == pytest.approx(winkler.mean(), rel=1e-12)


def test_pinball_loss_of_the_bounds_is_scikit_learns(assessment, frame):
    from sklearn.metrics import mean_pinball_loss
    rows = frame[frame.model == "ets"]
    y, lo, hi = rows.y_true.to_numpy(), rows.lower_90.to_numpy(), rows.upper_90.to_numpy()
    report = evaluate(assessment.predictions("ets"), ["pinball_loss"], ci="auto", n_resamples=200)
    expected = (mean_pinball_loss(y, lo, alpha=0.05) + mean_pinball_loss(y, hi, alpha=0.95)) / 2
    assert report["pinball_loss"].value == pytest.approx(expected, rel=1e-12)
    assert report["pinball_loss"].low < expected < report["pinball_loss"].high


def test_a_user_level_replaces_a_missing_one(assessment, frame):
    pred = replace(assessment.predictions("ets"), interval_level=None)
    report = evaluate(pred, ["winkler_score"])
    assert np.isnan(report["winkler_score"].value) and "give it" in report["winkler_score"].reason
    rows = frame[frame.model == "ets"]
    level = 0.8
    expected = F.winkler_score(rows.y_true, rows.lower_90, rows.upper_90, level=level)
    assert evaluate(pred, ["winkler_score"], interval_level=level)["winkler_score"].value == pytest.approx(expected)


def test_block_bootstrap_intervals_are_reproducible_by_seed(assessment):
    pred = assessment.predictions("ets")
    keys = ["mae", "rmse", "mase", "coverage", "median_absolute_error", "r2"]
    a = evaluate(pred, keys, ci="bootstrap", n_resamples=300, seed=3)
    b = evaluate(pred, keys, ci="bootstrap", n_resamples=300, seed=3)
    c = evaluate(pred, keys, ci="bootstrap", n_resamples=300, seed=4)
    for key in keys:
        assert (a[key].low, a[key].high) == (b[key].low, b[key].high)
        assert (a[key].low, a[key].high) != (c[key].low, c[key].high)
        assert a[key].low <= a[key].value <= a[key].high
        assert a[key].method.startswith("block bootstrap")
    assert "studentized" in a["mae"].method and "percentile" in a["median_absolute_error"].method
    # RMSE is the root of the MSE's interval (a monotone transform of one bootstrap)
    m = evaluate(pred, ["mse"], ci="bootstrap", n_resamples=300, seed=3)["mse"]
    assert (a["rmse"].low, a["rmse"].high) == pytest.approx((np.sqrt(m.low), np.sqrt(m.high)), rel=1e-12)


def test_weighted_forecasts_use_the_percentile_block_bootstrap(assessment, frame):
    pred = assessment.predictions("ets")
    w = np.linspace(1, 2, pred.n)
    report = evaluate(replace(pred, weight=w), ["mae", "mase"], ci="bootstrap", n_resamples=200)
    rows = frame[frame.model == "ets"]
    assert report["mae"].value == pytest.approx(np.average((rows.y_pred - rows.y_true).abs(), weights=w))
    for key in ("mae", "mase"):
        assert "percentile" in report[key].method and report[key].low < report[key].value < report[key].high


def test_undefined_mase_has_a_reason():
    no_time = Predictions(Task.FORECAST, (), np.array([1.0, 2.0, 4.0]), np.array([1.0, 3.0, 3.0]))
    report = evaluate(no_time, ["mase", "mase_seasonal"])
    assert np.isnan(report["mase"].value) and "no time stamps" in report["mase"].reason
    integers = forecast([1, 2, 4, 3], [1, 3, 3, 3], [1, 2, 3, 4])
    report = evaluate(integers, ["mase_seasonal"])
    assert np.isnan(report["mase_seasonal"].value) and "--season" in report["mase_seasonal"].reason
    flat = forecast([5, 5, 5], [4, 5, 6], [1, 2, 3])
    report = evaluate(flat, ["mase"])
    assert np.isnan(report["mase"].value) and "scale" in report["mase"].reason


def test_breakdown_per_horizon_and_series_equals_pandas(assessment, frame):
    rows = frame[frame.model == "ets"].assign(abs_err=lambda d: (d.y_pred - d.y_true).abs())
    got = breakdown(assessment.predictions("ets"), ["mae", "mase"])
    by_h = got[(got.by == "horizon") & (got.key == "mae")].set_index("horizon")["value"]
    expected = rows.groupby("horizon").abs_err.mean()
    assert by_h.to_numpy() == pytest.approx(expected.to_numpy(), rel=1e-12)
    assert list(by_h.index) == [float(h) for h in expected.index]
    # per series, MASE is the forecast module's per-series MASE (the file's scale per series)
    oracle = F.mase(rows.y_true, rows.y_pred, times=rows.timestamp, series=rows.series, season=1).per_series
    by_s = got[(got.by == "series") & (got.key == "mase")].set_index("series")["value"]
    assert by_s.loc[oracle.series].to_numpy() == pytest.approx(oracle.mase.to_numpy(), rel=1e-12)
    # per horizon, MASE keeps the file's scale: |e| / s_series averaged over the horizon's rows
    scale = dict(zip(oracle.series, oracle.scale))
    expected_mase = rows.abs_err.div(rows.series.map(scale)).groupby(rows.horizon).mean()
    got_mase = got[(got.by == "horizon") & (got.key == "mase")]["value"].to_numpy()
    assert got_mase == pytest.approx(expected_mase.to_numpy(), rel=1e-12)


def test_breakdown_intervals_are_block_bootstrap_and_seeded(assessment):
    pred = assessment.predictions("naive")
    a = breakdown(pred, ["mae"], by=("horizon",), ci="auto", n_resamples=200, seed=1)
    b = breakdown(pred, ["mae"], by=("horizon",), ci="auto", n_resamples=200, seed=1)
    pd.testing.assert_frame_equal(a, b)
    assert (a.low < a.value).all() and (a.value < a.high).all() and len(a) == 12


@pytest.mark.parametrize("model", ["naive", "ets"])
def test_skill_scores_and_baselines_equal_the_baseline_forecasts(assessment, frame, model):
    """skill_<b> = forecast_baselines.skill_score (1 − MSE/MSE_b over the rows where b exists); each metric's
    baselines are the metric of b's forecasts on those rows (MAE by numpy)."""
    rows = frame[frame.model == model]
    ref = baseline_forecasts(rows.y_true, times=rows.timestamp, origin=rows.origin, series=rows.series, season=12)
    report = evaluate(assessment.predictions(model), ["mae", "skill_naive", "skill_seasonal_naive", "skill_drift"])
    y = rows.y_true.to_numpy()
    for name in ("naive", "seasonal_naive", "drift"):
        b = ref.frame[name].to_numpy()
        assert report[f"skill_{name}"].value == pytest.approx(skill_score(y, rows.y_pred, b), rel=1e-12)
        ok = np.isfinite(b)
        assert report["mae"].baselines[name] == pytest.approx(np.mean(np.abs(b[ok] - y[ok])), rel=1e-12)
        assert f"{ok.sum():,}" in report["mae"].baseline_method
    assert set(report["skill_naive"].baselines) == set()


def test_a_non_mean_metric_alone_gets_its_percentile_interval(assessment):
    """Only median_absolute_error asked: no per-row mean column exists, the percentile block bootstrap runs alone."""
    result = evaluate(assessment.predictions("ets"), ["median_absolute_error"], ci="auto", n_resamples=100)
    result = result["median_absolute_error"]
    assert "percentile" in result.method and result.low <= result.value <= result.high


def test_large_files_skip_the_percentile_block_bootstrap_with_a_note(assessment, monkeypatch):
    import importlib
    evaluate_module = importlib.import_module("assess.metrics.evaluate")
    pred = assessment.predictions("ets")
    n = len(pred.y_true)
    # the budget counts resampled rows: 100 resamples of n rows fit in 100 n cells, 101 do not
    monkeypatch.setattr(evaluate_module, "PERCENTILE_BLOCK_MAX_CELLS", 100 * n)
    fits = evaluate(pred, ["median_absolute_error"], ci="auto", n_resamples=100)["median_absolute_error"]
    assert "percentile" in fits.method and fits.low <= fits.value <= fits.high
    report = evaluate(pred, ["mae", "median_absolute_error"], ci="auto", n_resamples=200)
    assert report["mae"].low < report["mae"].value < report["mae"].high
    medae = report["median_absolute_error"]
    assert np.isnan(medae.low) and medae.method is None
    assert f"skipped for 200 resamples of {n:,} rows" in medae.note and "at most 100 resamples" in medae.note
