"""Computational cost (ISO 4213 6.6): latency percentiles against numpy.percentile, the analytic intervals against
SciPy (t, quantile_test), the order-statistic interval of the 95th percentile checked for coverage by simulation on a
lognormal, a cost table's sequential bootstrap over calls, per-batch latencies, the tidy cost table, bad input,
efficiency, the Pareto front and the headline sentence (its difference against scikit-learn's accuracy)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import accuracy_score

from assess.analyses import cost
from assess.core.errors import AssessError, InputError
from assess.inputs.read import read_table
from assess.inputs.assessment import describe

from tests.test_architecture import ROOT

SAMPLE = ROOT / "assets" / "samples" / "breast_cancer_latency.csv"


def _input(latency, energy=None, weight=None, per_batch=False):
    latency = np.asarray(latency, float)
    return cost.CostInput(latency, None if energy is None else np.asarray(energy, float),
                          np.ones(len(latency)) if weight is None else np.asarray(weight, float), per_batch)


@settings(max_examples=60)
@given(st.lists(st.floats(0.001, 1e4, allow_nan=False), min_size=1, max_size=60),
       st.lists(st.integers(1, 5), min_size=60, max_size=60))
def test_points_are_numpy_percentiles_of_the_samples_written_out(values, sizes):
    values = np.array(values)
    weights = np.array(sizes[:len(values)], float)
    # one sample per row: numpy.percentile of the column (the oracle)
    plain = cost.summarise("m", _input(values), ci=None)
    for key, q in cost.PERCENTILES.items():
        assert plain[key].value == pytest.approx(np.percentile(values, q), rel=1e-12)
    assert plain["latency_mean_ms"].value == pytest.approx(values.mean(), rel=1e-12)
    assert plain["throughput_per_s"].value == pytest.approx(1000 / values.mean(), rel=1e-12)
    # a row standing for w samples: the same as the row written out w times
    expanded = np.repeat(values, weights.astype(int))
    weighted = cost.summarise("m", _input(values, weight=weights), ci=None)
    for key, q in cost.PERCENTILES.items():
        assert weighted[key].value == pytest.approx(np.percentile(expanded, q), rel=1e-12)
    assert weighted["latency_mean_ms"].value == pytest.approx(expanded.mean(), rel=1e-12)


def test_auto_intervals_of_a_predictions_file_are_analytic_and_equal_scipy():
    """One sample per row: the mean latency and energy get SciPy's t interval, the throughput 1000 / those bounds,
    each percentile SciPy's order-statistic interval (quantile_test); each says how it was computed."""
    from scipy import stats
    rng = np.random.default_rng(2)
    lat, energy = rng.lognormal(0, 1, 400), rng.gamma(2.0, 1.5, 400)
    got = cost.summarise("m", _input(lat, energy))
    low, high = stats.t.interval(0.95, 399, loc=lat.mean(), scale=stats.sem(lat))
    assert (got["latency_mean_ms"].low, got["latency_mean_ms"].high) == pytest.approx((low, high), rel=1e-12)
    assert (got["throughput_per_s"].low, got["throughput_per_s"].high) == pytest.approx((1000 / high, 1000 / low),
                                                                                        rel=1e-12)
    low, high = stats.t.interval(0.95, 399, loc=energy.mean(), scale=stats.sem(energy))
    assert (got["energy_per_sample_j"].low, got["energy_per_sample_j"].high) == pytest.approx((low, high), rel=1e-12)
    for key, q in cost.PERCENTILES.items():
        ref = stats.quantile_test(lat, p=q / 100).confidence_interval(0.95)
        assert (got[key].low, got[key].high) == (ref.low, ref.high), key
        assert got[key].method.startswith("order-statistic")
    assert got["latency_mean_ms"].method.startswith("t") and "resamples" not in got["latency_mean_ms"].method
    assert set(got.to_dict()["latency_p95_ms"]) == {"value", "low", "high", "method"}


def test_order_statistic_interval_of_the_95th_percentile_covers_at_least_the_nominal_rate():
    """Simulation: 2,000 seeded lognormal(0, 1) samples of 200 latencies; the true 95th percentile is exp(z_0.95).
    The binomial-rank interval covers at least 95 % whatever the distribution (discreteness adds a little); the
    Monte-Carlo SE of 2,000 trials is 0.5 %, so the band is 0.935–0.99."""
    from scipy.stats import norm
    truth = float(np.exp(norm.ppf(0.95)))
    samples = np.random.default_rng(4213).lognormal(0.0, 1.0, (2000, 200))
    hits = [(e.low <= truth <= e.high) for e in (cost.summarise("m", _input(x))["latency_p95_ms"] for x in samples)]
    assert 0.935 <= np.mean(hits) <= 0.99, np.mean(hits)


def test_a_cost_tables_calls_are_bootstrapped_and_stop_once_the_bounds_are_precise():
    """Calls of several samples each: the bootstrap over calls, sequential under auto (fewer than the most it may
    draw, said in its method), all of them under ci="bootstrap"; the same seed gives the same bounds."""
    rng = np.random.default_rng(3)
    # steady latencies (50 ms a sample, 0.5 % spread) over 2,000 calls of 4: bounds precise after few resamples
    calls = pd.DataFrame({"model": "x", "latency_ms": 4 * rng.lognormal(np.log(50), 0.005, 2000), "batch_size": 4})
    auto = cost.cost_from_table(calls, n_resamples=5000)["x"]["latency_mean_ms"]
    assert "bootstrap-percentile" in auto.method and "stopped" in auto.method
    drawn = int(auto.method.split("(")[1].split(" resamples")[0])
    assert drawn < 5000
    full = cost.cost_from_table(calls, ci="bootstrap", n_resamples=600)["x"]["latency_mean_ms"]
    assert "600 resamples" in full.method
    again = cost.cost_from_table(calls, n_resamples=5000)["x"]["latency_mean_ms"]
    assert (again.low, again.high) == (auto.low, auto.high)


def test_wider_intervals_at_lower_confidence_are_narrower():
    sample = np.random.default_rng(1).lognormal(0, 1, 300)
    wide = cost.summarise("m", _input(sample), confidence_level=0.99)["latency_p95_ms"]
    narrow = cost.summarise("m", _input(sample), confidence_level=0.80)["latency_p95_ms"]
    assert wide.high - wide.low > narrow.high - narrow.low


def _frame(**columns):
    n = len(next(iter(columns.values())))
    base = {"id": np.arange(n) % (n // 2), "model": ["a"] * (n // 2) + ["b"] * (n - n // 2),
            "y_true": np.tile([0, 1], n)[:n], "y_pred": np.tile([0, 1, 1, 0], n)[:n]}
    return pd.DataFrame(base | columns)


def _assessment(frame, tmp_path, name="p.csv"):
    path = tmp_path / name
    frame.to_csv(path, index=False)
    return describe(read_table(path))


def test_per_batch_latency_is_shared_by_the_batch_rows(tmp_path):
    latency = np.array([8.0, 8.0, 8.0, 8.0, 4.0, 4.0, 2.0, 2.0])
    frame = _frame(latency_ms=latency, batch_size=[4, 4, 4, 4, 2, 2, 2, 2], energy_j=[40.0] * 4 + [2.0] * 4)
    assessment = _assessment(frame, tmp_path)
    assert assessment.roles.latency_ms == "latency_ms" and assessment.roles.batch_size == "batch_size"
    assert assessment.roles.score is None and assessment.roles.model == "model"
    costs = cost.cost_from_assessment(assessment, ci=None)
    a, b = costs["a"], costs["b"]
    assert a["latency_mean_ms"].value == pytest.approx(2.0)       # 8 ms for a batch of 4
    assert b["latency_mean_ms"].value == pytest.approx(np.mean([2, 2, 1, 1]))
    assert b["energy_per_sample_j"].value == pytest.approx(1.0)
    assert a.per_batch and a.n_samples == 4


def test_cost_table_calls_equal_the_predictions_file_form(tmp_path):
    calls = pd.DataFrame({"model": ["x", "x", "x", "y"], "latency_ms": [10.0, 3.0, 7.0, 1.0],
                          "batch_size": [5, 1, 2, 1], "energy_j": [5.0, 1.0, 2.0, 0.5]})
    from_table = cost.cost_from_table(calls, ci=None)
    per_sample = np.repeat(calls["latency_ms"] / calls["batch_size"], calls["batch_size"])[:8]
    for key, q in cost.PERCENTILES.items():
        assert from_table["x"][key].value == pytest.approx(np.percentile(per_sample, q))
    assert from_table["x"]["latency_mean_ms"].value == pytest.approx(20 / 8)
    assert from_table["x"]["energy_per_sample_j"].value == pytest.approx(8 / 8)
    assert from_table["x"].n_samples == 8 and from_table["y"].n_samples == 1


@pytest.mark.parametrize("bad, message", [
    (-1.5, r"p\.csv: column `latency_ms` has 1 value that is negative.*row 4"),
    ("fast", r"p\.csv: column `latency_ms` has 1 value that is missing or not a finite number.*row 4.*fast"),
])
def test_bad_latencies_are_refused_with_column_and_row(tmp_path, bad, message):
    latency = [1.0, 2.0, bad, 3.0, 1.0, 2.0]
    assessment = _assessment(_frame(latency_ms=latency), tmp_path)
    with pytest.raises(InputError, match=message):
        cost.cost_from_assessment(assessment, ci=None)


def test_a_batch_size_below_one_is_refused():
    with pytest.raises(InputError, match=r"`batch_size` must hold whole numbers of at least 1.*row 3"):
        cost.cost_from_table(pd.DataFrame({"latency_ms": [1.0, 2.0], "batch_size": [1, 0]}), ci=None)


def test_no_cost_column_is_a_clear_error(tmp_path):
    assessment = _assessment(_frame(score=np.linspace(0, 1, 8)), tmp_path)
    assert not cost.has_cost(assessment)
    with pytest.raises(AssessError, match="has no cost column"):
        cost.cost_from_assessment(assessment)
    with pytest.raises(InputError, match="no `latency_ms` or `energy_j` column"):
        cost.cost_from_table(pd.DataFrame({"model": ["a"], "ms": [1.0]}))


def test_efficiency_is_the_metric_per_ms_and_per_joule():
    estimate = cost.summarise("m", _input([2.0, 4.0], energy=[0.5, 1.5]), ci=None)
    assert cost.efficiency(0.9, estimate) == pytest.approx({"per_ms": 0.9 / 3.0, "per_j": 0.9 / 1.0})
    no_energy = cost.summarise("m", _input([2.0, 4.0]), ci=None)
    assert np.isnan(cost.efficiency(0.9, no_energy)["per_j"])


def test_pareto_front_by_hand():
    metric = {"cheap": 0.80, "best": 0.95, "dominated": 0.79, "middle": 0.90, "tie": 0.95}
    price = {"cheap": 1.0, "best": 10.0, "dominated": 2.0, "middle": 3.0, "tie": 12.0}
    assert cost.pareto_front(metric, price) == ["cheap", "best", "middle"]
    # lower-is-better metrics (an error): the front flips on the metric axis
    assert cost.pareto_front({"a": 0.1, "b": 0.3}, {"a": 2.0, "b": 1.0}, higher_is_better=False) == ["a", "b"]


def test_headline_on_the_measured_sample():
    assessment = describe(read_table(SAMPLE))
    costs = cost.cost_from_assessment(assessment, ci=None)
    line = cost.headline(assessment, costs, metric="accuracy", models=["tree", "forest_300"], n_resamples=500)
    frame = assessment.frame
    acc = {m: accuracy_score(frame[frame.model == m].y_true, frame[frame.model == m].y_pred)
           for m in ("tree", "forest_300")}
    better, other = sorted(acc, key=acc.get, reverse=True)
    assert (line.better, line.other) == (better, other)
    assert line.difference == pytest.approx(100 * (acc[better] - acc[other]))
    assert line.low <= line.difference <= line.high
    per_sample = {m: frame[frame.model == m].latency_ms / frame[frame.model == m].batch_size for m in acc}
    ratio = np.percentile(per_sample[better], 95) / np.percentile(per_sample[other], 95)
    assert line.cost_ratio == pytest.approx(ratio)
    # two significant figures, as the stats sentences write a difference in points; the level as everywhere ("95%")
    assert line.sentence.startswith(f"{better} is {line.difference:.2g} points more accurate (95% CI "
                                    f"{line.low:.2g}–{line.high:.2g}) than {other} and ")
    assert "at the 95th percentile" in line.sentence


def test_trade_off_points_carry_intervals_and_the_front():
    assessment = describe(read_table(SAMPLE))
    from assess.metrics.reports import compute_reports
    reports = compute_reports(assessment, keys=["accuracy"], ci="wilson")
    costs = cost.cost_from_assessment(assessment, n_resamples=200)
    points = cost.trade_off(reports, costs, metric="accuracy")
    assert {p.model for p in points} == set(assessment.models)
    front = {p.model for p in points if p.on_front}
    values = {p.model: (p.metric, p.cost) for p in points}
    assert front == set(cost.pareto_front({m: v[0] for m, v in values.items()}, {m: v[1] for m, v in values.items()}))
    assert all(p.metric_low <= p.metric <= p.metric_high and p.cost_low <= p.cost <= p.cost_high for p in points)


def test_headline_says_no_clear_difference_when_the_interval_holds_zero(tmp_path):
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 200)
    pred_a = np.where(rng.random(200) < 0.8, y, 1 - y)
    pred_b = pred_a.copy()
    pred_b[:4] = 1 - pred_b[:4]                       # a difference of at most 2 points on 200 samples
    frame = pd.DataFrame({"id": np.tile(np.arange(200), 2), "model": np.repeat(["a", "b"], 200),
                          "y_true": np.tile(y, 2), "y_pred": np.r_[pred_a, pred_b],
                          "latency_ms": np.r_[np.full(200, 1.0), np.full(200, 3.0)]})
    assessment = _assessment(frame, tmp_path)
    costs = cost.cost_from_assessment(assessment, ci=None)
    line = cost.headline(assessment, costs, metric="accuracy", models=["a", "b"], n_resamples=500)
    assert line.low <= 0 <= line.high
    assert "do not clearly differ on accuracy" in line.sentence and "more accurate" not in line.sentence
    slower = "3.0× slower" if line.better == "b" else "3.0× faster"
    assert slower in line.sentence


def test_efficiency_only_for_higher_is_better_metrics():
    from assess.core.data import Task
    assert cost.efficiency_applies(Task.BINARY, "accuracy") and cost.efficiency_applies(Task.REGRESSION, "r2")
    assert not cost.efficiency_applies(Task.REGRESSION, "mae")


@pytest.mark.parametrize("latency_b, says", [(1.0, "as fast on mean latency"), (1.04, "as fast on mean latency"),
                                              (1.2, "1.2× slower on mean latency")])
def test_headline_calls_equal_latencies_as_fast_not_1_0_times_slower(tmp_path, latency_b, says):
    """Latencies equal at the shown precision (one decimal of the ratio, 1.04 → "1.0") read "as fast"; a ratio
    that shows (1.2) is still said. Hand-worked: b = a's predictions with 40 of 200 rows fixed, so b is better."""
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 200)
    pred_a = np.where(rng.random(200) < 0.7, y, 1 - y)
    pred_b = pred_a.copy()
    wrong = np.flatnonzero(pred_a != y)[:40]
    pred_b[wrong] = y[wrong]
    frame = pd.DataFrame({"id": np.tile(np.arange(200), 2), "model": np.repeat(["a", "b"], 200),
                          "y_true": np.tile(y, 2), "y_pred": np.r_[pred_a, pred_b],
                          "latency_ms": np.r_[np.full(200, 1.0), np.full(200, latency_b)]})
    assessment = _assessment(frame, tmp_path)
    line = cost.headline(assessment, cost.cost_from_assessment(assessment, n_resamples=0), metric="accuracy",
                         models=["a", "b"], cost_key="latency_mean_ms", n_resamples=200)
    assert line.better == "b"
    assert says in line.sentence and "1.0×" not in line.sentence, line.sentence
