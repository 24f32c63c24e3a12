"""The report's "Where the models fail" section: each model's worst slice of the file's subgroup columns, as the
Slices page finds it. Oracle: scikit-learn's accuracy_score and mean_absolute_error per group of the same rows."""

import io
import json
import zipfile

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score, mean_absolute_error

from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.present.report import ReportOptions, build_report, render_html, render_zip

OPTIONS = ReportOptions(ci="", n_resamples=100, charts=False)


def binary_with_groups(n=900, seed=5) -> pd.DataFrame:
    """Two models; model `a` guesses in region "<b>North</b>" (a name with markup, which must stay text)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    group = rng.choice(["<b>North</b>", "South", "East"], n)
    a = np.where(group == "<b>North</b>", rng.integers(0, 2, n), np.where(rng.random(n) < 0.9, y, 1 - y))
    b = np.where(rng.random(n) < 0.8, y, 1 - y)
    return pd.DataFrame({"id": np.tile(np.arange(n), 2), "model": np.repeat(["a", "b"], n),
                         "y_true": np.tile(y, 2), "y_pred": np.concatenate([a, b]), "group": np.tile(group, 2)})


def report_of(frame: pd.DataFrame):
    return build_report(describe(read_table(frame.to_csv(index=False).encode(), name="f.csv")), OPTIONS)


def test_each_models_worst_slice_by_accuracy_with_the_file_rows():
    frame = binary_with_groups()
    report = report_of(frame)
    assert report.slices is not None and report.slices.columns == ("group",) and report.slices.name == "Accuracy"
    for row in report.slices.rows:
        rows = frame[frame.model == row["model"]]
        by_group = {g: accuracy_score(r.y_true, r.y_pred) for g, r in rows.groupby("group")}
        worst = min(by_group, key=by_group.get)
        assert row["slice"] == worst and row["n"] == int((rows.group == worst).sum())
        assert row["value"] == pytest.approx(by_group[worst], abs=1e-12)
        assert row["overall"] == pytest.approx(accuracy_score(rows.y_true, rows.y_pred), abs=1e-12)
    first = report.slices.rows[0]
    assert first["model"] == "a" and first["slice"] == "<b>North</b>" and first["p_adjusted"] < 0.05

    html = render_html(report)
    assert "Where the models fail" in html and "&lt;b&gt;North&lt;/b&gt;" in html and "<b>North</b>" not in html
    assert "worst slice of group by accuracy, beside" in html   # the walk: "by Accuracy" mid-sentence
    document = json.loads(zipfile.ZipFile(io.BytesIO(render_zip(report))).read("report.json"))
    assert [w["slice"] for w in document["slices"]["worst"]] == [r["slice"] for r in report.slices.rows]
    assert "worst_slices.csv" in zipfile.ZipFile(io.BytesIO(render_zip(report))).namelist()


def test_regression_worst_slice_is_the_largest_mean_absolute_error():
    rng = np.random.default_rng(2)
    n = 600
    group = rng.choice(["x", "y", "z"], n)
    y = rng.normal(size=n)
    frame = pd.DataFrame({"y_true": y, "y_pred": y + rng.normal(scale=np.where(group == "y", 2.0, 0.5)),
                          "group": group})
    [row] = report_of(frame).slices.rows
    by_group = {g: mean_absolute_error(r.y_true, r.y_pred) for g, r in frame.groupby("group")}
    assert row["slice"] == max(by_group, key=by_group.get) == "y"
    assert row["value"] == pytest.approx(by_group["y"], rel=1e-12)


def test_a_file_without_subgroups_has_no_section():
    frame = binary_with_groups().drop(columns="group")
    report = report_of(frame)
    assert report.slices is None and "Where the models fail" not in render_html(report)


def test_without_declared_subgroups_the_report_slices_as_the_slices_page_opens():
    """A column named `region` is no declared subgroup (a `group` column is): the report takes the column the Slices
    page opens with — the first with 2 to 100 values and no role of its own, so not the `fold` column before it —
    and says so."""
    frame = binary_with_groups().rename(columns={"group": "region"})
    frame.insert(0, "fold", np.tile(np.arange(900) % 5, 2))
    assessment = describe(read_table(frame.to_csv(index=False).encode(), name="f.csv"))
    assert assessment.roles.fold == "fold" and not assessment.roles.groups
    report = build_report(assessment, OPTIONS)
    assert report.slices is not None and report.slices.columns == ("region",) and not report.slices.declared
    for row in report.slices.rows:
        rows = frame[frame.model == row["model"]]
        by_region = {g: accuracy_score(r.y_true, r.y_pred) for g, r in rows.groupby("region")}
        assert row["slice"] == min(by_region, key=by_region.get)
        assert row["value"] == pytest.approx(min(by_region.values()), abs=1e-12)
    html = render_html(report)
    assert "No subgroups were declared, so the slices are the values of ‘region’" in html
    document = json.loads(zipfile.ZipFile(io.BytesIO(render_zip(report))).read("report.json"))
    assert document["slices"]["declared"] is False and document["slices"]["columns"] == ["region"]


def test_a_declared_subgroup_is_not_announced_as_chosen():
    report = report_of(binary_with_groups())
    assert report.slices.declared and "No subgroups were declared" not in render_html(report)


def test_slices_found_without_being_told_stand_beside_the_declared_ones():
    """The file declares no subgroup, yet model `a` guesses where region is "<b>North</b>" and size is large: the
    search finds that slice first; its value is scikit-learn's accuracy on those rows, and it stays text."""
    rng = np.random.default_rng(9)
    n = 3000
    y = rng.integers(0, 2, n)
    region = rng.choice(["<b>North</b>", "South", "East"], n)
    size = rng.uniform(0, 100, n).round(2)
    weak = (region == "<b>North</b>") & (size >= np.quantile(size, 0.8))
    pred = np.where(weak, rng.integers(0, 2, n), np.where(rng.random(n) < 0.9, y, 1 - y))
    frame = pd.DataFrame({"y_true": y, "y_pred": pred, "region": region, "size": size})
    report = report_of(frame)
    first = report.found.rows[0]
    low, high = np.quantile(size, [0.8, 1.0])
    assert first["slice"] == f"region = <b>North</b> and size = [{low:.4g}, {high:.4g}]"
    assert first["value"] == pytest.approx(accuracy_score(y[weak], pred[weak]), abs=1e-12)
    assert first["n"] == int(weak.sum()) and first["p_adjusted"] < 0.05
    html = render_html(report)
    assert "Slices found without being told" in html and "region = &lt;b&gt;North&lt;/b&gt; and size" in html
    archive = zipfile.ZipFile(io.BytesIO(render_zip(report)))
    assert "found_slices.csv" in archive.namelist()
    assert json.loads(archive.read("report.json"))["found_slices"]["found"][0]["slice"] == first["slice"]
