"""AppTest of the clustering pages: the Metrics page's clustering view and the Clusters page on the iris sample (the
drawn numbers against pandas / scikit-learn), and every page on awkward clustering uploads (nothing raises)."""

import io
import json
from itertools import permutations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import adjusted_rand_score

from assess.core.data import Task
from assess.metrics.registry import get
from assess.stats.registry import TESTS
from tests.conftest import ROOT, open_app

SAMPLE = "Iris — clustering, 3 clusterings with species and features"
DATA = pd.read_csv(ROOT / "assets/samples/iris_clustering.csv")


def figures(at) -> dict[str, dict]:
    return {json.loads(e.proto.spec)["layout"]["title"]["text"]: json.loads(e.proto.spec)
            for e in at.get("plotly_chart")}


def test_metrics_page_shows_the_indices_of_every_clustering():
    at = open_app("views/metrics.py", sample=SAMPLE)
    table = at.dataframe[0].value
    assert list(table.columns[3:]) == ["kmeans", "agglomerative", "gaussian_mixture"]
    at_ari = table.index[table["key"] == "adjusted_rand_index"][0]
    ari, below = table.loc[at_ari], table.loc[at_ari + 1]     # the intervals have the row under the values
    assert below["metric"] == "95% interval" and below["key"] == ""
    for model in ("kmeans", "agglomerative", "gaussian_mixture"):
        rows = DATA[DATA.model == model]
        value = adjusted_rand_score(rows.y_true, rows.cluster)
        assert ari[model].removesuffix(" ★") == f"{value:.3f}"
        low, high = map(float, below[model].split("–"))
        assert low <= round(value, 3) <= high
    assert ari["gaussian_mixture"].endswith("★")
    assert table.loc[at_ari, "metric"] == "Adjusted Rand index ↑"   # the direction as an arrow after the name
    assert table.set_index("key").loc["davies_bouldin", "metric"] == "Davies–Bouldin index ↓"
    assert "Labels from" not in [r.label for r in at.radio]        # no classification decision here
    per_model = at.dataframe[1].value
    assert "random" in per_model.columns
    assert per_model.set_index("metric").loc["Adjusted Rand index", "random"] == "0.000"
    text = " ".join(c.value for c in at.caption)
    assert "random partition with the same cluster sizes" in text
    assert [b.label for b in at.get("download_button")][:2] == ["Metrics CSV", "Metrics JSON"]


def test_the_clusterings_picker_spans_the_page():
    """Issue-33 walk: in a third of the page at 1024 px the picker showed "kmeans", "agg…" and hid the third name."""
    at = open_app("views/metrics.py", sample=SAMPLE)
    assert "Clusterings" in [m.label for m in at.multiselect]
    assert not any(m.label == "Clusterings" for column in at.columns for m in column.multiselect)


def test_clusters_page_draws_the_contingency_table_and_every_chart():
    at = open_app("views/clusters.py", sample=SAMPLE)
    assert not at.exception
    drawn = figures(at)
    assert set(drawn) == {"Reference classes × clusters, kmeans", "Cluster sizes", "Silhouette plot, kmeans",
                          "Features in two dimensions (PCA), kmeans", "Agreement between clusterings (ARI)"}
    heat = drawn["Reference classes × clusters, kmeans"]["data"][0]
    rows = DATA[DATA.model == "kmeans"]
    expected = pd.crosstab(rows.y_true, rows.cluster)
    counts = np.array([int(cell.split("<br>")[0].replace(",", "")) for cell in heat["text"]]).reshape(3, 3)
    for (cls, cluster, *_), count in zip(heat["customdata"], counts.ravel()):   # row-major cells: class, cluster
        assert count == expected.loc[cls, int(cluster)]
    # the matching is on the diagonal: the most rows any one-to-one pairing of classes and clusters puts there
    assert np.trace(counts) == max(np.trace(expected.to_numpy()[:, list(p)]) for p in permutations(range(3)))
    agreement = drawn["Agreement between clusterings (ARI)"]["data"][0]
    a, b = (DATA[DATA.model == m].sort_values("id").cluster for m in ("kmeans", "agglomerative"))
    assert float(agreement["text"][1]) == pytest.approx(adjusted_rand_score(a, b), abs=0.005)
    labels = [b.label for b in at.get("download_button")]
    assert "All 5 charts on this page (PDF)" in labels and labels.count("PDF") == 5


def test_navigation_shows_clusters_and_hides_confusion_and_curves():
    at = open_app(sample=SAMPLE)
    at.switch_page("views/clusters.py").run()
    assert not at.exception


def test_compare_page_runs_the_tests_between_clusterings():
    at = open_app("views/compare.py", sample=SAMPLE)
    [metric] = [s for s in at.selectbox if s.label == "Metric"]
    internal = get(Task.CLUSTERING, "silhouette").name        # shown by display names, chosen by key
    assert metric.value == "adjusted_rand_index" and internal not in metric.options
    [test] = [s for s in at.selectbox if s.label == "Test"]
    assert set(test.options) >= {TESTS["paired_bootstrap"].title, TESTS["better_than_random"].title}
    test.set_value("better_than_random").run()
    [run] = [b for b in at.button if b.label == "Run test"]
    run.click().run()
    assert not at.exception
    text = " ".join(str(e.value) for e in at.success)
    assert "2 of 2 clusterings are better than a random partition of the same sizes" in text   # two models: the default question


def _csv(frame: pd.DataFrame) -> bytes:
    return frame.to_csv(index=False).encode()


RNG = np.random.default_rng(10)
CASES = {
    "one_cluster.csv": _csv(pd.DataFrame({"cluster": ["a"] * 60, "y_true": RNG.choice(list("xyz"), 60),
                                          "x_1": RNG.normal(size=60)})),
    "clusters_only.csv": _csv(pd.DataFrame({"cluster": RNG.integers(0, 4, 60)})),
    "nan_features.csv": _csv(pd.DataFrame({"cluster": RNG.integers(0, 3, 60), "x_1": [np.nan] + [1.0] * 59,
                                           "x_2": RNG.normal(size=60)})),
    # one cluster per row, past every size threshold of the clustering code: more than MAX_DRAWN_CLUSTERS (60) and
    # _MAX_ANNOTATED (20) clusters, a contingency table of more than 10,000 cells (3 × 3,400; the random baselines
    # switch to fewer tables there). 3,400 rather than 10,000 rows: the Metrics page's default bootstrap of the
    # table costs about a third as much, the branches are the same.
    "clusters_3400.csv": _csv(pd.DataFrame({"cluster": np.arange(3_400), "y_true": np.arange(3_400) % 3})),
}
PAGES = ("views/metrics.py", "views/clusters.py", "views/confusion.py", "views/curves.py", "views/errors.py",
         "views/compare.py")


@pytest.fixture(scope="module", params=sorted(CASES))
def loaded(request):
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload(request.param, CASES[request.param], "text/csv").run()
    assert not at.exception, request.param
    return request.param, at


@pytest.mark.parametrize("page", PAGES)
def test_page_never_raises_on_awkward_clusterings(loaded, page):
    name, at = loaded
    at.switch_page(page).run()
    assert not at.exception, (name, page, [e.value for e in at.exception])


def test_the_many_clusters_case_is_past_the_chart_thresholds():
    from assess.present.charts.clustering import _MAX_ANNOTATED, MAX_DRAWN_CLUSTERS
    many = pd.read_csv(io.BytesIO(CASES["clusters_3400.csv"]))
    assert many.cluster.nunique() == len(many) > max(MAX_DRAWN_CLUSTERS, _MAX_ANNOTATED)
    assert many.y_true.nunique() * many.cluster.nunique() > 10_000     # clustering.random_baselines' cut
