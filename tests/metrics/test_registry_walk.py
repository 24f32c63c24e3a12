"""Walk the metric registry: every entry reaches every surface, and so does a metric registered here and nowhere else.

Two metrics exist only in this file, added to the registry with monkeypatch: a binary label metric (the share of rows
that are true positives, :math:`T_P / n`) and a binary score metric without a resample formula (ROC AUC again, as
the trapezoid over the cumulative counts, so the bootstrap has to fall back to ``compute`` on resampled counts).
Adding a metric is meant to be one function plus one registry entry; these tests prove that is all it takes for the
metric to appear in :func:`evaluate`, the CLI JSON, the exports, the Metrics page, the metric-versus-threshold
choices of the Curves page, the bootstrap intervals, the ISO 5.3.13 baselines and the invariance tests. Oracles:
scikit-learn's ``confusion_matrix`` and ``roc_auc_score``.
"""

from __future__ import annotations

import json
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import confusion_matrix, mean_squared_error, roc_auc_score

from assess import curves
from assess.cli import main as cli_main
from assess.core.data import Predictions, Task
from assess.metrics import evaluate, get, keys_for, metrics_for, registry
from assess.metrics._common import ratio
from assess.metrics.threshold import metric_vs_threshold, threshold_metric_keys
from assess.present.export import to_csv_bytes
from assess.present.summary import long_frame
from tests.conftest import ROOT, open_app
from tests.metrics import test_registry as invariance

SAMPLE = ROOT / "assets/samples/breast_cancer_binary.csv"


def true_positive_share(s):
    r"""Share of rows that are true positives: :math:`T_P / n`."""
    return ratio(s.tp, s.n, batch=s.batch, reason="no rows with nonzero weight")


def auc_by_trapezoid(s):
    """ROC AUC read off the cumulative counts (point state and batch state alike); no resample formula."""
    return curves.trapezoid_auc(s.tps, s.fps)


LABEL_DUMMY = registry.MetricSpec(
    "true_positive_share", "True-positive share", Task.BINARY, "labels", "higher", (0.0, 1.0), r"T_P / n",
    "Share of rows that are true positives.", "this test", "other", "Threshold metrics", ("threshold",),
    true_positive_share)
SCORE_DUMMY = registry.MetricSpec(
    "auc_by_trapezoid", "ROC AUC (trapezoid)", Task.BINARY, "scores", "higher", (0.0, 1.0), r"\mathrm{AUC}",
    "ROC AUC once more.", "this test", "other", "Ranking", (), auc_by_trapezoid, baseline="scores")
DUMMIES = (LABEL_DUMMY, SCORE_DUMMY)


@pytest.fixture
def registered(monkeypatch):
    """The registry with the two dummies appended (the only change a new metric needs)."""
    monkeypatch.setattr(registry, "REGISTRY", registry.REGISTRY + DUMMIES)
    monkeypatch.setattr(registry, "_INDEX", {**registry._INDEX, **{(m.task, m.key): m for m in DUMMIES}})
    return DUMMIES


def sample_model(model="logistic"):
    data = pd.read_csv(SAMPLE)
    rows = data[data.model == model]
    y = (rows.y_true == "malignant").to_numpy(np.int8)
    yp = (rows.y_pred == "malignant").to_numpy(np.int8)
    return Predictions(Task.BINARY, ("benign", "malignant"), y, yp, rows.score.to_numpy(), model=model), y, yp


def oracle(y, yp, s):
    tn, fp, fn, tp = confusion_matrix(y, yp).ravel()
    return {"true_positive_share": tp / (tn + fp + fn + tp), "auc_by_trapezoid": roc_auc_score(y, s)}


# ------------------------------------------------------------------------------------------------ the dummies


def test_dummies_are_listed_by_the_registry(registered):
    assert {"true_positive_share", "auc_by_trapezoid"} <= set(keys_for(Task.BINARY))
    assert get(Task.BINARY, "auc_by_trapezoid").resampled is None
    assert "true_positive_share" in threshold_metric_keys()       # the Curves page's metric-vs-threshold choices


def test_dummies_get_values_intervals_and_baselines_from_evaluate(registered):
    pred, y, yp = sample_model()
    report = evaluate(pred, ci="bootstrap", n_resamples=300, seed=1)
    expected = oracle(y, yp, pred.scores)
    for key, value in expected.items():
        result = report[key]
        assert result.value == pytest.approx(value, abs=1e-12), key
        assert result.low < result.value < result.high and result.method.startswith("bootstrap"), key
        assert set(result.baselines) == {"majority", "stratified", "uniform"}, key
        assert all(np.isfinite(v) for v in result.baselines.values()), key
    # a constant score ranks nothing: its AUC baseline is 0.5 whatever the strategy
    assert dict(report["auc_by_trapezoid"].baselines) == {"majority": 0.5, "stratified": 0.5, "uniform": 0.5}
    # the majority class (benign) never predicts positive: no true positives
    assert report["true_positive_share"].baselines["majority"] == 0.0


def test_dummy_score_interval_matches_the_resample_formulas_of_roc_auc(registered):
    """The fallback (compute on resampled cumulative counts) and roc_auc's resample formula see the same resamples,
    so their bootstrap intervals agree."""
    pred, _, _ = sample_model("tree")
    report = evaluate(pred, ["roc_auc", "auc_by_trapezoid"], ci="bootstrap", n_resamples=200, seed=3, baselines=False)
    a, b = report["roc_auc"], report["auc_by_trapezoid"]
    assert (b.low, b.high) == pytest.approx((a.low, a.high), abs=1e-12)
    weighted = Predictions(Task.BINARY, pred.classes, pred.y_true, None, pred.scores,
                           weight=np.random.default_rng(0).uniform(0.5, 2.0, pred.y_true.size))
    report = evaluate(weighted, ["roc_auc", "auc_by_trapezoid"], ci="bootstrap", n_resamples=200, seed=3,
                      baselines=False)
    a, b = report["roc_auc"], report["auc_by_trapezoid"]
    assert (b.low, b.high) == pytest.approx((a.low, a.high), abs=1e-12)


def test_dummy_label_metric_against_the_threshold(registered):
    pred, y, _ = sample_model()
    counts = curves.threshold_counts(y, pred.scores)
    curve = metric_vs_threshold(counts, ("true_positive_share",))
    expected = [np.sum(y & (pred.scores >= t)) / y.size for t in counts.thresholds]
    np.testing.assert_allclose(curve["true_positive_share"], expected, rtol=0, atol=1e-15)
    assert curve.labels == ("True-positive share",)


def test_dummy_label_metric_is_offered_by_the_curves_page(registered):
    at = open_app("views/curves.py")
    [chooser] = [m for m in at.multiselect if m.label == "Metrics by threshold"]
    assert "true_positive_share" in chooser.options or "True-positive share" in chooser.options


def test_dummies_reach_the_cli_json(registered, capsys):
    assert cli_main(["metrics", str(SAMPLE)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert cli_main(["metrics", str(SAMPLE), "--ci", "auto"]) == 0
    with_ci = json.loads(capsys.readouterr().out)
    pred, y, yp = sample_model()
    for key, value in oracle(y, yp, pred.scores).items():
        assert doc["models"]["logistic"][key] == pytest.approx(value, abs=1e-12)
        cell = with_ci["models"]["logistic"][key]
        assert cell["low"] < cell["value"] < cell["high"]


def test_dummies_reach_the_exports(registered):
    pred, _, _ = sample_model()
    frame = long_frame({"logistic": evaluate(pred, baselines=False)})
    csv = to_csv_bytes(frame).decode()
    assert "true_positive_share" in csv and "auc_by_trapezoid" in csv


def test_dummies_reach_the_metrics_page(registered):
    at = open_app("views/metrics.py")
    for group, key in (("Threshold metrics", "true_positive_share"), ("Ranking", "auc_by_trapezoid")):
        [choice] = [m for m in at.multiselect if m.label == group]
        assert key in choice.options or get(Task.BINARY, key).name in choice.options
        choice.set_value([*choice.value, key]).run()
        assert not at.exception
    table = at.dataframe[0].value.set_index("key")
    pred, y, yp = sample_model()
    for key, value in oracle(y, yp, pred.scores).items():
        assert table.loc[key, "logistic"].startswith(f"{value:.3f}"), key


def test_dummies_reach_the_invariance_tests(registered):
    assert {"true_positive_share", "auc_by_trapezoid"} <= set(keys_for(Task.BINARY))
    invariance.test_sample_order_does_not_matter(Task.BINARY)
    invariance.test_unit_weights_equal_no_weights(Task.BINARY)
    invariance.test_integer_weights_equal_repeated_rows(Task.BINARY)
    # ... and the classification check names them until they are placed in its classes
    problems = invariance.misclassified(Task.BINARY, metrics_for(Task.BINARY))
    assert "true_positive_share: in no invariance class" in problems
    assert "auc_by_trapezoid: in no invariance class" in problems


# ------------------------------------------------------------------------------------------------ every real entry


@pytest.fixture(scope="module")
def binary_reports():
    pred, _, _ = sample_model()
    return evaluate(pred, ci="bootstrap", n_resamples=100, seed=0)


@pytest.mark.parametrize("spec", metrics_for(Task.BINARY), ids=lambda m: m.key)
def test_every_binary_entry_reaches_every_surface(spec, binary_reports):
    result = binary_reports[spec.key]
    assert np.isfinite(result.value)
    assert set(result.baselines) == {"majority", "stratified", "uniform"}
    if spec.kind == "binned":   # the ECE: never bootstrapped (assess.metrics.calibration_error), and says so
        assert result.method.startswith("simultaneous-clopper-pearson-bins") and "not bootstrapped" in result.note
    elif spec.kind != "count":
        assert result.method and result.method.startswith("bootstrap")
    if spec.needs == "labels" and "threshold" in spec.params:
        assert spec.key in threshold_metric_keys()
    if spec.needs != "labels":
        # a score metric is resampled by its own formula (fast) or by compute on resampled counts — never by name
        assert spec.resampled is None or callable(spec.resampled)
        # beside its point formula: binary.py's resampled_<key>, or that of the metric's own module
        home = sys.modules[spec.compute.__module__]
        assert spec.resampled is getattr(home, f"resampled_{spec.key}", None)


@pytest.mark.parametrize("task", invariance.TASKS)
def test_the_invariance_tests_classify_the_registry(task):
    """The invariance tests check ``keys_for(task)`` — the registry itself, whatever it holds — and every entry is
    in an invariance class (the dummies are not: see test_dummies_reach_the_invariance_tests)."""
    assert invariance.misclassified(task, metrics_for(task)) == []


def test_the_cli_prints_every_binary_entry(capsys):
    assert cli_main(["metrics", str(SAMPLE)]) == 0
    doc = json.loads(capsys.readouterr().out)
    for model in doc["models"].values():
        assert list(model) == list(keys_for(Task.BINARY))


# ------------------------------------------------------------------------------------------- regression / forecast

REGRESSION_SAMPLE = ROOT / "assets/samples/diabetes_regression.csv"


def mean_squared_error_again(s):
    r"""MSE once more, from the state's weighted sum of squared errors: :math:`\sum w e^2 / W`."""
    return s.sum_sq / s.weight_sum


VALUE_DUMMY = registry.MetricSpec(
    "mse_again", "MSE (again)", Task.REGRESSION, "values", "lower", (0.0, float("inf")), r"\frac{1}{W}\sum w e^2",
    "Mean squared error once more.", "this test", "other", "Errors", (), mean_squared_error_again,
    baseline="constant", shared=("sq",))


@pytest.fixture
def registered_value(monkeypatch):
    monkeypatch.setattr(registry, "REGISTRY", registry.REGISTRY + (VALUE_DUMMY,))
    monkeypatch.setattr(registry, "_INDEX", {**registry._INDEX, (Task.REGRESSION, "mse_again"): VALUE_DUMMY})
    return VALUE_DUMMY


def regression_model(model="ridge"):
    rows = pd.read_csv(REGRESSION_SAMPLE).query("model == @model")
    return Predictions(Task.REGRESSION, (), rows.y_true.to_numpy(float), rows.y_pred.to_numpy(float), model=model)


def test_value_dummy_reaches_evaluate_the_bootstrap_baselines_cli_exports_and_page(registered_value, capsys):
    pred = regression_model()
    expected = mean_squared_error(pred.y_true, pred.y_pred)           # scikit-learn, the oracle
    report = evaluate(pred, ci="bootstrap", n_resamples=200, seed=2)
    result = report["mse_again"]
    assert result.value == pytest.approx(expected, rel=1e-12)
    # the same resamples as the real MSE: the same interval
    assert (result.low, result.high) == pytest.approx((report["mse"].low, report["mse"].high), rel=1e-12)
    assert set(result.baselines) == {"mean", "median"}
    assert result.baselines["mean"] == pytest.approx(
        mean_squared_error(pred.y_true, np.full_like(pred.y_true, pred.y_true.mean())), rel=1e-12)
    assert cli_main(["metrics", str(REGRESSION_SAMPLE)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["models"]["ridge"]["mse_again"] == pytest.approx(expected, rel=1e-12)
    assert "mse_again" in to_csv_bytes(long_frame({"ridge": report})).decode()
    at = open_app("views/metrics.py", sample="Diabetes — regression, 3 models, 5 folds")
    [errors] = [m for m in at.multiselect if m.label == "Errors"]
    assert "mse_again" in errors.options or "MSE (again)" in errors.options
    errors.set_value([*errors.value, "mse_again"]).run()
    assert not at.exception
    assert "mse_again" in at.dataframe[0].value["key"].tolist()


FORECAST_SAMPLE = ROOT / "assets/samples/monthly_forecasts.csv"


def test_every_regression_entry_reaches_every_surface(capsys):
    report = evaluate(regression_model(), ci="bootstrap", n_resamples=100, seed=0)
    assert report.keys == keys_for(Task.REGRESSION)
    for spec in metrics_for(Task.REGRESSION):
        result = report[spec.key]
        assert np.isfinite(result.value), spec.key
        assert set(result.baselines) == {"mean", "median"}, spec.key
        if spec.kind == "maximum":          # no interval of a maximum (the note says why)
            assert result.method is None and "bootstrap of a maximum" in result.note, spec.key
            continue
        assert result.method.startswith("bootstrap") and result.low <= result.value <= result.high, spec.key
    assert cli_main(["metrics", str(REGRESSION_SAMPLE)]) == 0
    doc = json.loads(capsys.readouterr().out)
    for model in doc["models"].values():
        assert list(model) == list(keys_for(Task.REGRESSION))


def forecast_model(model="ets"):
    from assess.inputs.assessment import describe
    from assess.inputs.read import read_table
    return describe(read_table(str(FORECAST_SAMPLE))).predictions(model)


def test_every_forecast_entry_reaches_every_surface(capsys):
    """The forecast sample has time stamps, series, horizons and a 90 % interval: every entry is defined, gets a
    block-bootstrap interval and reaches the CLI, pooled and per horizon / series."""
    report = evaluate(forecast_model(), ci="bootstrap", n_resamples=100, seed=0)
    assert report.keys == keys_for(Task.FORECAST)
    for spec in metrics_for(Task.FORECAST):
        result = report[spec.key]
        assert np.isfinite(result.value), spec.key
        if spec.kind == "maximum":          # no interval of a maximum (the note says why)
            assert result.method is None and "bootstrap of a maximum" in result.note, spec.key
            continue
        assert result.method.startswith("block bootstrap") and result.low <= result.value <= result.high, spec.key
        with_baselines = spec.needs == "values" and "skill" not in spec.shared
        assert set(result.baselines) == ({"naive", "seasonal_naive", "drift"} if with_baselines else set()), spec.key
    assert cli_main(["metrics", str(FORECAST_SAMPLE)]) == 0
    doc = json.loads(capsys.readouterr().out)
    for model in doc["models"]:
        assert list(doc["models"][model]) == list(keys_for(Task.FORECAST))
        assert all(list(v) == list(keys_for(Task.FORECAST)) for v in doc["by_horizon"][model].values())
        assert all(list(v) == list(keys_for(Task.FORECAST)) for v in doc["by_series"][model].values())


def test_interval_entries_appear_only_with_an_interval():
    """``needs="intervals"`` entries are left out, like score metrics without scores, when lower/upper are absent."""
    from dataclasses import replace
    needs_interval = {m.key for m in metrics_for(Task.FORECAST) if m.needs == "intervals"}
    assert needs_interval == {"coverage", "interval_width", "winkler_score", "pinball_loss"}
    report = evaluate(replace(forecast_model(), lower=None, upper=None))
    assert set(report.keys) == set(keys_for(Task.FORECAST)) - needs_interval
