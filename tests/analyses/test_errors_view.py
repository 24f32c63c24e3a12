"""`assess.analyses.errors_view`: the Errors page's values against scikit-learn and hand-worked rows."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import mean_absolute_error, mean_squared_error

from assess.analyses.errors_view import errors_view, mase_by_series
from assess.core.data import Task
from assess.inputs.assessment import describe
from assess.inputs.roles import Overrides
from assess.inputs.read import read_table


def _describe(frame: pd.DataFrame, tmp_path):
    path = tmp_path / "forecasts.csv"
    frame.to_csv(path, index=False)
    return describe(read_table(path), Overrides(task=Task.FORECAST))   # few distinct values would read as classes


@pytest.fixture
def forecasts(tmp_path):
    # two series, horizons 1 and 2, four time points, two models
    rng = np.random.default_rng(7)
    rows = [{"model": m, "series": s, "horizon": h, "timestamp": f"2020-0{t + 1}-01",
             "y_true": float(10 * (s == "b") + t), "y_pred": float(10 * (s == "b") + t + rng.normal(0, 1 + h))}
            for m in ("a", "b") for s in ("a", "b") for h in (1, 2) for t in range(4)]
    return pd.DataFrame(rows)


def test_series_horizons_and_errors_per_horizon_match_sklearn(forecasts, tmp_path):
    assessment = _describe(forecasts, tmp_path)
    view = errors_view(assessment, ("a", "b"))
    assert view.series == ("a", "b") and view.horizons == (1, 2)
    for loss in ("MAE", "RMSE"):
        horizons, errors = view.by_horizon("b", loss)["a"]
        assert list(horizons) == [1, 2]
        for h, value in zip(horizons, errors):
            rows = forecasts[(forecasts.model == "a") & (forecasts.series == "b") & (forecasts.horizon == h)]
            expected = (mean_absolute_error(rows.y_true, rows.y_pred) if loss == "MAE"
                        else np.sqrt(mean_squared_error(rows.y_true, rows.y_pred)))
            assert value == pytest.approx(expected)
    at = view.at("a", 2)
    assert len(at["b"]) == 4 and set(at["b"]["horizon"]) == {2}


def test_loss_difference_by_hand(tmp_path):
    # errors of model a: 1, -2, 0; of model b: 0, 1, 3 → d_t = e_a² − e_b² = 1, 3, −9
    frame = pd.DataFrame({"model": ["a"] * 3 + ["b"] * 3, "timestamp": ["2020-01-01", "2020-02-01", "2020-03-01"] * 2,
                          "y_true": [5.0, 6.0, 7.0] * 2, "y_pred": [6.0, 4.0, 7.0, 5.0, 7.0, 10.0]})
    view = errors_view(_describe(frame, tmp_path), ("a", "b"))
    difference = view.loss_difference("a", "b", view.series[0], view.horizons[0])
    assert list(difference) == [1.0, 3.0, -9.0]


def test_mase_per_series_or_the_reason_it_is_undefined(forecasts, tmp_path):
    assessment = _describe(forecasts, tmp_path)
    mase = mase_by_series(assessment, ("a",))
    assert mase.undefined is None and set(mase.mase["a"]) == {"a", "b"}
    flat = forecasts.assign(y_true=1.0)            # a constant series: no naive-forecast error to scale by
    undefined = mase_by_series(_describe(flat, tmp_path), ("a",))
    assert undefined.mase is None and undefined.undefined
