"""Forecasts out of core (assess.engine.forecast, DuckDB): the same JSON as ``metrics --engine memory``.

Oracle: the in-memory path (`compute_reports` and `compute_breakdowns`, whose MASE, baselines, skill and interval
scores are checked against worked examples and statsmodels in test_metrics_forecast*.py) on the same file, to 1e-12:
the pooled metrics, every horizon and every series, the settings and the undefined reasons. The files have string
series ids (one with a quote), several models, gaps in the time stamps, rolling origins, ties in the errors, a
series whose actuals never change (its MASE scale is 0) and a series with one time stamp. Spark runs the same
files in tests/engine/test_forecast_spark.py.
"""

from __future__ import annotations

import re
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.test_engine import SAMPLE, run_cli

pytest.importorskip("duckdb")

FORECASTS = SAMPLE.with_name("monthly_forecasts.csv")
EXAMPLE = re.compile(r"\(e\.g\. series [^)]*\): .*$")


def forecast_frame(seed: int, *, series=("north", "south", "o'hare"), months: int = 14, horizons: int = 3,
                   models=("ets", "naive"), gap: bool = True, constant: bool = True, single: bool = True,
                   weights: bool = False, origin: bool = True, interval: str | None = "lower_90",
                   integer_time: bool = False) -> pd.DataFrame:
    """A long forecast file: every series × origin × horizon × model; values rounded so errors tie."""
    rng = np.random.default_rng(seed)
    rows = []
    for s_i, s in enumerate(series):
        stamps = np.arange(months)
        if gap and s_i == 0 and months > 6:
            stamps = np.delete(stamps, [5])                       # a missing month: pairs across it are skipped
        level = 50.0 + 10 * s_i
        actual = {int(t): (level if (constant and s_i == 1) else
                           round(level + 3 * np.sin(t / 2) + rng.normal(0, 1), 1)) for t in stamps}
        for o in stamps[:-1]:
            for h in range(1, horizons + 1):
                t = int(o) + h
                if t not in actual:
                    continue
                for m_i, m in enumerate(models):
                    yp = round(actual[int(o)] + rng.normal(m_i * 0.5, 1.5), 1)
                    half = round(abs(rng.normal(2, 0.5)), 1)
                    rows.append({"series": s, "model": m, "origin": int(o), "timestamp": t, "horizon": h,
                                 "y_true": actual[t], "y_pred": yp, "lo": yp - half, "hi": yp + half})
    if single:   # a series with one time stamp: its MASE scale is undefined (no two actuals one step apart)
        for m in models:
            rows.append({"series": "lone", "model": m, "origin": 0, "timestamp": 1, "horizon": 1, "y_true": 7.0,
                         "y_pred": 6.5, "lo": 5.0, "hi": 8.0})
    frame = pd.DataFrame(rows)
    if not integer_time:
        to_month = lambda v: (pd.Timestamp("2019-01-01") + pd.DateOffset(months=int(v))).strftime("%Y-%m")  # noqa
        frame["timestamp"] = frame["timestamp"].map(to_month)
        frame["origin"] = frame["origin"].map(to_month)
    if not origin:
        frame = frame.drop(columns="origin")
    if interval is None:
        frame = frame.drop(columns=["lo", "hi"])
    else:
        upper = interval.replace("lower", "upper")
        frame = frame.rename(columns={"lo": interval, "hi": upper})
    if weights:   # quarters: the running sums are exact and often hit half the total (the averaged median)
        frame["weight"] = rng.integers(1, 9, len(frame)) / 4.0
    return frame


def assert_same_json(memory: dict, engine: dict, *, skip=(), rel: float = 1e-10) -> None:
    """Every key of the in-memory JSON (but ``skip``) equal in the engine's: numbers to 1e-12 relative, R² and
    explained variance to ``rel`` (the in-memory centred sums of squares are one-pass raw moments, good to ~1e-12
    relative (assess.metrics.regression._CANCELLATION), and 1 − SS_err/SS_tot multiplies that by |SS_err/SS_tot|; the
    engines' are the engine's stable var_pop).

    When the MASE scales of several series are undefined, the in-memory reason names the series of the first such
    row and the engine's the first in text order (it keeps no row order): that example is compared only when the
    two name the same kind of cause."""
    def walk(a, b, path):
        if isinstance(a, str) and isinstance(b, str) and "(e.g. series" in a:
            a, b = (EXAMPLE.sub("(e.g. series …)", x) for x in (a, b))
        if path and path[-1] in skip:
            return
        if isinstance(a, dict):
            assert isinstance(b, dict) and a.keys() == b.keys(), (path, sorted(set(a) ^ set(b or {})))
            for k in a:
                walk(a[k], b[k], path + [k])
        elif isinstance(a, float) and isinstance(b, (int, float)):
            tol = rel if "r2" in path or "explained_variance" in path else 1e-12
            assert abs(a - b) <= tol * max(1.0, abs(a), abs(b)), (path, a, b)
        else:
            assert a == b, (path, a, b)
    walk({k: v for k, v in memory.items()}, {k: v for k, v in engine.items() if k != "engine"}, [])


def both(path, *extra, engine="duckdb"):
    code_m, memory, err_m = run_cli("metrics", path, "--engine", "memory", *extra)
    code_e, out, err_e = run_cli("metrics", path, "--engine", engine, *extra)
    assert code_m == 0 and code_e == 0, err_m + err_e
    return memory, out


def test_the_forecast_sample_gives_the_in_memory_json():
    memory, duck = both(FORECASTS)
    assert_same_json(memory, duck)
    assert duck["engine"]["rows"] == 2592 and memory["by_series"].keys() == {"naive", "seasonal_naive", "ets"}


def test_season_and_interval_level_options_and_a_metric_subset_reach_the_engine():
    memory, duck = both(FORECASTS, "--season", "6", "--metrics", "mase_seasonal", "winkler_score", "skill_drift")
    assert_same_json(memory, duck)
    assert duck["settings"]["season"] == 6 and set(duck["models"]["ets"]) == {"mase_seasonal", "winkler_score",
                                                                               "skill_drift"}


@pytest.mark.parametrize("options", [
    {},                                                   # origins, gaps, a constant and a one-stamp series
    {"origin": False},                                    # origin = time − horizon
    {"integer_time": True},                               # no season: mase_seasonal undefined with the reason
    {"interval": None},                                   # no interval: its metrics are not listed
    {"interval": "lower"},                                # an interval without a level: Winkler undefined
    {"constant": False, "single": False, "gap": False},  # every scale defined
])
def test_generated_files_give_the_in_memory_json(tmp_path, options):
    path = tmp_path / "f.parquet"
    forecast_frame(3, **options).to_parquet(path)
    memory, duck = both(path)
    assert_same_json(memory, duck)
    if options.get("integer_time"):
        assert duck["models"]["ets"]["mase_seasonal"] is None and "no season length" in \
            duck["undefined"]["ets"]["mase_seasonal"]


def test_undefined_scales_name_the_series_and_why(tmp_path):
    path = tmp_path / "f.csv"
    forecast_frame(4, series=("a", "b"), single=False).to_csv(path, index=False)   # b's actuals never change
    memory, duck = both(path)
    assert_same_json(memory, duck)
    assert duck["by_series"]["ets"]["b"]["mase"] is None
    assert "(e.g. series b): the actuals do not change" in duck["undefined"]["ets"]["mase"]


def test_integer_times_with_a_given_season_and_a_csv_file(tmp_path):
    path = tmp_path / "f.csv"
    forecast_frame(5, integer_time=True).to_csv(path, index=False)
    memory, duck = both(path, "--season", "4")
    assert_same_json(memory, duck)
    assert duck["models"]["naive"]["skill_seasonal_naive"] is not None


def test_weights_give_the_in_memory_numbers_with_the_weighted_median(tmp_path):
    path = tmp_path / "f.parquet"
    forecast_frame(6, weights=True).to_parquet(path)
    memory, duck = both(path)
    # the weighted median pooled, per horizon and per series: the in-memory averaged inverted CDF
    assert all(duck["models"][m]["median_absolute_error"] is not None for m in duck["models"])
    assert duck["by_horizon"] and duck["by_series"]
    # with weights the engines' centred sums of squares are one-pass raw moments (assess.engine.regression): R²
    # and explained variance to 1e-9, as for regression
    assert_same_json(memory, duck, rel=1e-9)


def test_a_directory_of_parts_equals_the_single_file(tmp_path):
    frame = forecast_frame(7)
    frame.to_parquet(tmp_path / "one.parquet")
    (tmp_path / "parts").mkdir()
    shuffled = frame.sample(frac=1, random_state=1)
    for i in range(3):
        shuffled.iloc[i::3].to_parquet(tmp_path / "parts" / f"p{i}.parquet")
    memory, _ = both(tmp_path / "one.parquet")
    code, parts, err = run_cli("metrics", tmp_path / "parts", "--engine", "duckdb")
    assert code == 0, err
    assert_same_json(memory, parts)


@settings(max_examples=12)
@given(seed=st.integers(0, 10_000), n_series=st.integers(1, 4), months=st.integers(3, 16),
       horizons=st.integers(1, 4), gap=st.booleans(), origin=st.booleans())
def test_hypothesis_generated_forecasts_give_the_in_memory_json(tmp_path_factory, seed, n_series, months,
                                                                  horizons, gap, origin):
    path = tmp_path_factory.mktemp("h") / "f.parquet"
    forecast_frame(seed, series=tuple(f"s{i}" for i in range(n_series)), months=months, horizons=horizons, gap=gap,
                   origin=origin, constant=n_series > 1, single=False).to_parquet(path)
    memory, duck = both(path)
    assert_same_json(memory, duck)


def test_actuals_that_disagree_are_refused_with_the_series_and_time(tmp_path):
    frame = forecast_frame(8, single=False)
    rows = (frame["series"] == "south") & (frame["timestamp"] == "2019-04")
    frame.loc[rows, "y_true"] = np.arange(rows.sum(), dtype=float)     # one model's rows of one time disagree
    path = tmp_path / "f.parquet"
    frame.to_parquet(path)
    code, _, err = run_cli("metrics", path, "--engine", "duckdb")
    assert code != 0 and "series south" in err and "2019-04" in err and "--engine memory" in err


def test_a_duplicated_forecast_beyond_the_first_rows_is_refused(tmp_path, monkeypatch):
    frame = forecast_frame(9, single=False)
    frame = pd.concat([frame, frame.iloc[[-1]]], ignore_index=True)
    path = tmp_path / "f.parquet"
    frame.to_parquet(path)
    monkeypatch.setattr("assess.engine.reports.HEAD_ROWS", 50)     # the head sample does not see the twin
    code, _, err = run_cli("metrics", path, "--engine", "duckdb")
    assert code != 0 and "repeated" in err and "each forecast must appear once" in err


def _wide(frame):
    """One column of predictions per model (y_pred_<model>), the rest shared."""
    ets, naive = frame[frame["model"] == "ets"], frame[frame["model"] == "naive"]
    out = ets.drop(columns=["model", "y_pred"]).reset_index(drop=True)
    out["y_pred_ets"], out["y_pred_naive"] = ets["y_pred"].to_numpy(), naive["y_pred"].to_numpy()
    return out


@pytest.mark.parametrize("shape", ["wide", "bare", "datetime", "numeric series"])
def test_other_shapes_give_the_in_memory_json(tmp_path, shape):
    frame = forecast_frame(3)
    if shape == "wide":
        frame = _wide(frame)
    elif shape == "bare":          # no series, horizon or origin column: one series, one step ahead
        frame = forecast_frame(4, series=("x",), single=False)
        frame = frame[frame["horizon"] == 1].drop(columns=["series", "horizon", "origin"])
    elif shape == "datetime":      # Parquet timestamps rather than text
        frame["timestamp"], frame["origin"] = pd.to_datetime(frame["timestamp"]), pd.to_datetime(frame["origin"])
    else:                          # series ids that read as numbers
        frame["series"] = frame["series"].map({"north": "1", "south": "2", "o'hare": "3", "lone": "4"})
    for path in (tmp_path / "f.parquet", tmp_path / "f.csv"):
        frame.to_parquet(path) if path.suffix == ".parquet" else frame.to_csv(path, index=False)
        memory, duck = both(path)
        assert_same_json(memory, duck)


@pytest.mark.parametrize("weights", [False, True])
def test_the_baseline_forecasts_metrics_equal_memory(tmp_path, weights):
    # what the report's Naive / Seasonal naive / Drift columns show (assess.metrics.evaluate._forecast_baselines)
    from assess.engine.reports import engine_reports
    from assess.engine.source import resolve_source
    from assess.inputs.read import read_table
    from assess.metrics.reports import compute_reports
    from assess.inputs.roles import Overrides
    from assess.inputs.assessment import describe

    path = tmp_path / "f.parquet"
    forecast_frame(12, weights=weights).to_parquet(path)
    memory = compute_reports(describe(read_table(path), Overrides()))
    run = engine_reports(resolve_source(str(path)), "duckdb", Overrides(), baselines=True)
    checked = 0
    for model, report in run.reports.items():
        for r in report.results:
            mem = memory[model][r.key]
            assert r.baseline_method == mem.baseline_method, r.key
            for name, value in mem.baselines.items():
                tol = 1e-9 if r.key in ("r2", "explained_variance") else 1e-12
                assert (value != value and r.baselines[name] != r.baselines[name]) or \
                    abs(value - r.baselines[name]) <= tol * max(1.0, abs(value)), (model, r.key, name)
                checked += 1
    assert checked > 50
