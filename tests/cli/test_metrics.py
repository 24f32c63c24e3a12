"""`python -m assess metrics`: SPEC's JSON contract, checked against scikit-learn as the independent oracle."""

import csv
import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

from assess.cli import main

ROOT = Path(__file__).resolve().parents[2]
BINARY = str(ROOT / "assets/samples/breast_cancer_binary.csv")
WINE = str(ROOT / "assets/samples/wine_multiclass.csv")


def run_json(capsys, *argv):
    assert main(["metrics", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_binary_contract_and_oracle(capsys):
    doc = run_json(capsys, BINARY)
    assert (doc["task"], doc["n"], list(doc["models"])) == ("binary", 569, ["logistic", "tree", "naive_bayes_3f"])
    data = pd.read_csv(BINARY)
    for model, rows in data.groupby("model"):
        got = doc["models"][model]
        y, yp, s = rows.y_true == "malignant", rows.y_pred == "malignant", rows.score
        assert got["accuracy"] == pytest.approx(skm.accuracy_score(y, yp), abs=1e-12)
        assert got["recall"] == pytest.approx(skm.recall_score(y, yp), abs=1e-12)
        assert got["mcc"] == pytest.approx(skm.matthews_corrcoef(y, yp), abs=1e-12)
        assert got["roc_auc"] == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
        assert got["average_precision"] == pytest.approx(skm.average_precision_score(y, s), abs=1e-12)
        assert got["brier_score"] == pytest.approx(skm.brier_score_loss(y, s), abs=1e-12)
        assert (got["tp"], got["fn"]) == (int((y & yp).sum()), int((y & ~yp).sum()))


def test_multiclass_oracle(capsys):
    doc = run_json(capsys, WINE, "--metrics", "accuracy", "f1_macro", "roc_auc_ovr", "log_loss")
    data = pd.read_csv(WINE)
    classes = sorted(data.y_true.unique())
    for model, rows in data.groupby("model"):
        got = doc["models"][model]
        proba = rows[[f"proba_{c}" for c in classes]].to_numpy()
        assert set(got) == {"accuracy", "f1_macro", "roc_auc_ovr", "log_loss"}
        assert got["f1_macro"] == pytest.approx(skm.f1_score(rows.y_true, rows.y_pred, average="macro"), abs=1e-12)
        assert got["roc_auc_ovr"] == pytest.approx(skm.roc_auc_score(rows.y_true, proba, multi_class="ovr",
                                                                     labels=classes), abs=1e-9)
        assert got["log_loss"] == pytest.approx(skm.log_loss(rows.y_true, proba, labels=classes), abs=1e-9)


def test_ci_shape_and_threshold(capsys):
    doc = run_json(capsys, BINARY, "--models", "tree", "--metrics", "recall", "roc_auc", "--ci", "auto",
                   "--threshold", "0.8")
    recall = doc["models"]["tree"]["recall"]
    assert set(recall) == {"value", "low", "high"} and recall["low"] < recall["value"] < recall["high"]
    rows = pd.read_csv(BINARY).query("model == 'tree'")
    assert recall["value"] == pytest.approx(skm.recall_score(rows.y_true == "malignant", rows.score >= 0.8))
    assert doc["settings"]["threshold"] == 0.8


def test_undefined_is_null_with_reason(capsys, tmp_path):
    path = tmp_path / "none_flagged.csv"
    path.write_text("y_true,y_pred\n" + "1,0\n0,0\n" * 20)
    doc = run_json(capsys, str(path), "--metrics", "precision", "recall")
    assert doc["models"]["none_flagged"] == {"precision": None, "recall": 0.0}
    assert "no predicted positive" in doc["undefined"]["none_flagged"]["precision"]


def test_csv_format_neutralises_formula_injection(capsys, tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("model,y_true,y_pred\n" + "=cmd(),1,1\n=cmd(),0,0\n" * 20)
    assert main(["metrics", str(path), "--metrics", "accuracy", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert rows[0]["model"] == "'=cmd()" and float(rows[0]["value"]) == 1.0


def test_table_format(capsys):
    assert main(["metrics", WINE, "--format", "table", "--metrics", "accuracy"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "logistic  (n = 178)" and "accuracy" in out


def test_bad_metric_key_and_blocking_error(capsys, tmp_path):
    assert main(["metrics", WINE, "--metrics", "nope"]) == 2
    assert capsys.readouterr().err.startswith("error: unknown multiclass metric 'nope'; valid keys: accuracy")
    path = tmp_path / "gap.csv"
    path.write_text("y_true,y_pred\n1,1\n0,\n")
    assert main(["metrics", str(path)]) == 2
    assert capsys.readouterr().err == "error: gap.csv: column `y_pred` has 1 missing value (row 2) in the predicted label\n"


REGRESSION_KEYS = ["mae", "mse", "rmse", "sse", "max_error", "median_absolute_error", "mean_error", "mape", "smape",
                   "mspe", "rmspe", "r2", "explained_variance"]
#: Forecast-only keys; the sample has a 90 % interval (lower_90/upper_90), so the interval scores appear.
FORECAST_KEYS = ["mase", "mase_seasonal", "coverage", "interval_width", "winkler_score", "pinball_loss", "skill_naive",
                 "skill_seasonal_naive", "skill_drift"]
FORECAST = str(ROOT / "assets/samples/monthly_forecasts.csv")


@pytest.mark.parametrize("sample, task", [("diabetes_regression.csv", "regression"),
                                          ("monthly_forecasts.csv", "forecast")])
def test_regression_and_pooled_forecast_contract_and_oracle(capsys, sample, task):
    path = str(ROOT / "assets/samples" / sample)
    doc = run_json(capsys, path)
    data = pd.read_csv(path)
    assert doc["task"] == task and "classes" not in doc and "threshold" not in doc["settings"]
    for model, rows in data.groupby("model"):
        got = doc["models"][model]
        assert list(got) == REGRESSION_KEYS + (FORECAST_KEYS if task == "forecast" else [])
        y, yp = rows.y_true.to_numpy(), rows.y_pred.to_numpy()
        assert got["mae"] == pytest.approx(skm.mean_absolute_error(y, yp), rel=1e-12)
        assert got["rmse"] == pytest.approx(skm.root_mean_squared_error(y, yp), rel=1e-12)
        assert got["r2"] == pytest.approx(skm.r2_score(y, yp), rel=1e-12)
        assert got["median_absolute_error"] == pytest.approx(skm.median_absolute_error(y, yp), rel=1e-12)
        assert got["mape"] == pytest.approx(skm.mean_absolute_percentage_error(y, yp), rel=1e-12)


def test_regression_intervals_and_task_override(capsys, tmp_path):
    path = tmp_path / "reg.csv"
    path.write_text("y_true,y_pred\n" + "".join(f"{i * 0.5},{i * 0.45 + (i % 3)}\n" for i in range(40)))
    doc = run_json(capsys, str(path), "--task", "regression", "--ci", "bootstrap", "--resamples", "200",
                   "--metrics", "mae", "mape")
    assert doc["settings"]["ci"] == "bootstrap" and doc["settings"]["resamples"] == 200
    only = next(iter(doc["models"].values()))              # the one model of a file without a model column
    mae = only["mae"]
    assert set(mae) == {"value", "low", "high"} and mae["low"] < mae["value"] < mae["high"]
    # y_true is 0 in the first row: MAPE is null, with the reason under "undefined"
    assert only["mape"] == {"value": None, "low": None, "high": None}
    reason = next(iter(doc["undefined"].values()))["mape"]
    assert "y_true is 0 in 1 row (first at row 0)" in reason


def test_bca_bootstrap_is_reported_and_differs_from_percentile(capsys):
    docs = {}
    for method in ("percentile", "bca"):
        assert main(["metrics", BINARY, "--models", "tree", "--metrics", "f1", "--ci", "bootstrap",
                     "--bootstrap-method", method, "--resamples", "400"]) == 0
        docs[method] = json.loads(capsys.readouterr().out)
    assert docs["bca"]["settings"]["bootstrap_method"] == "bca"
    p, b = docs["percentile"]["models"]["tree"]["f1"], docs["bca"]["models"]["tree"]["f1"]
    assert p["value"] == b["value"] and (p["low"], p["high"]) != (b["low"], b["high"])
    assert b["low"] < b["value"] < b["high"]


@pytest.mark.parametrize("flag", ["--confidence-level", "--ci-level"])
def test_confidence_level_and_its_former_name_set_the_wilson_level(capsys, flag):
    from statsmodels.stats.proportion import proportion_confint

    doc = run_json(capsys, BINARY, "--models", "tree", "--metrics", "recall", "--ci", "wilson", flag, "0.9")
    assert doc["settings"]["confidence_level"] == 0.9 and "ci_level" not in doc["settings"]
    rows = pd.read_csv(BINARY).query("model == 'tree'")
    positives = rows.y_true == "malignant"
    hits = int((positives & (rows.y_pred == "malignant")).sum())
    low, high = proportion_confint(hits, int(positives.sum()), alpha=0.1, method="wilson")
    recall = doc["models"]["tree"]["recall"]
    assert (recall["low"], recall["high"]) == (pytest.approx(low, abs=1e-12), pytest.approx(high, abs=1e-12))


# ------------------------------------------------------------------------------------------------- forecasts

def test_forecast_by_horizon_and_series_equal_pandas_groupby(capsys):
    """Per-horizon and per-series MAE, RMSE and coverage against a pandas groupby of the sample (the oracle)."""
    doc = run_json(capsys, FORECAST, "--metrics", "mae", "rmse", "coverage")
    data = pd.read_csv(FORECAST).assign(abs_err=lambda d: (d.y_pred - d.y_true).abs(),
                                        sq_err=lambda d: (d.y_pred - d.y_true) ** 2,
                                        inside=lambda d: (d.y_true >= d.lower_90) & (d.y_true <= d.upper_90))
    for by, section in (("horizon", "by_horizon"), ("series", "by_series")):
        expected = data.groupby(["model", by])[["abs_err", "sq_err", "inside"]].mean()
        got = doc[section]
        assert set(got) == set(data.model)
        for (model, group), row in expected.iterrows():
            cell = got[model][str(group)]
            assert list(cell) == ["mae", "rmse", "coverage"]
            assert cell["mae"] == pytest.approx(row.abs_err, rel=1e-12)
            assert cell["rmse"] == pytest.approx(row.sq_err ** 0.5, rel=1e-12)
            assert cell["coverage"] == pytest.approx(row.inside, rel=1e-12)
    assert list(doc["by_horizon"]["ets"]) == [str(h) for h in range(1, 13)]


def test_forecast_without_horizon_or_series_columns_says_why_its_breakdowns_are_null(capsys, tmp_path):
    """One series, no horizon column: the breakdowns are null with a reason naming the CLI option, not ``{}``; the
    pooled MAE is the mean absolute error of every row (numpy oracle)."""
    data = pd.read_csv(FORECAST).query("model == 'ets' and series == 'elnino_sst' and horizon == 1")
    path = tmp_path / "one_series.csv"
    data[["timestamp", "y_true", "y_pred"]].to_csv(path, index=False)
    doc = run_json(capsys, str(path), "--metrics", "mae")
    assert doc["task"] == "forecast"
    assert doc["by_horizon"] is None and doc["by_series"] is None
    assert "--horizon-col" in doc["undefined_breakdowns"]["by_horizon"]
    assert "--series-col" in doc["undefined_breakdowns"]["by_series"]
    (model,) = doc["models"]
    assert doc["models"][model]["mae"] == pytest.approx(np.mean(np.abs(data.y_pred - data.y_true)), rel=1e-12)
    full = run_json(capsys, FORECAST, "--metrics", "mae")
    assert "undefined_breakdowns" not in full


def test_forecast_intervals_nest_value_low_high_and_are_seeded(capsys):
    argv = (FORECAST, "--models", "ets", "--metrics", "mae", "mase", "--ci", "auto", "--resamples", "200")
    doc = run_json(capsys, *argv)
    again = run_json(capsys, *argv)
    assert doc == again                                   # same seed, same intervals
    for cell in (doc["models"]["ets"]["mae"], doc["by_horizon"]["ets"]["3"]["mase"],
                 doc["by_series"]["ets"]["elnino_sst"]["mae"]):
        assert set(cell) == {"value", "low", "high"} and cell["low"] < cell["value"] < cell["high"]
    other = run_json(capsys, *argv, "--seed", "7")
    assert other["models"]["ets"]["mae"]["value"] == doc["models"]["ets"]["mae"]["value"]
    assert other["models"]["ets"]["mae"]["low"] != doc["models"]["ets"]["mae"]["low"]


def test_forecast_season_and_interval_level_options(capsys, tmp_path):
    """--season changes the seasonal MASE's scale; --interval-level supplies a level the column names lack."""
    data = pd.read_csv(FORECAST).query("model == 'ets'")
    plain = tmp_path / "plain.csv"
    data.rename(columns={"lower_90": "lower", "upper_90": "upper"}).to_csv(plain, index=False)
    doc = run_json(capsys, str(plain), "--metrics", "winkler_score", "mase_seasonal")
    assert doc["models"]["ets"]["winkler_score"] is None
    assert "level of the prediction interval" in doc["undefined"]["ets"]["winkler_score"]
    doc = run_json(capsys, str(plain), "--metrics", "winkler_score", "mase_seasonal", "--interval-level", "0.9",
                   "--season", "6")
    alpha = 0.1
    y, lo, hi = data.y_true, data.lower_90, data.upper_90
    winkler = ((hi - lo) + 2 / alpha * ((lo - y).clip(lower=0) + (y - hi).clip(lower=0))).mean()
    assert doc["models"]["ets"]["winkler_score"] == pytest.approx(winkler, rel=1e-12)
    assert doc["settings"]["season"] == 6 and doc["settings"]["interval_level"] == 0.9
    # the seasonal naive scale with m = 6, per series from the distinct actuals (FPP3 §5.8), by hand in pandas
    actual = data.drop_duplicates(["series", "timestamp"]).sort_values(["series", "timestamp"])
    actual = actual.assign(step=pd.PeriodIndex(actual.timestamp, freq="M").astype("int64"))
    scale = {}
    for series, rows in actual.groupby("series"):
        values = rows.set_index("step").y_true
        lagged = values.reindex(values.index - 6).to_numpy()
        scale[series] = (values.to_numpy() - lagged)[~np.isnan(lagged)].__abs__().mean()
    expected = (data.y_pred - data.y_true).abs().div(data.series.map(scale)).mean()
    assert doc["models"]["ets"]["mase_seasonal"] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("names", [("q_05", "q_95"), ("q_0.05", "q_0.95"), ("quantile_5", "quantile_95")])
def test_quantile_forecast_columns_are_a_prediction_interval(capsys, tmp_path, names):
    """Quantile columns `q_<level>` bound the central interval between them: coverage and width against numpy, the
    Winkler score against its formula (α = 0.1), and every interval metric equal to the same file with
    `lower_90`/`upper_90` columns."""
    data = pd.read_csv(FORECAST).query("model == 'ets' and series == 'elnino_sst' and horizon == 1")
    lo, hi, y = data.lower_90.to_numpy(), data.upper_90.to_numpy(), data.y_true.to_numpy()
    keys = ("coverage", "interval_width", "winkler_score", "pinball_loss")
    quantiles = tmp_path / "quantiles.csv"
    data[["timestamp", "y_true", "y_pred"]].assign(**{names[0]: lo, names[1]: hi}).to_csv(quantiles, index=False)
    bounds = tmp_path / "bounds.csv"
    data[["timestamp", "y_true", "y_pred", "lower_90", "upper_90"]].to_csv(bounds, index=False)
    doc = run_json(capsys, str(quantiles), "--metrics", *keys)
    (got,) = doc["models"].values()
    assert got["coverage"] == pytest.approx(np.mean((y >= lo) & (y <= hi)), rel=1e-12)
    assert got["interval_width"] == pytest.approx(np.mean(hi - lo), rel=1e-12)
    winkler = (hi - lo) + 2 / 0.1 * ((lo - y) * (y < lo) + (y - hi) * (y > hi))
    assert got["winkler_score"] == pytest.approx(np.mean(winkler), rel=1e-12)
    (same,) = run_json(capsys, str(bounds), "--metrics", *keys)["models"].values()
    assert got == pytest.approx(same, rel=1e-12)


def test_notes_of_defined_values_reach_the_json(tmp_path, capsys):
    """What a defined value left out (rows without a predicted label in a sample average) is in `"notes"`, as the
    Metrics page says it under its table; the command line dropped it."""
    path = tmp_path / "labels.csv"
    path.write_text("y_true,y_pred\na|b,a\na,a|b\nb,\na,a\n,b\n")
    assert main(["metrics", str(path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    model = next(iter(doc["models"]))
    # one row of five predicts no label: sample precision averages the other four (1, 1/2, 1, 0 → 0.625)
    assert doc["models"][model]["precision_samples"] == pytest.approx((1 + 0.5 + 1 + 0) / 4)
    assert doc["notes"][model]["precision_samples"] == ("Sample precision is undefined for 1 row (no predicted "
                                                        "label); the sample average leaves it out")
