"""The Metrics page's view model (assess/present/metrics_view.py): its JSON download is the document of
``python -m assess metrics`` for the same file and settings (one builder, assess/metrics/document.py), and its interval
choices are named by the interval methods' own words."""

import json

import pytest

from assess.cli import main
from assess.core.data import Task
from assess.core.decision import SCORES, Decision
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.intervals.interval import METHOD_NAMES
from assess.metrics.document import MetricsSettings, compute_metrics, forecast_breakdowns
from assess.present import metrics_view as mv
from tests.conftest import ROOT

SAMPLES = ROOT / "assets" / "samples"


def page_json(path, settings):
    """What the page's "Metrics JSON" button downloads, made as the page makes it."""
    a = describe(read_table(path))
    computed = compute_metrics(a, settings)
    breakdowns = forecast_breakdowns(a, settings, settings.models) if a.task is Task.FORECAST else None
    return json.loads(mv.metrics_view(a, settings, computed, output=None, breakdowns=breakdowns).json)


def cli_json(capsys, *argv):
    assert main(["metrics", *map(str, argv), "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_page_downloads_the_command_lines_document_binary(capsys):
    path = SAMPLES / "breast_cancer_binary.csv"
    models = tuple(describe(read_table(path)).models)
    keys = ("accuracy", "precision", "recall", "f1", "fbeta", "roc_auc", "brier_score")
    settings = MetricsSettings(models, keys, Decision(SCORES, 0.4), beta=2.0, ci="auto", confidence_level=0.9,
                               n_resamples=200, seed=3)
    cli = cli_json(capsys, path, "--metrics", *keys, "--models", *models, "--threshold", 0.4, "--beta", 2,
                   "--ci", "auto", "--confidence-level", 0.9, "--resamples", 200, "--seed", 3)
    page = page_json(path, settings)
    assert page == cli
    assert cli["settings"]["threshold"] == 0.4 and cli["settings"]["beta"] == 2.0 and set(cli) >= {"task", "n",
                                                                                                   "models"}


def test_the_page_downloads_the_command_lines_document_forecast(capsys):
    path = SAMPLES / "monthly_forecasts.csv"
    models = tuple(describe(read_table(path)).models)
    keys = ("mae", "rmse", "mase")
    settings = MetricsSettings(models, keys, ci="auto", n_resamples=100, seed=1, season=6)
    cli = cli_json(capsys, path, "--metrics", *keys, "--models", *models, "--ci", "auto", "--resamples", 100,
                   "--seed", 1, "--season", 6)
    page = page_json(path, settings)
    assert page == cli and page["by_horizon"] is not None


def test_interval_choices_are_named_by_the_interval_methods():
    binary = mv.interval_choices(Task.BINARY).choices
    assert {"Wilson score", "Clopper–Pearson exact", "Normal approximation", "Bootstrap percentile",
            "Bootstrap BCa"} <= set(binary)
    for label, (ci, method) in binary.items():
        key = {"bootstrap": f"bootstrap-{method}"}.get(ci, ci)
        if ci not in (None, "auto"):
            assert label.startswith(METHOD_NAMES[key])
    assert list(mv.interval_choices(Task.FORECAST).choices) == ["auto (block bootstrap)", "none"]


@pytest.mark.parametrize("name", ["wine_multiclass.csv", "diabetes_regression.csv"])
def test_questions_follow_the_file(name):
    a = describe(read_table(SAMPLES / name))
    asks = mv.questions(a)
    first = a.predictions()
    assert asks.has_scores == (first.scores is not None) and asks.values_task == (a.task is Task.REGRESSION)
    assert all(s.task is a.task for s in asks.specs) and asks.defaults <= {s.key for s in asks.specs} | {
        "top_k_accuracy", "roc_auc_ovr", "log_loss", "brier_score"}


def test_a_large_files_closed_form_intervals_come_before_its_bootstrap():
    """The page's second pass (ui/metrics_widgets.values_first): the chosen metrics whose auto interval is a formula —
    Wilson for accuracy, DeLong for ROC AUC — and not the KS statistic (bootstrapped) or a count (no interval);
    merged into the values, accuracy carries statsmodels' Wilson interval and the KS statistic none yet. (Average
    precision is no longer the example: on mostly distinct scores it has a delta-method interval.)"""
    from statsmodels.stats.proportion import proportion_confint

    a = describe(read_table(SAMPLES / "breast_cancer_binary.csv"))
    keys = ("tp", "accuracy", "roc_auc", "ks_statistic")
    settings = MetricsSettings(tuple(a.models), keys, ci="auto", n_resamples=200)
    assert mv.closed_form_keys(a, settings) == ("accuracy", "roc_auc")
    assert mv.closed_form_keys(a, MetricsSettings(tuple(a.models), keys, ci="bootstrap")) == ()   # all resampled
    assert mv.closed_form_keys(a, MetricsSettings(tuple(a.models), ("accuracy",), ci="auto")) == ()  # none is

    values = compute_metrics(a, MetricsSettings(tuple(a.models), keys))
    first = compute_metrics(a, MetricsSettings(tuple(a.models), ("accuracy", "roc_auc"), ci="auto"))
    merged = mv.with_intervals(values, first)
    for model, report in merged.items():
        assert report.keys == keys
        p = a.predictions(model)
        correct = int(((p.scores >= 0.5).astype(int) == p.y_true).sum())
        low, high = proportion_confint(correct, len(p.y_true), alpha=0.05, method="wilson")
        assert report["accuracy"].value == pytest.approx(correct / len(p.y_true))
        assert (report["accuracy"].low, report["accuracy"].high) == pytest.approx((low, high))
        assert report["roc_auc"].low < report["roc_auc"].value < report["roc_auc"].high
        ks = report["ks_statistic"]
        assert ks.value == values[model]["ks_statistic"].value and not ks.low == ks.low   # NaN: not yet
