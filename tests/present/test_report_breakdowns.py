"""report.json carries what ``python -m assess metrics`` prints beside "models": a forecast's per-horizon and
per-series values, a multi-output file's per-output values and variance-weighted averages — the same numbers,
intervals included, from the same calls; the per-output values against scikit-learn's ``multioutput``."""

import json
import zipfile

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

from assess.cli import main
from tests.metrics.test_multioutput import multi_output_frame

ARGS = ("--resamples", "100", "--seed", "3")


def forecast_frame(seed=0):
    """Two models, two series, horizons 1–3 from 8 origins: a small forecast file with every breakdown."""
    rng = np.random.default_rng(seed)
    rows = []
    for series, level in (("north", 100.0), ("south", 40.0)):
        months = pd.period_range("2020-01", periods=12, freq="M")
        truth = level + np.cumsum(rng.normal(0, 2, 12))
        for model, spread in (("naive", 3.0), ("smooth", 1.5)):
            for origin in range(1, 9):
                for h in (1, 2, 3):
                    t = origin + h - 1
                    if t < 12:
                        rows.append({"series": series, "model": model, "origin": str(months[origin - 1]),
                                     "timestamp": str(months[t]), "horizon": h, "y_true": truth[t],
                                     "y_pred": truth[t] + rng.normal(0, spread * h)})
    return pd.DataFrame(rows)


def report_json(path, tmp_path):
    out = tmp_path / "r.zip"
    assert main(["report", str(path), "--out", str(out), "--quiet", "--tests", "paired_t", *ARGS]) == 0
    return json.loads(zipfile.ZipFile(out).read("report.json"))["metrics"]


def metrics_json(path, capsys):
    capsys.readouterr()
    assert main(["metrics", str(path), "--ci", "auto", "--quiet", *ARGS]) == 0
    return json.loads(capsys.readouterr().out)


def test_forecast_report_json_has_the_cli_per_horizon_and_per_series_values(tmp_path, capsys):
    path = tmp_path / "forecasts.csv"
    forecast_frame().to_csv(path, index=False)
    report, cli = report_json(path, tmp_path), metrics_json(path, capsys)
    assert set(report["by_horizon"]["smooth"]) == {"1", "2", "3"}
    assert set(report["by_series"]["naive"]) == {"north", "south"}
    for key in ("models", "by_horizon", "by_series"):
        assert report[key] == cli[key], key          # values and intervals, exactly
    # the numbers are the rows' own (an independent groupby, not the code under test)
    frame = forecast_frame()
    rows = frame[(frame.model == "smooth") & (frame.horizon == 2)]
    assert report["by_horizon"]["smooth"]["2"]["mae"]["value"] == pytest.approx(
        skm.mean_absolute_error(rows.y_true, rows.y_pred), abs=1e-12)


def test_multi_output_report_json_has_the_cli_per_output_and_variance_weighted_values(tmp_path, capsys):
    frame = multi_output_frame(n=60, models=("ridge", "tree"))
    path = tmp_path / "multi.csv"
    frame.to_csv(path, index=False)
    report, cli = report_json(path, tmp_path), metrics_json(path, capsys)
    for key in ("models", "outputs", "by_output", "variance_weighted"):
        assert report[key] == cli[key], key
    names = ["price", "volume", "share"]
    for model, rows in frame.groupby("model"):
        y, p = rows[[f"y_true_{n}" for n in names]], rows[[f"y_pred_{n}" for n in names]]
        for key, oracle in (("mae", skm.mean_absolute_error), ("r2", skm.r2_score),
                            ("explained_variance", skm.explained_variance_score)):
            raw = oracle(y, p, multioutput="raw_values")
            for name, want in zip(names, raw):
                assert report["by_output"][model][name][key]["value"] == pytest.approx(want, abs=1e-12)
        for key, oracle in (("r2", skm.r2_score), ("explained_variance", skm.explained_variance_score)):
            assert report["variance_weighted"][model][key]["value"] == pytest.approx(
                oracle(y, p, multioutput="variance_weighted"), abs=1e-12)


def test_out_of_core_forecast_report_json_has_the_engines_per_horizon_and_per_series_values(tmp_path, capsys):
    pytest.importorskip("duckdb")
    path = tmp_path / "forecasts.csv"
    forecast_frame().to_csv(path, index=False)
    out = tmp_path / "duck.zip"
    assert main(["report", str(path), "--out", str(out), "--engine", "duckdb", "--quiet", "--tests", "paired_t",
                 *ARGS]) == 0
    report = json.loads(zipfile.ZipFile(out).read("report.json"))["metrics"]
    capsys.readouterr()
    assert main(["metrics", str(path), "--engine", "duckdb", "--ci", "auto", "--quiet", *ARGS]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert set(report["by_series"]["smooth"]) == {"north", "south"}
    for key in ("models", "by_horizon", "by_series"):
        assert report[key] == cli[key], key
