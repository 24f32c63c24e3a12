"""The ISO 4213 5.3 controls against independent oracles: scikit-learn's Cohen's κ, statsmodels' Fleiss' κ, the
`krippendorff` package's α, SciPy's KS and χ² tests, a hand-computed PSI; the overlap and leakage checks on files
built by hand; bad input (ids of another type, no id column) with clear messages."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy import stats as sps
from scipy.spatial.distance import jensenshannon
from sklearn.metrics import accuracy_score, cohen_kappa_score

from assess.analyses import controls
from assess.core.errors import AssessError, InputError
from assess.inputs.assessment import annotator_columns, describe
from assess.inputs.read import read_table
from tests.test_architecture import ROOT

SAMPLES = ROOT / "assets" / "samples"
ANNOTATORS = SAMPLES / "breast_cancer_annotators.csv"
TRAIN_IDS = SAMPLES / "breast_cancer_train_ids.csv"
BINARY = SAMPLES / "breast_cancer_binary.csv"

labels = st.lists(st.sampled_from("abc"), min_size=2, max_size=40)


@settings(max_examples=30)   # a closed formula against sklearn: 30 derandomised lists of 2–40 labels suffice
@given(labels, st.data())
@example(["a", "a"], None)             # one label throughout: p_e = 1, κ undefined (sklearn gives nan too)
def test_cohen_kappa_matches_sklearn(a, data):
    b = a if data is None else data.draw(st.lists(st.sampled_from("abc"), min_size=len(a), max_size=len(a)))
    with warnings.catch_warnings():          # sklearn warns, then returns NaN, when κ is undefined: the oracle's say
        warnings.simplefilter("ignore")
        expected = cohen_kappa_score(a, b)
    got = controls.cohen_kappa(a, b)
    if np.isnan(expected):
        assert np.isnan(got)
    else:
        assert got == pytest.approx(expected, abs=1e-12)


def _counts(ratings: np.ndarray, k: int) -> np.ndarray:
    """(items × categories) counts from (items × raters) codes, -1 = missing."""
    out = np.zeros((ratings.shape[0], k))
    for j in range(ratings.shape[1]):
        ok = ratings[:, j] >= 0
        np.add.at(out, (np.flatnonzero(ok), ratings[ok, j]), 1)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_fleiss_kappa_matches_statsmodels(seed):
    from statsmodels.stats.inter_rater import fleiss_kappa
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, 60)
    ratings = np.where(rng.random((60, 4)) < 0.25, rng.integers(0, 3, (60, 4)), truth[:, None])
    counts = _counts(ratings, 3)
    assert controls.fleiss_kappa(counts) == pytest.approx(fleiss_kappa(counts, method="fleiss"), abs=1e-12)


def test_fleiss_kappa_refuses_unequal_raters():
    with pytest.raises(ValueError, match="same number"):
        controls.fleiss_kappa([[2, 0], [1, 0]])


@pytest.mark.parametrize("seed", range(6))
def test_krippendorff_alpha_matches_the_krippendorff_package_with_missing_values(seed):
    import krippendorff
    rng = np.random.default_rng(100 + seed)
    truth = rng.integers(0, 4, 50)
    ratings = np.where(rng.random((50, 3)) < 0.3, rng.integers(0, 4, (50, 3)), truth[:, None])
    ratings[rng.random((50, 3)) < 0.15] = -1                      # missing annotations
    reliability = np.where(ratings >= 0, ratings, np.nan).T.astype(float)    # raters × items
    expected = krippendorff.alpha(reliability_data=reliability, level_of_measurement="nominal")
    assert controls.krippendorff_alpha_nominal(_counts(ratings, 4)) == pytest.approx(expected, abs=1e-12)


def test_krippendorff_published_example():
    """Krippendorff (2011), "Computing Krippendorff's alpha-reliability", section C (nominal data, 4 observers,
    12 units, missing values): α = 0.743."""
    data = np.array([
        [1, 2, 3, 3, 2, 1, 4, 1, 2, np.nan, np.nan, np.nan],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, np.nan, 3],
        [np.nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, np.nan],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, np.nan],
    ])
    codes = np.where(np.isnan(data), -1, data - 1).astype(int).T     # items × observers
    assert controls.krippendorff_alpha_nominal(_counts(codes, 5)) == pytest.approx(0.743, abs=5e-4)


def test_label_shift_against_hand_computation_and_scipy():
    # Hand-computed PSI: p = (0.5, 0.3, 0.2), q = (0.4, 0.4, 0.2):
    # (0.5−0.4)·ln(0.5/0.4) + (0.3−0.4)·ln(0.3/0.4) + 0 = 0.1·0.22314 + 0.1·0.28768 = 0.051082
    got = controls.label_shift([50, 30, 20], [40, 40, 20])
    assert got["psi"] == pytest.approx(0.0510826, abs=1e-6)
    p, q = np.array([0.5, 0.3, 0.2]), np.array([0.4, 0.4, 0.2])
    assert got["kl_divergence"] == pytest.approx(sps.entropy(p, q), abs=1e-12)
    assert got["js_distance"] == pytest.approx(jensenshannon(p, q), abs=1e-12)
    assert got["total_variation"] == pytest.approx(0.1, abs=1e-12)
    assert got["psi"] == pytest.approx(sps.entropy(p, q) + sps.entropy(q, p), abs=1e-12)
    # a class absent from the reference: KL and PSI are undefined (NaN), JS and TV stay defined
    absent = controls.label_shift([5, 5], [10, 0])
    assert np.isnan(absent["kl_divergence"]) and np.isnan(absent["psi"])
    assert absent["js_distance"] == pytest.approx(jensenshannon([0.5, 0.5], [1, 0]))


def test_shift_by_fold_matches_scipy_tests():
    assessment = describe(read_table(BINARY))
    shift = controls.distribution_shift(assessment, by="fold", model="tree")
    data = pd.read_csv(BINARY)
    tree = data[data.model == "tree"]
    reference = tree[tree.fold == 1]
    assert shift.reference == "1" and list(shift.table.group) == ["1", "2", "3", "4", "5"]
    for row in shift.table.itertuples():
        if row.group == "1":
            continue
        group = tree[tree.fold == int(row.group)]
        ks = sps.ks_2samp(group.score, reference.score)
        assert row.ks_statistic == pytest.approx(ks.statistic) and row.ks_pvalue == pytest.approx(ks.pvalue)
        table = pd.crosstab(pd.concat([group.fold, reference.fold]), pd.concat([group.y_true, reference.y_true]))
        assert row.chi2_pvalue == pytest.approx(sps.chi2_contingency(table, correction=False).pvalue)
    assert shift.table["ks_pvalue_holm"].dropna().ge(shift.table["ks_pvalue"].dropna()).all()
    # every compared fold has every class: no measure is undefined (the reference's own empty row is no reason)
    assert shift.table.loc[shift.table.group != "1", ["kl_divergence", "psi"]].notna().all().all()
    assert shift.reasons == {}


def test_an_undefined_shift_names_the_groups_that_make_it_so(tmp_path):
    """KL and PSI are undefined for a group holding a class the reference lacks (KL) or lacking one it holds (PSI,
    log of zero); the reason names exactly those groups, never the reference."""
    path = tmp_path / "shift.csv"
    rows = [("a", 0), ("a", 1), ("a", 0), ("a", 1),      # the reference: both classes
            ("b", 0), ("b", 1), ("b", 1), ("b", 0),      # both classes: every measure defined
            ("c", 0), ("c", 0), ("c", 0), ("c", 0)]      # class 1 absent: PSI takes log(0)
    pd.DataFrame([{"region": g, "y_true": y, "score": 0.3 + 0.4 * y} for g, y in rows]).to_csv(path, index=False)
    shift = controls.distribution_shift(describe(read_table(path)), by="region")
    assert shift.reference == "a"
    assert set(shift.reasons) == {"psi"}
    assert shift.reasons["psi"].startswith("for group `c`: ") and "`b`" not in shift.reasons["psi"]


def test_shift_refuses_a_column_with_one_group(tmp_path):
    path = tmp_path / "one.csv"
    pd.DataFrame({"y_true": [0, 1, 0, 1], "score": [0.1, 0.9, 0.2, 0.7], "fold": 1}).to_csv(path, index=False)
    with pytest.raises(AssessError, match="column `fold` has 1 groups; comparing distributions needs 2"):
        controls.distribution_shift(describe(read_table(path)), by="fold")


def test_annotators_agreement_and_models_against_each_annotator():
    assessment = describe(read_table(ANNOTATORS))
    agreement = controls.ground_truth_agreement(assessment)
    data = pd.read_csv(ANNOTATORS)
    readers = ["reader_a", "reader_b", "reader_c"]
    assert agreement.annotators == tuple(readers) and agreement.n_items == 171
    items = data[data.model == "logistic"]
    for row in agreement.pairs.itertuples():
        expected = cohen_kappa_score(items[f"y_true_{row.annotator_a}"], items[f"y_true_{row.annotator_b}"])
        assert row.cohen_kappa == pytest.approx(expected, abs=1e-12)
    for row in agreement.models.itertuples():
        rows = data[data.model == row.model]
        truth = rows[[f"y_true_{r}" for r in readers]].mode(axis=1)[0] if row.reference == "majority" \
            else rows[f"y_true_{row.reference}"]
        assert row.accuracy == pytest.approx(accuracy_score(truth, rows.y_pred), abs=1e-12)
        assert row.cohen_kappa == pytest.approx(cohen_kappa_score(truth, rows.y_pred), abs=1e-12)


def test_multi_output_regression_pairs_are_not_annotators(tmp_path):
    rng = np.random.default_rng(0)
    path = tmp_path / "multi.csv"
    pd.DataFrame({"y_true_a": rng.normal(size=60), "y_pred_a": rng.normal(size=60),
                  "y_true_b": rng.normal(size=60), "y_pred_b": rng.normal(size=60)}).to_csv(path, index=False)
    assessment = describe(read_table(path))
    assert assessment.outputs == ("a", "b")
    assert annotator_columns(assessment) == ()
    assert controls.ground_truth_agreement(assessment) is None


def _write(tmp_path, name, frame):
    path = tmp_path / name
    frame.to_csv(path, index=False)
    return read_table(path)


def _training(tmp_path, name, frame):
    path = tmp_path / name
    frame.to_csv(path, index=False)
    return controls.read_training(path)


def test_a_plain_list_of_ids_is_a_training_file(tmp_path):
    (tmp_path / "ids.txt").write_text("id\n3\n7\n")
    assert controls.read_training(tmp_path / "ids.txt").frame["id"].tolist() == ["3", "7"]
    assert controls.read_training(b"P-1\nP-2\n", name="x.txt").frame["id"].tolist() == ["P-1", "P-2"]
    with pytest.raises(InputError, match="could not be split into columns"):
        controls.read_training(b"a,b\n1\n2,3,4\n", name="words.txt")


def test_overlap_finds_shared_ids_and_duplicate_feature_rows(tmp_path):
    test = pd.DataFrame({"id": [1, 2, 3, 4], "y_true": [0, 1, 0, 1], "y_pred": [0, 1, 1, 1],
                         "x_a": [0.1, 0.2, 0.3, 0.4], "x_b": [1, 2, 3, 4]})
    train = pd.DataFrame({"id": [3, 10, 11], "x_a": [9.0, 0.2, 0.5], "x_b": [9, 2, 5]})
    assessment = describe(_write(tmp_path, "test.csv", test))
    overlap = controls.train_test_overlap(assessment, train=_training(tmp_path, "train.csv", train))
    assert (overlap.n_shared_ids, overlap.shared_examples) == (1, ("3",))
    assert overlap.n_duplicate_rows == 1 and overlap.duplicate_examples == ((3, 3),)   # file rows, header = 1
    outcomes = {o.key: o for o in controls.run_controls(assessment, train=_training(tmp_path, "train.csv", train)).outcomes}
    assert outcomes["test_train_disjoint"].status == controls.PROBLEM
    assert outcomes["test_train_disjoint"].checked.startswith("checked by the app: 1 of 4 test ids")
    assert "test row 3 = training row 3" in outcomes["leakage_duplicates"].checked


def test_split_column_compares_its_train_and_test_rows(tmp_path):
    frame = pd.DataFrame({"id": [1, 2, 3, 4, 2], "split": ["train", "train", "test", "test", "test"],
                          "y_true": [0, 1, 0, 1, 1], "y_pred": [0, 1, 1, 1, 1], "x_a": [5, 6, 7, 5, 6]})
    assessment = describe(_write(tmp_path, "split.csv", frame))
    overlap = controls.train_test_overlap(assessment)
    assert overlap.n_shared_ids == 1 and overlap.n_test_ids == 3 and overlap.n_train_ids == 2
    assert overlap.n_duplicate_rows == 2 and overlap.duplicate_examples == ((5, 2), (6, 3))


def test_training_ids_of_another_type_are_refused(tmp_path):
    assessment = describe(_write(tmp_path, "test.csv", pd.DataFrame({"id": [1, 2], "y_true": [0, 1],
                                                                     "y_pred": [0, 1]})))
    train = _training(tmp_path, "train.csv", pd.DataFrame({"sample_id": ["P-001", "P-002"]}))
    with pytest.raises(InputError, match=r"train\.csv: column `sample_id` holds ids that are text \(first: `P-001`\) "
                                         r"while the ids of test\.csv in `id` are whole numbers"):
        controls.train_test_overlap(assessment, train=train)


def test_training_file_without_an_id_column_and_test_file_without_ids(tmp_path):
    with_ids = describe(_write(tmp_path, "t.csv", pd.DataFrame({"id": [1, 2], "y_true": [0, 1], "y_pred": [0, 1]})))
    two_columns = _training(tmp_path, "train.csv", pd.DataFrame({"a": [1], "b": [2]}))
    with pytest.raises(InputError, match="train.csv: has no id column"):
        controls.train_test_overlap(with_ids, train=two_columns)
    no_ids = describe(_write(tmp_path, "n.csv", pd.DataFrame({"y_true": [0, 1], "y_pred": [0, 1]})))
    with pytest.raises(AssessError, match="n.csv has no id column to compare"):
        controls.train_test_overlap(no_ids, train=_training(tmp_path, "ids.csv", pd.DataFrame({"id": [1]})))


def test_checklist_on_the_samples():
    assessment = describe(read_table(ANNOTATORS))
    result = controls.run_controls(assessment, train=controls.read_training(TRAIN_IDS))
    status = {o.key: o.status for o in result.outcomes}
    assert status == {"test_train_disjoint": "ok", "leakage_duplicates": "ok", "same_test_data": "ok",
                      "ground_truth": "ok", "distribution_shift": "not checked"}
    assert all(o.checked.startswith(("checked by the app: ", "not checked by the app: ")) for o in result.outcomes)
    binary = controls.run_controls(describe(read_table(BINARY)))
    status = {o.key: o.status for o in binary.outcomes}
    assert status["test_train_disjoint"] == status["leakage_duplicates"] == status["ground_truth"] == "not checked"
    assert binary.shift.by == "fold"


def test_time_stamps_are_cut_into_periods_in_time_order(tmp_path):
    rng = np.random.default_rng(3)
    days = pd.date_range("2024-01-01", periods=120, freq="D")
    frame = pd.DataFrame({"timestamp": days.strftime("%Y-%m-%d")[::-1], "y_true": rng.normal(size=120),
                          "y_pred": np.r_[rng.normal(size=60), rng.normal(2, 1, size=60)][::-1]})
    path = tmp_path / "daily.csv"
    frame.to_csv(path, index=False)
    assessment = describe(read_table(path))
    assert "timestamp" in controls.shift_columns(assessment)
    shift = controls.distribution_shift(assessment, by="timestamp")
    assert list(shift.table.group) == ["1: 2024-01-01 to 2024-01-30", "2: 2024-01-31 to 2024-02-29",
                                       "3: 2024-03-01 to 2024-03-30", "4: 2024-03-31 to 2024-04-29"]
    assert shift.table.n.tolist() == [30, 30, 30, 30]
    ordered = frame.iloc[::-1].reset_index(drop=True)          # the file is written newest first
    last = sps.ks_2samp(ordered.y_pred[90:], ordered.y_pred[:30])
    assert shift.table.ks_pvalue.iloc[3] == pytest.approx(last.pvalue)
    truth = sps.ks_2samp(ordered.y_true[90:], ordered.y_true[:30])
    assert shift.table.ks_true_statistic.iloc[3] == pytest.approx(truth.statistic)
    assert shift.table.ks_true_pvalue.iloc[3] == pytest.approx(truth.pvalue)
    assert shift.sample_name == "prediction"


def test_an_id_in_both_splits_is_not_a_duplicate_but_twice_in_one_split_is(tmp_path):
    across = pd.DataFrame({"id": [1, 2, 2], "split": ["train", "train", "test"], "y_true": [0, 1, 1],
                           "y_pred": [0, 1, 1]})
    assessment = describe(_write(tmp_path, "across.csv", across))
    assert assessment.roles.split == "split" and not assessment.errors
    within = across.assign(split=["test", "test", "test"])
    errors = describe(_write(tmp_path, "within.csv", within)).errors
    assert [p.message for p in errors] == ["column `id` has 1 duplicate id (row 3: `2`); ids must be unique per model "
                                           "so rows can be paired across models"]


def test_models_scored_against_different_truths_are_a_finding_not_a_crash(tmp_path):
    frame = pd.DataFrame({"model": ["a", "a", "b", "b"], "id": [1, 2, 1, 2], "y_true": [0, 1, 1, 1],
                          "y_pred": [0, 1, 1, 0]})
    result = controls.run_controls(describe(_write(tmp_path, "truths.csv", frame)))
    same = next(o for o in result.outcomes if o.key == "same_test_data")
    assert same.status == controls.ATTENTION and "different y_true" in same.checked


def test_the_shift_and_the_metric_measure_jensen_shannon_on_one_scale():
    """The shift table used base 2 while the metric `js_distance` used the natural log: one distance, two scales."""
    from assess.core.data import Predictions, Task
    from assess.metrics import evaluate

    y_true = np.array([0] * 50 + [1] * 30 + [2] * 20)
    y_pred = np.array([0] * 40 + [1] * 40 + [2] * 20)
    metric = evaluate(Predictions(Task.MULTICLASS, ("a", "b", "c"), y_true, y_pred, None), ["js_distance"])
    shift = controls.label_shift([40, 40, 20], [50, 30, 20])
    assert shift["js_distance"] == pytest.approx(metric["js_distance"].value, rel=1e-12)
    assert shift["js_distance"] == pytest.approx(jensenshannon([0.4, 0.4, 0.2], [0.5, 0.3, 0.2]), rel=1e-12)
