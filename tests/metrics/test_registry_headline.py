"""`registry.headline` and `registry.applicable`: one home for "which metric leads" and "which metrics this file can
ask", checked against hand-written expectations and against every surface that picks a metric by default."""

import argparse

import pytest

from assess.core.data import Task
from assess.core.decision import Decision
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.metrics import registry
from assess.metrics.registry import applicable, applicable_to, headline, headline_of
from tests.conftest import ROOT

SAMPLES = ROOT / "assets" / "samples"

#: Written by hand from the brief: ROC AUC for binary scores, else accuracy; micro F1; MAE; adjusted Rand index.
EXPECTED = {(Task.BINARY, True): "roc_auc", (Task.BINARY, False): "accuracy", (Task.MULTICLASS, True): "accuracy",
            (Task.MULTICLASS, False): "accuracy", (Task.MULTILABEL, True): "f1_micro",
            (Task.MULTILABEL, False): "f1_micro", (Task.REGRESSION, False): "mae", (Task.FORECAST, False): "mae",
            (Task.CLUSTERING, False): "adjusted_rand_index"}


@pytest.mark.parametrize(("task", "has_scores"), list(EXPECTED))
def test_headline_per_task(task, has_scores):
    assert headline(task, has_scores=has_scores) == EXPECTED[task, has_scores]


def test_applicable_per_task_by_hand():
    binary_labels = {m.key for m in applicable(Task.BINARY, has_scores=False)}
    binary_scores = {m.key for m in applicable(Task.BINARY, has_scores=True)}
    assert {"accuracy", "f1", "tp"} <= binary_labels and not {"roc_auc", "log_loss", "brier_score"} & binary_labels
    assert binary_scores - binary_labels == {"roc_auc", "average_precision", "pr_auc", "ks_statistic", "log_loss",
                                             "brier_score", "ece"}
    forecast = {m.key for m in applicable(Task.FORECAST, has_scores=False)}
    with_interval = {m.key for m in applicable(Task.FORECAST, has_scores=False, has_intervals=True)}
    assert with_interval - forecast == {"coverage", "interval_width", "winkler_score", "pinball_loss"}
    assert [m.key for m in applicable(Task.REGRESSION, has_scores=True)] == list(registry.keys_for(Task.REGRESSION))
    # clustering keeps every index: what the file lacks is null with its reason in the report
    assert [m.key for m in applicable(Task.CLUSTERING, has_scores=False)] == list(registry.keys_for(Task.CLUSTERING))
    multiclass = {m.key for m in applicable(Task.MULTICLASS, has_scores=False)}
    assert "accuracy" in multiclass and not {"roc_auc_ovr", "top_k_accuracy", "log_loss"} & multiclass


@pytest.fixture(scope="module")
def files():
    return {name: describe(read_table(SAMPLES / name)) for name in
            ("breast_cancer_latency.csv", "diabetes_regression.csv", "wine_multiclass.csv")}


def test_every_surface_picks_the_headline(files, monkeypatch):
    """The significance tests' bootstrap, the cost trade-off (CLI and report) and the report's recommendation all
    lead with `headline` of the file: a surface with a table of its own fails here."""
    from assess.cli import cost_section
    from assess.present.report import costs, model
    from assess.stats.compare import default_metric

    for task, has_scores in EXPECTED:
        assert default_metric(task, has_scores)[0] == EXPECTED[task, has_scores]

    binary = files["breast_cancer_latency.csv"]
    assert headline_of(binary) == "roc_auc" and headline_of(files["diabetes_regression.csv"]) == "mae"
    asked = []
    monkeypatch.setattr(costs.cost, "headline", lambda a, c, *, metric, **kw: asked.append(metric))
    costs.running_costs(binary, binary.models, decision=Decision(), confidence_level=0.95, n_resamples=100, seed=0)
    args = argparse.Namespace(cost_metric=None, cost_table=None, confidence_level=0.95, n_resamples=100, seed=0,
                              ci=None)
    try:
        cost_section.section(binary, args, {m: None for m in binary.models}, None)
    except Exception:   # the section goes on to compute; only the metric it chose matters here
        pass
    assert asked[:2] == ["roc_auc", "roc_auc"]

    ranked = []

    def recommend(assessment, reports, primary, comparison, options):
        ranked.append(primary)
        return model.Recommendation("", True, None)
    monkeypatch.setattr(model, "_recommend", recommend)
    for name in ("breast_cancer_latency.csv", "wine_multiclass.csv"):
        a = files[name]
        model.build_report(a, model.ReportOptions(charts=False, tests=(), n_resamples=100))
        assert ranked[-1] == headline_of(a)


def test_applicable_to_a_file(files):
    wine = files["wine_multiclass.csv"]
    assert applicable_to(wine) == applicable(Task.MULTICLASS, has_scores=wine.predictions().scores is not None)


def test_the_slice_tests_lead_with_the_headline_a_slice_can_test():
    """One home for the slice tests' default metric too (it was a table of its own in assess.analyses.slices): the
    headline without scores, except multi-label, whose micro F1 is no proportion or mean of per-row losses."""
    expected = {Task.BINARY: "accuracy", Task.MULTICLASS: "accuracy", Task.MULTILABEL: "hamming_loss",
                Task.REGRESSION: "mae", Task.FORECAST: "mae", Task.CLUSTERING: None}
    assert {task: registry.slice_test_metric(task) for task in expected} == expected
    for task in (Task.BINARY, Task.MULTICLASS, Task.REGRESSION, Task.FORECAST):
        assert registry.slice_test_metric(task) == registry.headline(task, has_scores=False)
