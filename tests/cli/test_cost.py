"""`python -m assess metrics` with cost columns or a cost table: the ``cost``, ``efficiency`` and ``cost_headline``
entries, checked against numpy and scikit-learn; bad cost input exits 2 with one line naming the column and row."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score

from assess.cli import main

ROOT = Path(__file__).resolve().parents[2]
LATENCY = str(ROOT / "assets/samples/breast_cancer_latency.csv")
BINARY = str(ROOT / "assets/samples/breast_cancer_binary.csv")


def run_json(capsys, *argv):
    assert main(["metrics", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_cost_section_from_latency_columns(capsys):
    doc = run_json(capsys, LATENCY, "--metrics", "accuracy", "--cost-metric", "accuracy", "--resamples", "200")
    data = pd.read_csv(LATENCY)
    assert list(doc["cost"]) == ["logistic", "tree", "forest_300", "naive_bayes"]
    for model, rows in data.groupby("model"):
        per_sample = rows.latency_ms / rows.batch_size
        got = doc["cost"][model]
        assert set(got) == {"latency_mean_ms", "latency_p50_ms", "latency_p95_ms", "latency_p99_ms",
                            "throughput_per_s"}                      # no energy: none was measured
        assert got["latency_p95_ms"]["value"] == pytest.approx(np.percentile(per_sample, 95))
        assert got["latency_mean_ms"]["low"] <= got["latency_mean_ms"]["value"] <= got["latency_mean_ms"]["high"]
        acc = accuracy_score(rows.y_true, rows.y_pred)
        assert doc["efficiency"][model]["accuracy_per_ms"] == pytest.approx(acc / per_sample.mean())
        assert doc["efficiency"][model]["accuracy_per_j"] is None
    assert "more accurate (95% CI " in doc["cost_headline"]


def test_no_cost_section_without_cost_columns(capsys):
    doc = run_json(capsys, BINARY, "--metrics", "accuracy")
    assert "cost" not in doc and "cost_headline" not in doc


def test_cost_table_option(capsys, tmp_path):
    table = tmp_path / "timings.csv"
    pd.DataFrame({"model": ["logistic", "logistic", "tree"], "latency_ms": [4.0, 6.0, 1.0], "batch_size": [2, 2, 1],
                  "energy_j": [1.0, 1.0, 0.1]}).to_csv(table, index=False)
    doc = run_json(capsys, BINARY, "--metrics", "accuracy", "--cost-table", str(table), "--resamples", "100")
    assert doc["cost"]["logistic"]["latency_mean_ms"]["value"] == pytest.approx(2.5)
    assert doc["cost"]["logistic"]["energy_per_sample_j"]["value"] == pytest.approx(0.5)
    assert "naive_bayes_3f" not in doc["cost"]


@pytest.mark.parametrize("frame, message", [
    (pd.DataFrame({"model": ["logistic"], "latency_ms": [-3.0]}), "timings.csv: column `latency_ms` has 1 value that "
                                                                   "is negative"),
    (pd.DataFrame({"model": ["gpt"], "latency_ms": [3.0]}), "model 'gpt' is not a model of"),
])
def test_bad_cost_table_exits_2_with_one_line(capsys, tmp_path, frame, message):
    table = tmp_path / "timings.csv"
    frame.to_csv(table, index=False)
    assert main(["metrics", BINARY, "--metrics", "accuracy", "--cost-table", str(table)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_headline_that_cannot_be_made_leaves_the_costs_and_says_why(capsys, tmp_path):
    """Two multi-label models scored against different truths: no paired comparison, but the costs stand."""
    path = tmp_path / "ml.csv"
    pd.DataFrame({"model": ["a"] * 4 + ["b"] * 4, "id": [1, 2, 3, 4] * 2,
                  "y_true": ["x|y", "y", "x", "y", "x", "y", "x", "x|y"], "y_pred": ["x", "y", "x|y", "y"] * 2,
                  "latency_ms": [1.0, 2.0, 3.0, 4.0, 2.0, 2.0, 2.0, 2.0]}).to_csv(path, index=False)
    doc = run_json(capsys, str(path), "--resamples", "100")
    assert doc["cost"]["a"]["latency_mean_ms"]["value"] == pytest.approx(2.5)
    assert doc["cost_headline"] is None and "different y_true" in doc["cost_headline_reason"]
    # the task's headline metric (registry.headline: the micro F1 for multi-label) is weighed against the cost
    assert set(doc["efficiency"]["a"]) == {"f1_micro_per_ms", "f1_micro_per_j"}


def test_the_cli_and_the_cost_page_give_the_same_intervals_and_methods(capsys):
    """One function behind both: the CLI's cost JSON is the Cost page's `model_costs`, interval and method."""
    from assess.analyses.cost_view import model_costs
    from assess.inputs.assessment import describe
    from assess.inputs.read import read_table
    doc = run_json(capsys, LATENCY, "--metrics", "accuracy")
    page = model_costs(describe(read_table(LATENCY)))
    for model, c in page.items():
        for e in c.estimates:
            got = doc["cost"][model][e.key]
            assert (got["low"], got["high"], got["method"]) == (e.low, e.high, e.method), (model, e.key)
    assert doc["cost"]["tree"]["latency_p95_ms"]["method"].startswith("order-statistic")
