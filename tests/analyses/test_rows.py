"""assess.analyses.rows: the rows behind a number. Oracles: scikit-learn's confusion_matrix on the same decision (every
cell's rows), hand-worked orders for the most confidently wrong, numpy for the largest errors, the slice table's own
row count for the worst slice, and slicing by hand for paging."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import confusion_matrix

from assess.analyses.rows import (all_matching, cell_choices, cell_rows, confidently_wrong, largest_errors, page,
                                  rows_at, worst_slice_rows)
from assess.analyses.slices import analyse_slices
from assess.core.decision import Decision
from assess.core.errors import AssessError
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from tests.conftest import ROOT

SAMPLES = ROOT / "assets" / "samples"


def _assessment(frame: pd.DataFrame, tmp_path, name="f.csv"):
    path = tmp_path / name
    frame.to_csv(path, index=False)
    return describe(read_table(path))


@pytest.fixture(scope="module")
def wine():
    return describe(read_table(SAMPLES / "wine_multiclass.csv")), pd.read_csv(SAMPLES / "wine_multiclass.csv")


@pytest.mark.parametrize("decision", [Decision(), Decision.from_scores()])
def test_every_cell_holds_the_rows_scikit_learn_counts_multiclass(wine, decision):
    a, data = wine
    classes = list(a.classes)
    for model in a.models:
        part = data[data.model == model].reset_index(drop=True)
        scores = part[[f"proba_{c}" for c in classes]].to_numpy()
        predicted = part.y_pred if decision.source == "auto" else np.asarray(classes)[scores.argmax(axis=1)]
        cm = confusion_matrix(part.y_true, predicted, labels=classes)
        for i, t in enumerate(classes):
            for j, p in enumerate(classes):
                rows = cell_rows(a, model, t, p, decision=decision)
                assert rows.total == cm[i, j], (model, t, p)
                frame, total = page(rows, 1, 1000)
                # the rows themselves: their ids are those of the file's rows with that truth and that label
                expected = part.id[(part.y_true == t) & (np.asarray(predicted) == p)].tolist()
                assert total == cm[i, j] and frame["id"].tolist() == expected
                assert set(frame["truth"]) <= {t} and set(frame["prediction"]) <= {p}
        listed = {(t, p): n for t, p, n in cell_choices(a, model, decision=decision)}
        assert listed == {(t, p): cm[i, j] for i, t in enumerate(classes) for j, p in enumerate(classes) if cm[i, j]}
        errors = sorted(((cm[i, j], t, p) for i, t in enumerate(classes) for j, p in enumerate(classes)
                         if i != j and cm[i, j]), key=lambda e: -e[0])
        first = cell_choices(a, model, decision=decision, most=len(errors))
        assert [n for _, _, n in first] == [n for n, _, _ in errors]


def test_binary_cells_follow_the_threshold_of_the_decision():
    a = describe(read_table(SAMPLES / "breast_cancer_binary.csv"))
    data = pd.read_csv(SAMPLES / "breast_cancer_binary.csv")
    part = data[data.model == a.models[0]]
    decision = Decision.from_scores(0.37)
    predicted = np.where(part.score >= 0.37, "malignant", "benign")
    cm = confusion_matrix(part.y_true, predicted, labels=["benign", "malignant"])
    for i, t in enumerate(["benign", "malignant"]):
        for j, p in enumerate(["benign", "malignant"]):
            assert cell_rows(a, a.models[0], t, p, decision=decision).total == cm[i, j]
    with pytest.raises(AssessError, match="no true class `maybe`"):
        cell_rows(a, a.models[0], "maybe", "benign")


def test_confidently_wrong_binary_by_hand(tmp_path):
    # threshold 0.5: wrong rows are r2 (neg, 0.9), r3 (pos, 0.2), r5 (neg, 0.6), r6 (pos, 0.45).
    # how far past 0.5 on the wrong side: r2 0.4, r3 0.3, r5 0.1, r6 0.05 → order r2, r3, r5, r6
    frame = pd.DataFrame({"id": ["r1", "r2", "r3", "r4", "r5", "r6"], "y_true": [0, 0, 1, 1, 0, 1],
                          "score": [0.1, 0.9, 0.2, 0.8, 0.6, 0.45], "feature": [1, 2, 3, 4, 5, 6]})
    a = _assessment(frame, tmp_path)
    rows = confidently_wrong(a, a.models[0])
    got, total = page(rows, 1, 10)
    assert total == 4 and got["id"].tolist() == ["r2", "r3", "r5", "r6"]
    np.testing.assert_allclose(got["confidence_wrong"], [0.4, 0.3, 0.1, 0.05])
    assert got["feature"].tolist() == [2, 3, 5, 6]            # the file's other columns come along
    # at threshold 0.3 r1 (0.1) stays right, r5 (0.6) is 0.3 past it, r3 (0.2) only 0.1
    got, _ = page(confidently_wrong(a, a.models[0], decision=Decision.from_scores(0.3)), 1, 10)
    assert got["id"].tolist() == ["r2", "r5", "r3"]


def test_confidently_wrong_multiclass_by_hand(tmp_path):
    # r1 right; r2 true a, scores b 0.7 → 0.7; r3 true c, a 0.5 b 0.4 → 0.5; r4 true b, c 0.9 → 0.9
    frame = pd.DataFrame({"y_true": ["a", "a", "c", "b"], "y_pred": ["a", "b", "a", "c"],
                          "proba_a": [0.8, 0.2, 0.5, 0.05], "proba_b": [0.1, 0.7, 0.4, 0.05],
                          "proba_c": [0.1, 0.1, 0.1, 0.9]})
    a = _assessment(frame, tmp_path)
    got, total = page(confidently_wrong(a, a.models[0]), 1, 10)
    assert total == 3 and got["row"].tolist() == [4, 2, 3]
    np.testing.assert_allclose(got["confidence_wrong"], [0.9, 0.7, 0.5])
    np.testing.assert_allclose(got["score"], [0.9, 0.7, 0.5])   # the predicted class's score


def test_confidently_wrong_needs_scores(tmp_path):
    a = _assessment(pd.DataFrame({"y_true": [0, 1, 0, 1], "y_pred": [1, 1, 0, 0]}), tmp_path)
    with pytest.raises(AssessError, match="has no scores"):
        confidently_wrong(a, a.models[0])


def test_largest_errors_equal_numpy():
    a = describe(read_table(SAMPLES / "diabetes_regression.csv"))
    data = pd.read_csv(SAMPLES / "diabetes_regression.csv")
    model = a.models[1]
    part = data[data.model == model].reset_index(drop=True)
    error = (part.y_pred - part.y_true).to_numpy()
    order = np.argsort(-np.abs(error), kind="stable")
    got, total = page(largest_errors(a, model), 1, 25)
    assert total == len(part)
    assert got["id"].tolist() == part.id.to_numpy()[order[:25]].tolist()
    np.testing.assert_allclose(got["error"], error[order[:25]])
    np.testing.assert_allclose(got["abs_error"], np.abs(error)[order[:25]])


def test_largest_errors_of_a_forecast_equal_numpy_and_carry_series_and_time():
    a = describe(read_table(SAMPLES / "monthly_forecasts.csv"))
    data = pd.read_csv(SAMPLES / "monthly_forecasts.csv")
    part = data[data.model == a.models[0]].reset_index(drop=True)
    error = (part.y_pred - part.y_true).to_numpy()
    order = np.argsort(-np.abs(error), kind="stable")[:10]
    got, total = page(largest_errors(a, a.models[0]), 1, 10)
    assert total == len(part) and got["id"].tolist() == part.id[order].tolist()
    assert got["series"].tolist() == part.series[order].tolist() and "timestamp" in got.columns


def test_worst_slice_rows_are_the_slice_the_analysis_names(tmp_path):
    a = describe(read_table(SAMPLES / "breast_cancer_binary.csv"))
    data = pd.read_csv(SAMPLES / "breast_cancer_binary.csv")
    analysis = analyse_slices(a, ["group"], keys=["accuracy"], ci=None)
    model = a.models[0]
    worst = analysis.worst(model, "accuracy", 1)
    rows = worst_slice_rows(a, analysis, model, "accuracy")
    part = data[data.model == model]
    assert rows.total == int(worst["n"].iloc[0]) == (part.group == worst["slice"].iloc[0]).sum()
    frame, _ = page(rows, 1, rows.total)
    assert set(frame["group"]) == {worst["slice"].iloc[0]}
    # the worst accuracy, recomputed on the rows shown
    assert (frame.truth == frame.prediction).mean() == pytest.approx(worst["value"].iloc[0])


def test_paging_sizes_totals_sorting_and_filter(tmp_path):
    n = 23
    frame = pd.DataFrame({"y_true": np.arange(n) + 0.13, "y_pred": np.arange(n) + 0.13 + (np.arange(n) % 5) * 0.25,
                          "site": np.where(np.arange(n) % 3 == 0, "North =cmd", "south"),
                          "error": np.r_[np.nan, np.arange(1, n)]})   # a feature named like a computed column
    a = _assessment(frame, tmp_path)
    rows = rows_at(a, a.models[0])
    assert rows.total == n and "error (file)" in rows.columns
    sizes = [len(page(rows, k, 10)[0]) for k in (1, 2, 3, 4)]
    assert sizes == [10, 10, 3, 0] and all(page(rows, k, 10)[1] == n for k in (1, 4))
    assert page(rows, 3, 10)[0]["row"].tolist() == [21, 22, 23]
    # filter: case-insensitive text of any column; the total counts the matching rows
    hit, total = page(rows, 1, 5, contains="north")
    assert total == len(range(0, n, 3)) and hit["row"].tolist() == [1, 4, 7, 10, 13]
    # sort by a file column, descending, its missing value last; by a computed column ascending
    got, _ = page(rows, 3, 10, sort="error (file)", descending=True)
    assert got["row"].tolist()[-1] == 1 and np.isnan(got["error (file)"].iloc[-1])
    got, _ = page(rows, 1, 3, sort="error")
    assert got["error"].tolist() == [0.0, 0.0, 0.0]
    assert len(all_matching(rows, contains="south")) == n - len(range(0, n, 3))
    mask = np.arange(n) >= 20
    assert page(rows_at(a, a.models[0], mask), 1, 10)[0]["row"].tolist() == [21, 22, 23]
    assert page(rows_at(a, a.models[0], np.array([5, 2])), 1, 10)[0]["row"].tolist() == [6, 3]   # positions, in order
    with pytest.raises(AssessError, match="outside"):
        rows_at(a, a.models[0], np.array([n]))
    with pytest.raises(AssessError, match="row mask has 3 entries"):
        rows_at(a, a.models[0], np.ones(3, dtype=bool))
    with pytest.raises(AssessError, match="page number"):
        page(rows, 0, 10)
    with pytest.raises(AssessError, match="no column"):
        page(rows, 1, 10, sort="nothing")


def test_row_is_the_files_row_when_unlabelled_rows_are_set_aside(tmp_path):
    """Walk of issue 35: with empty truths set aside, "Row" counted the labelled rows only (id 298 on row 256). The
    oracle: each id's 1-based row in the file as pandas reads it."""
    data = pd.read_csv(SAMPLES / "breast_cancer_binary.csv")
    data.loc[data["id"] % 7 == 0, "y_true"] = None
    a = _assessment(data, tmp_path)
    assert a.n_unlabelled == 243
    in_file = {(m, i): n + 1 for n, (m, i) in enumerate(zip(data["model"], data["id"]))}
    for model in ("logistic", "naive_bayes_3f"):
        shown = confidently_wrong(a, model).computed
        assert len(shown) and [in_file[(model, i)] for i in shown["id"]] == shown["row"].tolist()
    shown = rows_at(a, "tree").computed
    assert shown["row"].tolist() == [in_file[("tree", i)] for i in shown["id"]]
