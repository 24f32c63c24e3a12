"""Clustering indices against independent oracles.

Oracles: scikit-learn 1.9's ``sklearn.metrics`` cluster scores for every index (hypothesis over random partitions,
single-cluster and all-singleton partitions, string labels, ties), scikit-learn's own expected mutual information,
the worked example of Manning, Raghavan & Schütze, *Introduction to Information Retrieval* (2008) §16.3, Figure 16.4
(purity 0.71, NMI 0.36, RI 0.68), purity by hand from reference 001's definition, the silhouette of a four-point
example written out by hand from Rousseeuw (1987)'s definition, and the expected Rand index / ARI checked against
the mean over every permutation of a small partition.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings, strategies as st
from sklearn import metrics as skm
from sklearn.metrics.cluster._expected_mutual_info_fast import expected_mutual_information as sk_emi

from assess.core.data import Predictions, Task
from assess.inputs.read import read_table
from assess.metrics import evaluate, keys_for
from assess.metrics import clustering as cl
from assess.inputs.assessment import describe
from tests.conftest import ROOT

SAMPLE = ROOT / "assets/samples/iris_clustering.csv"

ORACLES = {
    "rand_index": skm.rand_score,
    "adjusted_rand_index": skm.adjusted_rand_score,
    "homogeneity": skm.homogeneity_score,
    "completeness": skm.completeness_score,
    "v_measure": skm.v_measure_score,
    "adjusted_mutual_info": skm.adjusted_mutual_info_score,
    "normalized_mutual_info": skm.normalized_mutual_info_score,
    "fowlkes_mallows": skm.fowlkes_mallows_score,
}


def purity_by_hand(classes, clusters) -> float:
    """Reference 001 §3.3: each cluster is associated with its majority class; purity of the clustering is the
    share of rows that belong to their cluster's class (a plain loop over the clusters, no table)."""
    classes, clusters = list(classes), list(clusters)
    correct = 0
    for cluster in set(clusters):
        members = [c for c, k in zip(classes, clusters) if k == cluster]
        correct += max(members.count(c) for c in set(members))
    return correct / len(classes)


def predictions(classes, clusters, features=None) -> Predictions:
    """Encode labels of any type as the loading layer does: codes in sorted order."""
    names, y = np.unique(np.asarray(classes), return_inverse=True)
    _, k = np.unique(np.asarray(clusters), return_inverse=True)
    return Predictions(Task.CLUSTERING, tuple(map(str, names)), y.astype(np.int64), k.astype(np.int64),
                       features=features)


def values(pred: Predictions, **kw) -> dict[str, float]:
    return evaluate(pred, baselines=False, **kw).values


# ---------------------------------------------------------------------------------------------- external indices

#: Two partitions of the same n rows: few classes, more clusters (so single-cluster and singleton cases occur).
partitions = st.integers(1, 40).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 5), min_size=n, max_size=n), st.lists(st.integers(0, 7), min_size=n, max_size=n)))


@settings(max_examples=80)
@given(partitions)
@example(([0, 0, 0, 0], [0, 0, 0, 0]))          # one class, one cluster
@example(([0, 0, 1, 1], [0, 1, 2, 3]))          # all singletons
@example(([0, 1, 2, 3], [0, 0, 0, 0]))          # singleton classes, one cluster
@example(([0], [0]))                            # a single row
@example(([0, 1], [0, 1]))
@example(([0, 0, 1, 1, 2], [1, 1, 0, 0, 0]))
def test_every_external_index_matches_scikit_learn(pair):
    classes, clusters = pair
    got = values(predictions(classes, clusters))
    for key, oracle in ORACLES.items():
        assert got[key] == pytest.approx(oracle(classes, clusters), abs=1e-10), key
    assert got["purity"] == pytest.approx(purity_by_hand(classes, clusters), abs=1e-12)
    # inverse purity is purity with the roles of classes and clusters swapped
    assert got["inverse_purity"] == pytest.approx(purity_by_hand(clusters, classes), abs=1e-12)


def test_string_labels_and_ties_give_the_same_numbers_as_codes():
    rng = np.random.default_rng(5)
    classes = rng.choice(["cat", "dog", "<b>cow</b>"], 200)
    clusters = rng.choice(["north", "south", "east", "west"], 200)
    got = values(predictions(classes, clusters))
    for key, oracle in ORACLES.items():
        assert got[key] == pytest.approx(oracle(classes, clusters), abs=1e-10), key
    # relabelling the clusters (a permutation of the names) changes nothing
    renamed = np.array([{"north": "z", "south": "y", "east": "x", "west": "w"}[c] for c in clusters])
    assert values(predictions(classes, renamed)) == pytest.approx(got, nan_ok=True)


def test_manning_et_al_worked_example():
    """Introduction to Information Retrieval (2008), Fig. 16.4: three clusters of x, o and ◇; the book gives
    purity = 12/17 ≈ 0.71, NMI ≈ 0.36 and RI ≈ 0.68."""
    clusters = [1] * 6 + [2] * 6 + [3] * 5
    classes = list("xxxxxo") + list("xoooo◇") + list("xx◇◇◇")
    got = values(predictions(classes, clusters))
    assert got["purity"] == pytest.approx(12 / 17, abs=1e-12)
    assert round(got["purity"], 2) == 0.71
    assert round(got["normalized_mutual_info"], 2) == 0.36
    assert round(got["rand_index"], 2) == 0.68
    # inverse purity by hand: x → cluster 1 (5 of 8), o → cluster 2 (4 of 5), ◇ → cluster 3 (3 of 4)
    assert got["inverse_purity"] == pytest.approx((5 + 4 + 3) / 17, abs=1e-12)


def test_purity_and_inverse_purity_differ_when_a_class_is_split():
    """By hand: clusters {a,a}, {a,a}, {b,b,b,c}: purity (2+2+3)/8; inverse purity a→2, b→3, c→1: 6/8."""
    classes = list("aaaabbbc")
    clusters = [1, 1, 2, 2, 3, 3, 3, 3]
    got = values(predictions(classes, clusters))
    assert got["purity"] == pytest.approx(7 / 8)
    assert got["inverse_purity"] == pytest.approx(6 / 8)


@pytest.mark.parametrize("sizes", [([3, 2], [2, 2, 1]), ([1, 1, 1, 1], [4]), ([5, 40, 3], [30, 18]),
                                   ([20000, 30000, 50000], [33000, 33000, 34000])])
def test_expected_mutual_information_matches_scikit_learn(sizes):
    a, b = (np.array(s) for s in sizes)
    n = int(a.sum())
    # a table with these margins (sklearn's EMI reads only the margins)
    table = np.zeros((a.size, b.size), dtype=np.int64)
    rows = np.repeat(np.arange(a.size), a)
    cols = np.repeat(np.arange(b.size), b)
    np.add.at(table, (rows, cols), 1)
    assert cl.expected_mutual_information(a, b, n) == pytest.approx(sk_emi(table, n), rel=1e-9, abs=1e-15)


def test_expected_rand_index_and_ari_are_the_means_over_every_permutation():
    """The permutation model: every assignment of the same cluster labels to the rows equally likely."""
    classes = np.array([0, 0, 0, 1, 1, 2, 2])
    clusters = np.array([0, 0, 1, 1, 1, 1, 2])
    ri, ari = [], []
    for perm in set(itertools.permutations(clusters)):
        ri.append(skm.rand_score(classes, perm))
        ari.append(skm.adjusted_rand_score(classes, perm))
    a, b = np.bincount(classes), np.bincount(clusters)
    assert cl.expected_rand_index(a, b, 7) == pytest.approx(np.mean(ri), abs=1e-12)
    assert np.mean(ari) == pytest.approx(0.0, abs=1e-12)
    report = evaluate(predictions(classes, clusters), ["rand_index", "adjusted_rand_index"])
    assert report["rand_index"].baselines["random"] == pytest.approx(np.mean(ri), abs=1e-12)
    assert report["adjusted_rand_index"].baselines["random"] == 0.0
    assert "random partition with the same cluster sizes" in report["rand_index"].baseline_method


def test_simulated_baselines_are_those_of_random_partitions():
    """Purity and NMI of random tables with the same margins, against permuting the cluster labels directly."""
    rng = np.random.default_rng(3)
    classes, clusters = rng.integers(0, 3, 120), rng.integers(0, 4, 120)
    report = evaluate(predictions(classes, clusters), ["purity", "normalized_mutual_info"], seed=4)
    perm = [rng.permutation(clusters) for _ in range(500)]
    for key, oracle in (("purity", purity_by_hand), ("normalized_mutual_info", skm.normalized_mutual_info_score)):
        expected = np.mean([oracle(classes, p) for p in perm])
        assert report[key].baselines["random"] == pytest.approx(expected, abs=0.015), key
    tables = cl.random_tables(cl.contingency_table(classes, clusters, 3, 4), 5, seed=1)
    assert (tables.sum(axis=2) == np.bincount(classes)).all() and (tables.sum(axis=1) == np.bincount(clusters)).all()


def test_bootstrap_intervals_are_seeded_and_hold_the_value():
    data = pd.read_csv(SAMPLE)
    rows = data[data.model == "kmeans"]
    pred = predictions(rows.y_true, rows.cluster, rows.filter(like="x_").to_numpy())
    a = evaluate(pred, ci="bootstrap", n_resamples=300, seed=7)
    b = evaluate(pred, ci="bootstrap", n_resamples=300, seed=7)
    c = evaluate(pred, ci="bootstrap", n_resamples=300, seed=8)
    for key in keys_for(Task.CLUSTERING):
        r = a[key]
        assert r.low <= r.value <= r.high or key == "silhouette", key
        assert (r.low, r.high) == (b[key].low, b[key].high), key
        assert r.method and ("seed 7" in r.method), key
    assert a["adjusted_rand_index"].low != c["adjusted_rand_index"].low


def test_bootstrap_of_the_cells_matches_resampling_the_rows():
    """A multinomial draw over the cells is the distribution of a row resample: the percentile interval of the ARI
    from 1,500 explicit row resamples (scikit-learn on each) agrees within Monte-Carlo error."""
    rng = np.random.default_rng(11)
    classes = rng.integers(0, 3, 300)
    clusters = np.where(rng.random(300) < 0.7, classes, rng.integers(0, 3, 300))
    ours = cl.bootstrap_external(cl.contingency_table(classes, clusters, 3, 3), ["adjusted_rand_index"],
                                 n_resamples=1500, confidence_level=0.9, seed=2)["adjusted_rand_index"]
    idx = rng.integers(0, 300, (1500, 300))
    theirs = np.quantile([skm.adjusted_rand_score(classes[i], clusters[i]) for i in idx], [0.05, 0.95])
    assert ours[0] == pytest.approx(theirs[0], abs=0.02) and ours[1] == pytest.approx(theirs[1], abs=0.02)


# ---------------------------------------------------------------------------------------------- internal indices

def test_silhouette_by_hand_on_four_points():
    """Rousseeuw (1987), reference 001: s = (b − a)/max(a, b). Points 0, 1 in cluster A and 4, 6 in cluster B:
    x=0: a=1, b=(4+6)/2=5, s=4/5; x=1: a=1, b=(3+5)/2=4, s=3/4; x=4: a=2, b=(4+3)/2=7/2, s=3/7;
    x=6: a=2, b=(6+5)/2=11/2, s=7/11."""
    X = np.array([[0.0], [1.0], [4.0], [6.0]])
    labels = np.array([0, 0, 1, 1])
    expected = [4 / 5, 3 / 4, 3 / 7, 7 / 11]
    assert cl.silhouette_samples(X, labels) == pytest.approx(expected, abs=1e-15)
    got = values(predictions(["a", "a", "b", "b"], labels, X))
    assert got["silhouette"] == pytest.approx(np.mean(expected), abs=1e-15)


@settings(max_examples=40)
@given(st.integers(0, 10_000), st.integers(2, 6), st.integers(1, 5))
@example(0, 2, 1)
def test_internal_indices_match_scikit_learn(seed, k, d):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(k + 1, 80))
    X = np.round(rng.normal(size=(n, d)) * 3, 1)              # rounding makes ties and repeated points
    labels = np.concatenate([np.arange(k), rng.integers(0, k, n - k)])
    got = values(predictions(np.zeros(n, int), labels, X))
    assert got["silhouette"] == pytest.approx(skm.silhouette_score(X, labels), abs=1e-9)
    assert got["davies_bouldin"] == pytest.approx(skm.davies_bouldin_score(X, labels), rel=1e-9, abs=1e-12)
    assert got["calinski_harabasz"] == pytest.approx(skm.calinski_harabasz_score(X, labels), rel=1e-9)


def test_silhouette_on_a_large_file_is_a_seeded_sampled_estimate_with_its_interval(monkeypatch):
    """Large means above SILHOUETTE_EXACT_ROWS; the limits are lowered here so the exact oracle stays quick."""
    monkeypatch.setattr(cl, "SILHOUETTE_EXACT_ROWS", 3_000)
    monkeypatch.setattr(cl, "SILHOUETTE_SAMPLE", 1_000)
    rng = np.random.default_rng(0)
    n = cl.SILHOUETTE_EXACT_ROWS + 2_000
    labels = rng.integers(0, 3, n)
    X = rng.normal(size=(n, 2)) + labels[:, None] * 1.5
    report = evaluate(predictions(np.zeros(n, int), labels, X), ["silhouette"], ci="auto", seed=3)
    r = report["silhouette"]
    assert "seeded samples" in r.note and f"{n:,} rows" in r.note
    assert r.method.startswith("t-interval over")
    full = skm.silhouette_score(X, labels)
    assert r.low < full < r.high
    again = evaluate(predictions(np.zeros(n, int), labels, X), ["silhouette"], ci="auto", seed=3)["silhouette"]
    assert (again.value, again.low, again.high) == (r.value, r.low, r.high)


# ---------------------------------------------------------------------------------------------- missing and bad input

def test_null_with_a_reason_without_reference_classes_or_features():
    pred = Predictions(Task.CLUSTERING, (), None, np.array([0, 0, 1, 1]))
    report = evaluate(pred, ci="auto")
    for key in cl.EXTERNAL_KEYS:
        assert not report[key].defined and "reference classes" in report.reasons[key]
    for key in cl.INTERNAL_KEYS:
        assert not report[key].defined and "feature columns" in report.reasons[key]


def test_one_cluster_nan_features_and_ten_thousand_clusters():
    n = 10_000
    rng = np.random.default_rng(1)
    X = rng.normal(size=(n, 2))
    one = evaluate(predictions(rng.integers(0, 3, n), np.zeros(n, int), X))
    assert one["adjusted_rand_index"].value == skm.adjusted_rand_score(rng.integers(0, 3, 5), np.zeros(5)) == 0.0
    assert "between 2 and n − 1" in one.reasons["silhouette"]
    X_nan = X.copy()
    X_nan[17, 1] = np.nan
    nan = evaluate(predictions(rng.integers(0, 3, n), rng.integers(0, 3, n), X_nan), ["silhouette"])
    assert "1 of 10,000 rows have a missing" in nan.reasons["silhouette"]
    classes = rng.integers(0, 3, n)
    many = evaluate(predictions(classes, np.arange(n), X), ci="auto", n_resamples=50)
    assert many["purity"].value == 1.0 and many["adjusted_rand_index"].value == pytest.approx(
        skm.adjusted_rand_score(classes, np.arange(n)), abs=1e-12)
    assert "between 2 and n − 1" in many.reasons["silhouette"]


def write(tmp_path, frame: pd.DataFrame):
    path = tmp_path / "clusters.csv"
    frame.to_csv(path, index=False)
    return describe(read_table(path))


def test_bad_files_get_clear_messages(tmp_path):
    one = write(tmp_path, pd.DataFrame({"cluster": ["a"] * 10, "x_1": np.arange(10.0)}))
    assert any(p.code == "single_cluster" and "every row in one cluster" in p.message for p in one.problems)
    nan = write(tmp_path, pd.DataFrame({"cluster": [1, 2] * 5, "x_1": [1.0, None] + [2.0] * 8,
                                        "x_2": ["a"] + [1.0] * 9}))
    messages = " ".join(p.message for p in nan.warnings)
    assert "`x_1` has 1 missing or infinite value (row 2" in messages
    assert "`x_2` has 1 value that is not a number (row 1: `a`)" in messages
    report = evaluate(nan.predictions())
    assert "2 of 10 rows have a missing, infinite or non-numeric feature" in report.reasons["silhouette"]
    many = write(tmp_path, pd.DataFrame({"cluster": np.arange(10_000), "y_true": np.arange(10_000) % 3}))
    assert any(p.code == "mostly_singletons" and "10,000 distinct clusters for 10,000 rows" in p.message
               for p in many.problems)
    assert not many.errors
    mixed = write(tmp_path, pd.DataFrame({"cluster": [1, 2] * 20, "y_true": ["a", "b"] * 20, "y_pred": ["a"] * 40}))
    assert any(p.code == "roles_mixed" and "`y_pred` is not used: `cluster` makes this a clustering" in p.message
               for p in mixed.warnings)


def test_sample_file_matches_scikit_learn_per_model():
    assessment = describe(read_table(SAMPLE))
    assert assessment.task is Task.CLUSTERING and assessment.models == ("kmeans", "agglomerative",
                                                                        "gaussian_mixture")
    data = pd.read_csv(SAMPLE)
    for model in assessment.models:
        rows = data[data.model == model]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = evaluate(assessment.predictions(model)).values
        assert got["adjusted_rand_index"] == pytest.approx(skm.adjusted_rand_score(rows.y_true, rows.cluster))
        X = rows.filter(like="x_").to_numpy()
        assert got["silhouette"] == pytest.approx(skm.silhouette_score(X, rows.cluster))


def test_resampled_internal_indices_equal_scikit_learn_on_each_resample():
    """The bootstrap's vectorised Davies–Bouldin and Calinski–Harabasz (count weights) against scikit-learn on the
    rows each resample draws; a resample that loses a cluster is scored on the clusters it keeps."""
    rng = np.random.default_rng(9)
    X = np.round(rng.normal(size=(40, 3)), 1)
    labels = np.concatenate([[0, 1, 2, 3], rng.integers(0, 3, 36)])   # cluster 3 has one row: often left out
    rows = rng.integers(0, 40, (30, 40))
    counts = np.zeros((30, 40))
    np.add.at(counts, (np.repeat(np.arange(30), 40), rows.ravel()), 1.0)
    found = cl._resampled_internal(X, labels, counts)
    for b, r in enumerate(rows):
        # rel 1e-7: distances come from |x|² − 2x·c + |c|², whose cancellation costs digits next to a centroid
        assert found["davies_bouldin"][b] == pytest.approx(skm.davies_bouldin_score(X[r], labels[r]), rel=1e-7)
        assert found["calinski_harabasz"][b] == pytest.approx(skm.calinski_harabasz_score(X[r], labels[r]), rel=1e-9)
