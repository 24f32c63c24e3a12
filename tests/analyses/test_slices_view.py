"""`assess.analyses.slices_view`: the Slices page's sentences and tables against scikit-learn on a hand-made file."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score

from assess.analyses.slices import analyse_slices
from assess.analyses.slices_view import fairness_view, metric_choices, slice_report
from assess.core.data import Task
from assess.core.decision import Decision
from assess.core.formatting import number
from assess.inputs.assessment import describe
from assess.inputs.read import read_table


@pytest.fixture(scope="module")
def data():
    # region "north" is predicted far worse than "south" and "east" by model a; model b errs evenly
    rng = np.random.default_rng(11)
    n = 300
    region = np.array(["north", "south", "east"])[np.arange(n) % 3]
    y = rng.integers(0, 2, n)
    wrong_a = rng.random(n) < np.where(region == "north", 0.45, 0.05)
    wrong_b = rng.random(n) < 0.2
    # "site": one value in model a's rows, two in model b's
    frame = pd.concat([pd.DataFrame({"model": m, "id": range(n), "region": region, "site": site, "y_true": y,
                                     "y_pred": np.where(w, 1 - y, y)})
                       for m, w, site in (("a", wrong_a, "x"), ("b", wrong_b, np.where(y == 1, "y", "z")))])
    return frame


@pytest.fixture(scope="module")
def assessment(data, tmp_path_factory):
    path = tmp_path_factory.mktemp("slices") / "regions.csv"
    data.to_csv(path, index=False)
    return describe(read_table(path))


def test_worst_slice_sentence_and_table_match_sklearn(data, assessment):
    analysis = analyse_slices(assessment, ["region"], keys=["accuracy"], test_keys=["accuracy"])
    report = slice_report(analysis, Task.BINARY, "a", "accuracy", 30)
    rows = data[data.model == "a"]
    overall = accuracy_score(rows.y_true, rows.y_pred)
    north = rows[rows.region == "north"]
    assert report.overall == pytest.approx(overall)
    # the model named as one (a model called "1" never reads "slices of 1"), the metric lower-cased mid-sentence
    assert report.worst.startswith(f"Worst slices of model a by accuracy (all rows: {number(overall)}): north ")
    # only slices below all rows are named, north first
    named = [s for s in ("north", "south", "east") if f"{s} " in report.worst]
    assert named[0] == "north" and "south" not in named and "east" not in named
    shown = report.table.set_index("Slice")
    assert shown.loc["north", "Rows"] == f"{len(north):,}"
    assert shown.loc["north", "Accuracy"] == number(accuracy_score(north.y_true, north.y_pred))
    assert set(report.every_worst["Model"]) == {"a", "b"}
    assert report.omnibus is not None and "across the 3 tested slices" in report.omnibus


def test_slices_under_the_minimum_size_are_not_tested(assessment):
    analysis = analyse_slices(assessment, ["region"], keys=["accuracy"], test_keys=["accuracy"], min_size=500)
    report = slice_report(analysis, Task.BINARY, "a", "accuracy", 500)
    assert set(report.table["Test"]) == {"not tested (under 500 rows)"}


def test_score_metrics_only_with_scores(assessment):
    choices = metric_choices(assessment)
    assert "accuracy" in choices and "roc_auc" not in choices


def test_fairness_needs_two_groups(assessment):
    report = fairness_view(assessment, "a", "region", Decision(), 0.95)
    assert report is not None and len(report.by_group) == 3
    assert fairness_view(assessment, "a", "site", Decision(), 0.95) is None    # one group: no gap to state
    assert fairness_view(assessment, "b", "site", Decision(), 0.95) is not None


def test_the_page_and_the_cli_give_the_same_fairness_gaps_and_slice_intervals(data, tmp_path, capsys):
    """One function behind both surfaces: the page's fairness table and per-slice intervals are the CLI JSON's."""
    import json

    from assess.analyses.slices_view import fairness_table
    from assess.cli import main
    path = tmp_path / "f.csv"
    data.to_csv(path, index=False)
    assert main(["metrics", str(path), "--models", "a", "--metrics", "accuracy", "--slice", "region",
                 "--ci", "auto"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assessment = describe(read_table(path))
    page = fairness_view(assessment, "a", "region", Decision(), 0.95)
    for rec in page.gaps.to_dict("records"):
        cli = doc["fairness"]["a"]["gaps"][rec["key"]]
        assert (cli["value"], cli["low"], cli["high"]) == (rec["value"], rec["low"], rec["high"])
        assert cli["method"] == str(rec["method"]) and cli["note"] == rec["note"]
    table = fairness_table(page)
    assert list(table.columns) == ["Gap", "Value", "Interval", "Interval method", "Near no gap"]
    assert table["Interval method"].str.startswith(("Newcombe", "Log-scale MOVER")).all()
    analysis = analyse_slices(assessment, ["region"], models=["a"], keys=["accuracy"], test_keys=["accuracy"],
                              ci="auto")
    for rec in analysis.metrics.to_dict("records"):
        cli = doc["slices"]["by_model"]["a"][rec["slice"]]["metrics"]["accuracy"]
        assert (cli["low"], cli["high"], cli["method"]) == (rec["low"], rec["high"], rec["method"])


def test_the_slice_table_says_how_each_interval_was_computed(assessment):
    """The per-slice intervals are the layer's on each slice's rows, and the table names the method (Wilson here)."""
    analysis = analyse_slices(assessment, ["region"], keys=["accuracy"], test_keys=["accuracy"], ci="auto")
    table = slice_report(analysis, Task.BINARY, "a", "accuracy", 30).table
    assert set(table["Interval method"]) == {"Wilson score"}
