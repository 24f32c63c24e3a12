"""AppTest of the Metrics page on the regression and forecast samples: the value metrics with intervals and their
baselines (mean / median; naive, seasonal naive, drift), no classification widget, forecasts by horizon and series;
the numbers against scikit-learn and pandas on the sample files."""

import pandas as pd
from sklearn.metrics import mean_absolute_error, r2_score

from tests.conftest import ROOT, joined_table, open_app

SAMPLES = {
    "Diabetes — regression, 3 models, 5 folds": "diabetes_regression.csv",
    "CO₂ and El Niño — monthly forecasts, 3 models, 1–12 months ahead": "monthly_forecasts.csv",
}
CLASSIFICATION_WIDGETS = {"Labels from", "Threshold (score ≥ threshold is positive)", "β of F-beta",
                          "k of top-k accuracy"}


def test_value_metrics_with_intervals_and_baselines():
    sample = "Diabetes — regression, 3 models, 5 folds"
    at = open_app("views/metrics.py", sample=sample)
    assert not at.exception
    labels = {w.label for kind in ("radio", "number_input", "selectbox") for w in at.get(kind)}
    assert not labels & CLASSIFICATION_WIDGETS
    [ci] = [s for s in at.selectbox if s.label == "Confidence interval"]
    # the bootstrap methods named by assess.intervals.interval.METHOD_NAMES, as every table names them
    assert ci.options == ["auto (bootstrap)", "none", "Bootstrap percentile", "Bootstrap BCa"]
    ci.set_value("none").run()              # the values alone (the bootstrap is checked in the engine's tests)
    assert not at.exception
    comparison = joined_table(at, 0, ("metric", "better", "key")).reset_index().set_index("key")
    data = pd.read_csv(ROOT / "assets/samples" / SAMPLES[sample])
    for model, rows in data.groupby("model"):
        mae = mean_absolute_error(rows.y_true, rows.y_pred)
        assert comparison.loc["mae", model].startswith(f"{mae:.2f}" if mae >= 10 else f"{mae:.3f}"), model
        r2 = r2_score(rows.y_true, rows.y_pred)
        assert comparison.loc["r2", model].startswith(f"{r2:.3f}"), model
    assert comparison.loc["mae", "better"] == "lower ↓" and comparison.loc["r2", "better"] == "higher ↑"
    best = data.groupby("model").apply(lambda g: mean_absolute_error(g.y_true, g.y_pred), include_groups=False)
    assert comparison.loc["mae", best.idxmin()].endswith("★")
    per_model = next(d.value for d in at.dataframe if "value" in d.value.columns)   # (after the folds' spread)
    assert {"mean", "median"} <= set(per_model.columns) and "majority" not in per_model.columns
    assert "mean predictor" in " ".join(m.value for m in at.markdown)
    assert any("always predicting the mean, or the median" in c.value for c in at.caption)
    groups = {m.label for m in at.multiselect}
    assert {"Errors", "Relative errors", "Fit"} <= groups and "Threshold metrics" not in groups


def test_regression_bootstrap_intervals_show():
    at = open_app("views/metrics.py", sample="Diabetes — regression, 3 models, 5 folds")
    [n_resamples] = [n for n in at.number_input if n.label == "Bootstrap resamples"]
    n_resamples.set_value(100).run()
    assert not at.exception
    comparison = joined_table(at, 0, ("metric", "better", "key")).reset_index().set_index("key")
    assert "–" in comparison.loc["mae", "ridge"]           # "value (low–high)"
    assert "MAE, 95% CI" in " ".join(m.value for m in at.markdown)


FORECAST = "CO₂ and El Niño — monthly forecasts, 3 models, 1–12 months ahead"


def test_forecast_metrics_by_horizon_and_series_with_forecast_baselines():
    at = open_app("views/metrics.py", sample=FORECAST)
    labels = {w.label for kind in ("radio", "number_input", "selectbox") for w in at.get(kind)}
    assert not labels & CLASSIFICATION_WIDGETS
    assert not any("for now" in c.value for c in at.caption)
    [ci] = [s for s in at.selectbox if s.label == "Confidence interval"]
    assert ci.options == ["auto (block bootstrap)", "none"]
    ci.set_value("none").run()
    assert not at.exception
    data = pd.read_csv(ROOT / "assets/samples" / SAMPLES[FORECAST])
    comparison = joined_table(at, 0, ("metric", "better", "key")).reset_index().set_index("key")
    assert {"mase", "mase_seasonal", "coverage", "winkler_score", "skill_seasonal_naive"} <= set(comparison.index)
    per_model = at.dataframe[1].value
    assert {"naive", "seasonal_naive", "drift"} <= set(per_model.columns) and "mean" not in per_model.columns
    text = " ".join(m.value for m in at.markdown).replace("\\", "")     # md() escapes markdown characters
    assert "times as far off as the naive forecast one step ahead (the last value seen) is over each whole series" in text
    # By horizon: rows 1..12, a column per model; MAE per horizon equals pandas' groupby
    [metric] = [s for s in at.selectbox if s.label == "Metric"]
    metric.set_value("mae").run()
    assert not at.exception
    tables = [d.value for d in at.dataframe]
    by_horizon = next(t for t in tables if "horizon" in t.columns).set_index("horizon")
    by_series = next(t for t in tables if "series" in t.columns).set_index("series")
    assert list(by_horizon.index) == [str(h) for h in range(1, 13)]
    expected = data.assign(e=(data.y_pred - data.y_true).abs()).groupby(["model", "horizon"]).e.mean()
    for (model, h), v in expected.items():
        assert by_horizon.loc[str(h), model] == (f"{v:.3f}" if v < 10 else f"{v:.4g}"), (model, h)
    assert set(by_series.index) == set(data.series)


def test_forecast_intervals_show_by_horizon():
    at = open_app("views/metrics.py", sample=FORECAST)
    [n_resamples] = [n for n in at.number_input if n.label == "Bootstrap resamples"]
    n_resamples.set_value(100).run()
    assert not at.exception
    by_horizon = next(d.value for d in at.dataframe if "horizon" in d.value.columns)
    assert all("–" in cell for cell in by_horizon["ets"])      # "value (low–high)"
    assert "MASE, 95% CI" in " ".join(m.value for m in at.markdown).replace("\\", "")
