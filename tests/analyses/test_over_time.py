"""Performance over time against independent oracles: scikit-learn on each period's own rows, the registry's tests for
independent samples (`assess.stats.compare`) on the two periods' rows, SciPy's chi2_contingency, statsmodels'
Benjamini–Hochberg and Newcombe interval; the periods, the reference and the sentences; bad input."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from sklearn import metrics as skm
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import confint_proportions_2indep

from assess.analyses.over_time import Reference, has_time, over_time, parse_reference
from assess.core.errors import AssessError
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.metrics.forecast_state import subset
from assess.stats import compare


def _assessment(frame: pd.DataFrame, name: str = "over_time.csv"):
    return describe(read_table(frame.to_csv(index=False).encode(), name=name))


def _binary_frame(seed: int = 0, n: int = 1_200, classes=("no", "yes"), drop_from: str = "2024-04-01"):
    """Daily stamps over the first half of 2024; from ``drop_from`` the scores are noisier (a visible drop)."""
    rng = np.random.default_rng(seed)
    date = np.sort(rng.choice(pd.date_range("2024-01-01", "2024-06-30").to_numpy(), n))
    y = rng.integers(0, 2, n)
    noise = np.where(date >= np.datetime64(drop_from), 2.0, 0.8)
    score = 1 / (1 + np.exp(-(2 * y - 1) * 1.2 + rng.normal(0, noise)))
    neg, pos = classes
    return pd.DataFrame({"date": pd.DatetimeIndex(date).strftime("%Y-%m-%d"),
                         "y_true": np.where(y == 1, pos, neg), "y_pred": np.where(score >= 0.5, pos, neg),
                         "score": score.round(6)})


def _months(frame):
    return frame.groupby(pd.to_datetime(frame["date"]).dt.to_period("M").dt.start_time)


def test_each_periods_metrics_equal_sklearn_on_that_periods_rows():
    frame = _binary_frame()
    result = over_time(_assessment(frame), "month", keys=["accuracy", "f1", "roc_auc"], ci=None)
    got = result.metrics.set_index(["period", "metric"])["value"]
    periods = result.periods.set_index("period")
    for start, rows in _months(frame):
        y, yp = (rows["y_true"] == "yes").to_numpy(), (rows["y_pred"] == "yes").to_numpy()
        assert got[(start, "accuracy")] == pytest.approx(skm.accuracy_score(y, yp), abs=1e-12)
        assert got[(start, "f1")] == pytest.approx(skm.f1_score(y, yp), abs=1e-12)
        assert got[(start, "roc_auc")] == pytest.approx(skm.roc_auc_score(y, rows["score"]), abs=1e-12)
        assert periods.loc[start, "n"] == len(rows) == periods.loc[start, "n_labelled"]
    assert list(periods.index) == sorted(periods.index) and len(periods) == 6


def test_each_periods_interval_is_the_metrics_pages_interval_on_its_rows():
    """The Metrics page's interval (evaluate, ci="auto": Wilson for accuracy, DeLong for the ROC AUC) of a
    period's rows; the Wilson bound checked against statsmodels' proportion_confint."""
    from statsmodels.stats.proportion import proportion_confint

    frame = _binary_frame(seed=3)
    result = over_time(_assessment(frame), "quarter", keys=["accuracy"], ci="auto")
    for (start, rows), r in zip(frame.groupby(pd.to_datetime(frame["date"]).dt.to_period("Q").dt.start_time),
                                result.metrics.itertuples()):
        k = int((rows["y_true"] == rows["y_pred"]).sum())
        low, high = proportion_confint(k, len(rows), alpha=0.05, method="wilson")
        assert (r.period, r.low, r.high) == (start, pytest.approx(low), pytest.approx(high))


def _two_periods(assessment, result, start, first):
    pred = assessment.predictions()
    stamps = pd.to_datetime(assessment.frame["date"]).dt.to_period("M").dt.start_time
    return (subset(pred, np.flatnonzero((stamps == start).to_numpy())),
            subset(pred, np.flatnonzero((stamps == first).to_numpy())))


def test_change_tests_equal_the_registrys_unpaired_tests_on_the_two_periods_and_bh_equals_statsmodels():
    frame = _binary_frame(seed=1)
    assessment = _assessment(frame)
    result = over_time(assessment, "month", keys=["accuracy", "roc_auc"])
    first = result.periods["period"].iloc[0]
    for key, test in (("accuracy", "chi2"), ("roc_auc", "unpaired_delong")):
        changes = result.changes[result.changes["metric"] == key]
        assert len(changes) == 5            # every month but the reference
        for r in changes.itertuples():
            a, b = _two_periods(assessment, result, r.period, first)
            registry = compare({"period": a, "reference": b}, test=test).result
            assert r.pvalue == pytest.approx(registry.pvalue, rel=1e-9)
            if key == "roc_auc":
                assert (r.difference, r.low, r.high) == (
                    pytest.approx(registry.effect.value), pytest.approx(registry.effect.interval.low),
                    pytest.approx(registry.effect.interval.high))
            else:   # the two-proportion χ² (SciPy) and Newcombe's hybrid-score interval (statsmodels)
                x, n = int((a.y_true == a.y_pred).sum()), a.n
                x0, n0 = int((b.y_true == b.y_pred).sum()), b.n
                table = [[x, n - x], [x0, n0 - x0]]
                assert r.pvalue == pytest.approx(sps.chi2_contingency(table, correction=False).pvalue)
                low, high = confint_proportions_2indep(x, n, x0, n0, method="newcomb", compare="diff")
                assert (r.difference, r.low, r.high) == (pytest.approx(x / n - x0 / n0), pytest.approx(low),
                                                         pytest.approx(high))
        assert changes["p_adjusted"].to_numpy() == pytest.approx(
            multipletests(changes["pvalue"].to_numpy(), method="fdr_bh")[1])
    late = result.changes[(result.changes["metric"] == "roc_auc")].iloc[-1]
    assert late.worse and late.p_adjusted < 0.05       # the noisier months are found worse


def test_bootstrap_change_of_a_regression_metric_equals_the_registrys_unpaired_bootstrap():
    rng = np.random.default_rng(4)
    n = 400
    date = np.sort(rng.choice(pd.date_range("2024-01-01", "2024-04-30").to_numpy(), n))
    y = rng.normal(10, 3, n)
    frame = pd.DataFrame({"date": pd.DatetimeIndex(date).strftime("%Y-%m-%d"), "y_true": y.round(4),
                          "y_pred": (y + rng.normal(0, np.where(date >= np.datetime64("2024-03-01"), 2.0, 1.0))
                                     ).round(4)})
    assessment = _assessment(frame)
    # several predictions per day: predictions made over time, not one forecast per time step (was: a forecast
    # refused for "duplicated time stamps")
    assert assessment.task.value == "regression" and "share a time stamp" in assessment.task_reason
    result = over_time(assessment, "month", keys=["mae"], test_resamples=300, seed=7)
    first = result.periods["period"].iloc[0]
    for r in result.changes.itertuples():
        a, b = _two_periods(assessment, result, r.period, first)
        registry = compare({"period": a, "reference": b}, test="unpaired_bootstrap", metric="mae", n_resamples=300,
                           seed=7).result
        assert (r.difference, r.pvalue, r.low, r.high) == (
            pytest.approx(skm.mean_absolute_error(a.y_true, a.y_pred) - skm.mean_absolute_error(b.y_true, b.y_pred)),
            pytest.approx(registry.pvalue), pytest.approx(registry.effect.interval.low),
            pytest.approx(registry.effect.interval.high))


def test_a_date_range_reference_and_its_periods():
    frame = _binary_frame(seed=2)
    result = over_time(_assessment(frame), "month", keys=["accuracy"],
                       reference=parse_reference("2024-01-01:2024-03-31"))
    assert result.periods["reference"].tolist() == [True] * 3 + [False] * 3
    assert len(result.changes) == 3
    months = pd.to_datetime(frame["date"]).dt.month
    x0 = int(((frame["y_true"] == frame["y_pred"]) & (months <= 3)).sum())
    assert result.changes["reference_value"].to_numpy() == pytest.approx([x0 / int((months <= 3).sum())] * 3)
    two = over_time(_assessment(frame), "month", keys=["accuracy"], reference=Reference(2))
    assert two.periods["reference"].tolist() == [True] * 2 + [False] * 4


def test_windows_have_equal_sizes_in_time_order():
    frame = _binary_frame(n=1_001)
    result = over_time(_assessment(frame), 4, keys=["accuracy"], ci=None)
    assert result.periods["n"].tolist() == [251, 250, 250, 250]
    starts = result.periods["key"].tolist()
    assert starts == sorted(starts) and starts[0] == frame["date"].min()


LONG = "very long positive class name indeed, longer than forty characters"


@pytest.mark.parametrize("classes, phrase", [((0, 1), "recall (sensitivity) for positive (1) cases"),
                                             ((False, True), "recall (sensitivity) for positive (True) cases"),
                                             (("no", LONG), f"recall (sensitivity) for {LONG[:39].rstrip()}… "
                                                                "cases")])
def test_the_sentence_names_the_period_the_values_the_reference_and_the_adjusted_p(classes, phrase):
    frame = _binary_frame(seed=5, classes=classes)
    result = over_time(_assessment(frame), "month", keys=["recall"])
    last = result.changes.iloc[-1]
    sentence = last.sentence
    assert sentence.startswith(f"In June 2024 {phrase}")
    assert " fell to " in sentence or " rose to " in sentence
    assert "from " in sentence and "in the first period (January 2024)" in sentence
    assert sentence.endswith(f"adjusted p = {last.p_adjusted:.2g}.") or "adjusted p < 0.001." in sentence
    assert "None" not in sentence and "_" not in sentence and len(sentence) < 260


def test_json_shape_and_the_place_of_an_estimate():
    frame = _binary_frame(seed=6)
    result = over_time(_assessment(frame), "month", keys=["accuracy", "roc_auc"])
    doc = result.to_dict()
    (model, periods), = doc.items()
    assert list(periods) == ["2024-01-01", "2024-02-01", "2024-03-01", "2024-04-01", "2024-05-01", "2024-06-01"]
    jan, feb = periods["2024-01-01"], periods["2024-02-01"]
    assert set(jan) == {"n", "n_labelled", "observed", "change"} and jan["change"] == {}
    assert set(feb["observed"]["accuracy"]) == {"value", "low", "high"}
    assert set(feb["change"]["roc_auc"]) == {"difference", "low", "high", "pvalue", "p_adjusted"}
    # every row is labelled here, so an estimator is never asked
    asked = []
    result.to_dict(estimated=lambda m, p: asked.append((m, p)))
    assert asked == []


def test_files_without_time_and_bad_input_are_refused_with_the_reason():
    frame = _binary_frame().drop(columns="date")
    assert not has_time(_assessment(frame))
    with pytest.raises(AssessError, match="no time-stamp column"):
        over_time(_assessment(frame))
    with_time = _assessment(_binary_frame())
    assert has_time(with_time) and with_time.task.value == "binary"     # a `date` column is no forecast
    with pytest.raises(AssessError, match="period must be one of"):
        over_time(with_time, "fortnight")
    with pytest.raises(AssessError, match="not a date"):
        parse_reference("2024-01-01:soon")
    with pytest.raises(AssessError, match="no row falls in"):
        over_time(with_time, reference=parse_reference("2030-01-01:2030-02-01"))


def test_cli_by_time_adds_the_documented_object(tmp_path, capsys):
    import json

    from assess.analyses.over_time import PERIODS
    from assess.cli import main
    from assess.cli.over_time import PERIOD_CHOICES

    assert PERIOD_CHOICES == tuple(PERIODS)
    path = tmp_path / "p.csv"
    _binary_frame(seed=8).to_csv(path, index=False)
    assert main(["metrics", str(path), "--metrics", "accuracy", "roc_auc", "--by-time", "month",
                 "--reference", "2024-01-01:2024-02-29"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (model, periods), = doc["by_time"].items()
    assert list(periods)[:3] == ["2024-01-01", "2024-02-01", "2024-03-01"] and len(periods) == 6
    for start, period in periods.items():
        assert set(period) == {"n", "n_labelled", "observed", "change"}
        assert set(period["observed"]) == {"accuracy", "roc_auc"}
        assert all(set(v) == {"value", "low", "high"} for v in period["observed"].values())
        reference = start < "2024-03-01"
        assert (period["change"] == {}) == reference
        if not reference:
            assert all(set(v) == {"difference", "low", "high", "pvalue", "p_adjusted"}
                       for v in period["change"].values())
    assert doc["by_time_settings"]["reference"] == "the reference period 2024-01-01 to 2024-02-29"
    assert sum(p["n"] for p in periods.values()) == doc["n"]
    assert main(["metrics", str(path), "--by-time", "fortnight"]) == 2
    assert "--by-time must be one of" in capsys.readouterr().err
    assert main(["metrics", str(path), "--reference", "first"]) == 2


def test_multiclass_metrics_per_period_and_their_bootstrap_change():
    rng = np.random.default_rng(9)
    n = 900
    date = np.sort(rng.choice(pd.date_range("2024-01-01", "2024-03-31").to_numpy(), n))
    y = rng.choice(["cat", "dog", "cow"], n)
    wrong = rng.random(n) < np.where(date >= np.datetime64("2024-03-01"), 0.5, 0.15)
    frame = pd.DataFrame({"date": pd.DatetimeIndex(date).strftime("%Y-%m-%d"), "y_true": y,
                          "y_pred": np.where(wrong, rng.choice(["cat", "dog", "cow"], n), y)})
    result = over_time(_assessment(frame), "month", keys=["accuracy", "f1_macro"], ci=None, test_resamples=300)
    got = result.metrics.set_index(["period", "metric"])["value"]
    for start, rows in _months(frame):
        assert got[(start, "f1_macro")] == pytest.approx(skm.f1_score(rows.y_true, rows.y_pred, average="macro"))
    f1 = result.changes[result.changes["metric"] == "f1_macro"]
    assert list(f1["test"]) == ["unpaired bootstrap (300 resamples)"] * 2
    march = f1.iloc[-1]
    assert march.low <= march.difference <= march.high and march.worse and march.p_adjusted < 0.05


def test_step_number_stamps_take_windows_not_calendar_periods():
    frame = _binary_frame().assign(date=np.arange(1_200) // 10)      # step numbers, 10 rows each
    assessment = _assessment(frame)
    with pytest.raises(AssessError, match="step numbers, not dates"):
        over_time(assessment, "month")
    result = over_time(assessment, 3, keys=["accuracy"], ci=None)
    assert result.periods["n"].tolist() == [400, 400, 400] and result.periods["key"].tolist() == ["0", "40", "80"]


def test_an_unchanged_value_is_said_so_and_an_undefined_test_has_its_reason():
    frame = _binary_frame(n=300).assign(y_pred=lambda f: f["y_true"])          # right every time
    frame["score"] = np.where(frame["y_true"] == "yes", 0.9, 0.1)
    result = over_time(_assessment(frame), "month", keys=["accuracy", "roc_auc"])
    accuracy = result.changes[result.changes["metric"] == "accuracy"].iloc[0]
    assert accuracy.sentence.startswith("In February 2024 accuracy stayed at 1.000 (") and \
        ", as in the first period (January 2024); adjusted p = 1." in accuracy.sentence
    auc = result.changes[result.changes["metric"] == "roc_auc"].iloc[0]
    assert np.isnan(auc.pvalue) and auc.reason and not isinstance(auc.sentence, str)   # DeLong: both variances 0
    assert result.sentences("over_time", "roc_auc") == []


def test_unlabelled_rows_are_counted_and_left_out_of_the_observed_metrics():
    """Once empty truth is a state of the file (issue 35 §3, another branch), a model's predictions hold its labelled
    rows: simulated here by emptying the truth of the last month's rows and some of February's after the file was
    read, and giving the assessment predictions of the labelled rows only."""
    frame = _binary_frame(seed=10)
    assessment = _assessment(frame)
    pred = assessment.predictions()
    months = pd.to_datetime(frame["date"]).dt.month.to_numpy()
    unlabelled = (months == 6) | ((months == 2) & (np.arange(len(frame)) % 2 == 0))
    assessment.frame.loc[unlabelled, "y_true"] = np.nan
    kept = subset(pred, np.flatnonzero(~unlabelled))
    object.__setattr__(assessment, "predictions", lambda model=None, output=None: kept)
    result = over_time(assessment, "month", keys=["accuracy"])
    periods = result.periods.set_index("key")
    assert periods.loc["2024-02-01", "n"] == (months == 2).sum()
    assert periods.loc["2024-02-01", "n_labelled"] == ((months == 2) & ~unlabelled).sum()
    assert periods.loc["2024-06-01", "n_labelled"] == 0
    values = result.metrics.set_index("period")
    feb = frame[(months == 2) & ~unlabelled]
    assert values.loc[pd.Timestamp("2024-02-01"), "value"] == pytest.approx(skm.accuracy_score(feb.y_true,
                                                                                               feb.y_pred))
    june = values.loc[pd.Timestamp("2024-06-01")]
    assert np.isnan(june["value"]) and june["reason"] == "no row of this period has a ground truth"
    asked = []
    result.to_dict(estimated=lambda m, p: asked.append(p) or {"accuracy": {"value": 0.5, "low": 0.4, "high": 0.6}})
    assert asked == ["2024-02-01", "2024-06-01"]
    assert result.to_dict(estimated=lambda m, p: {"accuracy": {}})[pred.model]["2024-06-01"]["estimated"]


def test_stamps_with_different_utc_offsets_are_read_on_one_clock():
    frame = _binary_frame(n=200)
    frame["date"] = ["2024-01-31T23:30:00-02:00", "2024-03-05T10:00:00+01:00"] * 100   # the first is 1 Feb UTC
    result = over_time(_assessment(frame), "month", keys=["accuracy"], ci=None)
    assert result.periods["key"].tolist() == ["2024-02-01", "2024-03-01"] and result.periods["n"].tolist() == [100, 100]
    with pytest.raises(AssessError, match=r"1 value\(s\) are not dates \(row 1: 'soon'\)"):
        over_time(_assessment(frame.assign(date=["soon"] + ["2024-01-01"] * 199)))
