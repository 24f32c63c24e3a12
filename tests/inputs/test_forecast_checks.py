"""Bad forecast input (issue 9, Tests): each problem a clear message naming the column and an example row."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from assess.inputs.forecast_checks import check_forecast
from assess.inputs.roles import Roles

SAMPLE = Path(__file__).resolve().parents[2] / "assets" / "samples" / "monthly_forecasts.csv"
ROLES = Roles(y_true="y_true", y_pred="y_pred", model="model", timestamp="timestamp", series="series",
              horizon="horizon")


@pytest.fixture(scope="module")
def sample() -> pd.DataFrame:
    return pd.read_csv(SAMPLE)


def codes(problems):
    return [p.code for p in problems]


def test_the_forecast_sample_is_clean(sample):
    assert check_forecast(sample, ROLES) == []
    assert check_forecast(sample, ROLES, origin="origin") == []


def test_unparseable_time_stamps_name_column_and_row(sample):
    bad = sample.copy()
    bad.loc[5, "timestamp"] = "not a date"
    bad.loc[7, "timestamp"] = "2001-13-45"
    (problem,) = check_forecast(bad, ROLES)
    assert problem.code == "unparseable_time" and problem.level == "error"
    assert problem.column == "timestamp" and problem.count == 2 and problem.rows == (6, 8)
    assert problem.message.startswith("column `timestamp` has 2 time stamps that cannot be read as dates "
                                      "(first at row 6: `not a date`)")


def test_fractional_numeric_time_stamps(sample):
    frame = pd.DataFrame({"t": [1.0, 2.0, 2.5], "y_true": [1, 2, 3], "y_pred": [1, 2, 3]})
    (problem,) = check_forecast(frame, Roles(y_true="y_true", y_pred="y_pred", timestamp="t"))
    assert problem.code == "unparseable_time"
    assert "cannot be read as whole step numbers (row 3: `2.5`)" in problem.message


def test_duplicated_time_stamps_within_model_series_and_horizon(sample):
    bad = pd.concat([sample, sample.iloc[[40]]], ignore_index=True)
    (problem,) = check_forecast(bad, ROLES)
    assert problem.code == "duplicate_time" and problem.level == "error"
    assert problem.rows == (len(sample) + 1,)
    assert (f"column `timestamp` has 1 duplicated time stamp within one model, series and horizon (`horizon`) "
            f"(row {len(sample) + 1}: `{sample.timestamp.iloc[40]}`, already at row 41)") in problem.message


def test_rolling_origins_are_duplicates_without_horizon_or_origin(sample):
    (problem,) = check_forecast(sample, Roles(y_true="y_true", y_pred="y_pred", model="model",
                                              timestamp="timestamp", series="series"))
    assert problem.code == "duplicate_time"
    assert "within one model and series" in problem.message


def test_horizon_with_gaps(sample):
    gappy = sample[sample.horizon != 3].reset_index(drop=True)
    (problem,) = check_forecast(gappy, ROLES)
    assert problem.code == "horizon_gaps" and problem.level == "warning" and problem.column == "horizon"
    assert "column `horizon` skips 1 horizon between 1 and 12 (no rows with horizon 3" in problem.message
    assert gappy.horizon.iloc[problem.rows[0] - 1] == 2


def test_horizon_that_is_not_a_whole_step(sample):
    bad = sample.astype({"horizon": float})
    bad.loc[3, "horizon"] = 1.5
    (problem,) = check_forecast(bad, ROLES)
    assert problem.code == "bad_horizon" and problem.rows == (4,)
    assert "column `horizon` has 1 horizon that is not a whole number of steps >= 1 (row 4: `1.5`)" in problem.message


def test_series_of_one_point(sample):
    lonely = pd.DataFrame({"series": ["lonely"], "model": ["ets"], "timestamp": ["2000-01"], "horizon": [1],
                           "y_true": [1.0], "y_pred": [1.0]})
    frame = pd.concat([sample, lonely], ignore_index=True)
    (problem,) = check_forecast(frame, ROLES)
    assert problem.code == "short_series" and problem.level == "warning" and problem.column == "series"
    assert problem.rows == (len(frame),)
    assert f"column `series` has 1 series with a single time stamp (`lonely`, row {len(frame)})" in problem.message


def test_irregular_dates():
    frame = pd.DataFrame({"t": ["2020-01-01", "2020-01-20", "2020-02-08"], "y_true": [1, 2, 3], "y_pred": [1, 2, 3]})
    (problem,) = check_forecast(frame, Roles(y_true="y_true", y_pred="y_pred", timestamp="t"))
    assert problem.code == "irregular_time" and problem.column == "t"
    assert "irregular (median gap 19 days)" in problem.message


def test_errors_come_before_warnings(sample):
    bad = pd.concat([sample, sample.iloc[[0]]], ignore_index=True)
    bad = bad[bad.horizon != 5].reset_index(drop=True)
    assert codes(check_forecast(bad, ROLES)) == ["duplicate_time", "horizon_gaps"]


# --- wired into validation: the Data page and `assess inspect` show these problems ----------------------------------

def test_validation_reports_forecast_problems_through_describe_and_inspect(sample, tmp_path, capsys):
    import json

    from assess.cli import main
    from assess.inputs.assessment import describe
    from assess.inputs.read import read_table

    bad = sample.copy()
    bad.loc[1, "timestamp"] = bad.loc[0, "timestamp"]      # row 3 of the file repeats row 2's stamp (horizon 2 vs 1)
    bad.loc[1, "horizon"] = 1
    bad.loc[1, "origin"] = bad.loc[0, "origin"]
    path = tmp_path / "dup.csv"
    bad.to_csv(path, index=False)
    assessment = describe(read_table(str(path)))
    assert "duplicate_time" in codes(assessment.errors)
    assert describe(read_table(str(SAMPLE))).problems == ()
    assert main(["inspect", str(path)]) == 2
    out = capsys.readouterr()
    doc = json.loads(out.out)
    assert "duplicate_time" in [p["code"] for p in doc["problems"]]


def test_step_numbers_beside_origins_of_dates_are_one_error(sample):
    """Found while sweeping the command line for exit 70 (issue 31, item 4): ``--timestamp-col id`` on the sample made
    the time stamps step numbers while `origin` holds dates; the baselines then failed in numpy
    (DTypePromotionError). The two must be of one kind."""
    roles = Roles(y_true="y_true", y_pred="y_pred", model="model", timestamp="id", series="series")
    (problem,) = check_forecast(sample, roles, origin="origin")
    assert problem.code == "origin_time_kind" and problem.level == "error" and problem.column == "id"
    assert problem.message == ("column `id` holds step numbers but the origins in `origin` hold dates; a forecast's "
                               "origin and its target time must be of one kind")
    assert check_forecast(sample, roles) == [], "without origins, step numbers alone are fine"
