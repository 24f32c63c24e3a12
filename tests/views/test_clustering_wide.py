"""Wide clustering files (issue 10: "one column per clustering to compare"): columns ``cluster_<name>`` are the
clusterings, each assessed from its own column.

Oracles: the long-format iris sample itself (the same clusterings one row per sample and model, pivoted with pandas
into one column per clustering: every index must come out identical), scikit-learn's ``adjusted_rand_score`` and
``silhouette_score`` per column, and pandas' own ``isna`` / ``nunique`` for the per-column checks.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

from assess.cli import main
from assess.core.data import Task
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.inputs.roles import Overrides, WideModel
from assess.metrics import evaluate
from tests.conftest import ROOT, open_app

LONG = ROOT / "assets/samples/iris_clustering.csv"
FEATURES = ["x_sepal_length", "x_sepal_width", "x_petal_length", "x_petal_width"]


def wide_from_long(long: pd.DataFrame) -> pd.DataFrame:
    """One row per sample: the species and features once, each model's clusters in its column ``cluster_<model>``."""
    clusters = long.pivot(index="id", columns="model", values="cluster").add_prefix("cluster_")
    per_sample = long.drop_duplicates("id").set_index("id")[["y_true", *FEATURES]]
    return per_sample.join(clusters).reset_index()


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    long = pd.read_csv(LONG)
    wide = wide_from_long(long)
    path = tmp_path_factory.mktemp("wide") / "iris_wide.csv"
    wide.to_csv(path, index=False)
    return long, wide, path


def assess_frame(tmp_path, frame: pd.DataFrame, overrides: Overrides | None = None):
    path = tmp_path / "clusterings.csv"
    frame.to_csv(path, index=False)
    return describe(read_table(path), overrides)


def test_brief_example_is_two_clusterings(tmp_path):
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"y_true": rng.choice(list("abc"), 30), "cluster_kmeans": rng.integers(0, 3, 30),
                          "cluster_ward": rng.integers(0, 3, 30), "x_1": rng.normal(size=30),
                          "x_2": rng.normal(size=30)})
    a = assess_frame(tmp_path, frame)
    assert a.task is Task.CLUSTERING
    assert a.models == ("kmeans", "ward")
    assert a.roles.wide_models == (WideModel("kmeans", "cluster_kmeans", clustering=True),
                                   WideModel("ward", "cluster_ward", clustering=True))
    assert a.roles.features == ("x_1", "x_2") and a.roles.y_true == "y_true"
    assert not a.errors
    [row] = [r for r in a.roles.table() if r["role"] == "wide_models"]
    assert row["columns"] == ["cluster_kmeans", "cluster_ward"]
    for model in a.models:
        column = frame[f"cluster_{model}"]
        got = evaluate(a.predictions(model), ["adjusted_rand_index"]).values["adjusted_rand_index"]
        assert got == pytest.approx(skm.adjusted_rand_score(frame.y_true, column))


def test_wide_metrics_equal_the_long_files_and_scikit_learn(files):
    long, wide, path = files
    wide_a, long_a = describe(read_table(path)), describe(read_table(LONG))
    assert wide_a.task is Task.CLUSTERING
    assert set(wide_a.models) == set(long_a.models) == {"kmeans", "agglomerative", "gaussian_mixture"}
    for model in long_a.models:
        got = evaluate(wide_a.predictions(model), baselines=False).values
        want = evaluate(long_a.predictions(model), baselines=False).values
        assert got.keys() == want.keys()
        for key in want:
            assert got[key] == pytest.approx(want[key], nan_ok=True), (model, key)
        column = wide[f"cluster_{model}"]
        assert got["adjusted_rand_index"] == pytest.approx(skm.adjusted_rand_score(wide.y_true, column))
        assert got["silhouette"] == pytest.approx(skm.silhouette_score(wide[FEATURES], column))


def test_cli_metrics_json_has_every_clustering(files, capsys):
    _, wide, path = files
    assert main(["metrics", str(path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["task"] == "clustering"
    assert set(doc["models"]) == {"kmeans", "agglomerative", "gaussian_mixture"}
    for model, values in doc["models"].items():
        assert values["adjusted_rand_index"] == pytest.approx(
            skm.adjusted_rand_score(wide.y_true, wide[f"cluster_{model}"]))


def test_each_column_is_checked_on_its_own(tmp_path):
    rng = np.random.default_rng(2)
    n = 40
    frame = pd.DataFrame({"y_true": rng.choice(list("ab"), n), "cluster_fine": rng.integers(0, 3, n).astype(float),
                          "cluster_holes": rng.integers(0, 3, n).astype(float), "cluster_one": np.zeros(n)})
    frame.loc[[4, 9], "cluster_holes"] = np.nan
    a = assess_frame(tmp_path, frame)
    assert a.task is Task.CLUSTERING and a.models == ("fine", "holes", "one")
    missing = [p for p in a.errors if p.code == "missing_values"]
    assert [(p.column, p.count) for p in missing] == [("cluster_holes", int(frame.cluster_holes.isna().sum()))]
    assert "(first at row 5)" in missing[0].message           # data row 5 (index 4): rows counted from 1
    single = [p for p in a.warnings if p.code == "single_cluster"]
    assert [(p.column, p.count) for p in single] == [("cluster_one", n)]
    assert "model `one` puts every row in one cluster" in single[0].message


def test_what_is_no_wide_clustering(tmp_path):
    rng = np.random.default_rng(3)
    n = 20
    # a lone cluster_<name> column is no family
    lone = assess_frame(tmp_path, pd.DataFrame({"y_true": rng.choice(list("ab"), n),
                                                "cluster_kmeans": rng.integers(0, 2, n),
                                                "y_pred": rng.choice(list("ab"), n)}))
    assert not lone.roles.wide_clusterings and lone.task is Task.BINARY
    # decimals are no cluster assignment: cluster_distance is left out
    frame = pd.DataFrame({"cluster_a": rng.integers(0, 3, n), "cluster_b": rng.integers(0, 3, n),
                          "cluster_distance": rng.random(n)})
    a = assess_frame(tmp_path, frame)
    assert a.models == ("a", "b") and "cluster_distance" not in a.roles.used_columns()
    # a classifier's file with cluster_* columns of its own stays a classification
    scored = assess_frame(tmp_path, frame.assign(y_true=rng.choice(list("ab"), n), y_pred=rng.choice(list("ab"), n)))
    assert scored.task is Task.BINARY and not scored.roles.wide_models
    # a long file keeps its `cluster` column; cluster_size is not a second clustering
    long = assess_frame(tmp_path, pd.DataFrame({"cluster": rng.integers(0, 3, n), "cluster_size": [5] * n,
                                                "cluster_rank": rng.integers(0, 3, n)}))
    assert long.roles.cluster == "cluster" and not long.roles.wide_models


def test_choosing_one_cluster_column_assesses_that_one(files, tmp_path):
    _, wide, path = files
    chosen = Overrides().with_role("cluster", "cluster_kmeans")
    a = describe(read_table(path), chosen)
    assert a.task is Task.CLUSTERING and a.roles.cluster == "cluster_kmeans" and not a.roles.wide_models
    assert len(a.models) == 1
    got = evaluate(a.predictions(), ["adjusted_rand_index"]).values["adjusted_rand_index"]
    assert got == pytest.approx(skm.adjusted_rand_score(wide.y_true, wide.cluster_kmeans))


@pytest.fixture(scope="module")
def uploaded(files):
    _, _, path = files
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("iris_wide.csv", path.read_bytes(), "text/csv").run()
    assert not at.exception
    return at


def test_data_page_lists_the_cluster_columns(uploaded):
    uploaded.switch_page("views/data.py").run()
    assert not uploaded.exception
    tables = [d.value for d in uploaded.dataframe if "reason" in d.value.columns]
    [roles] = tables
    row = roles.set_index("role").loc["wide_models"]
    assert row["columns"] == "cluster_agglomerative, cluster_gaussian_mixture, cluster_kmeans"


def test_clusters_page_opens_on_the_wide_file(uploaded, files):
    _, wide, _ = files
    uploaded.switch_page("views/clusters.py").run()
    assert not uploaded.exception
    drawn = {json.loads(e.proto.spec)["layout"]["title"]["text"]: json.loads(e.proto.spec)
             for e in uploaded.get("plotly_chart")}
    assert "Agreement between clusterings (ARI)" in drawn
    agreement = drawn["Agreement between clusterings (ARI)"]["data"][0]
    # vector cells: one text per cell, row-major, its customdata starting (row label, column label)
    cells = {(row, col): text for (row, col, *_), text in zip(agreement["customdata"], agreement["text"])}
    assert float(cells["kmeans", "agglomerative"]) == pytest.approx(
        skm.adjusted_rand_score(wide.cluster_kmeans, wide.cluster_agglomerative), abs=0.005)


@pytest.mark.parametrize("page", ["views/metrics.py", "views/compare.py", "views/confusion.py", "views/curves.py",
                                  "views/errors.py"])
def test_other_pages_never_raise_on_the_wide_file(uploaded, page):
    uploaded.switch_page(page).run()
    assert not uploaded.exception, (page, [e.value for e in uploaded.exception])


def test_metrics_page_shows_every_wide_clustering(uploaded, files):
    _, wide, _ = files
    uploaded.switch_page("views/metrics.py").run()
    table = uploaded.dataframe[0].value.set_index("key")
    for model in ("kmeans", "agglomerative", "gaussian_mixture"):
        assert table.loc["adjusted_rand_index", model].removesuffix(" ★") == \
            f"{skm.adjusted_rand_score(wide.y_true, wide[f'cluster_{model}']):.3f}"   # its interval: the row below
