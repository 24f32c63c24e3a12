"""Weak-slice discovery (issue 36 §1): the SliceLine search against the `sliceline` package and a brute-force
enumeration, a planted slice found first, the null-data rate of reported slices, the tests against SciPy and the
correction against statsmodels."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from sklearn import metrics as skm
from statsmodels.stats.multitest import multipletests

from assess.analyses.discovery import SCORE_WEIGHT, condition_codes, discover, discovery_columns, lattice_search
from assess.cli import main
from assess.core.errors import AssessError
from assess.inputs.assessment import describe
from assess.inputs.read import read_table


def _assessment(frame: pd.DataFrame, name: str = "found.csv"):
    return describe(read_table(frame.to_csv(index=False).encode(), name=name))


def _planted(seed: int = 0, n: int = 4000) -> pd.DataFrame:
    """A binary file whose model errs in 10 % of rows, but in 45 % where site = B and age is in its top quintile
    (about 5 % of rows)."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({"age": rng.uniform(20, 80, n).round(1), "site": rng.choice(list("ABCD"), n),
                          "device": rng.choice(["x", "y", "z"], n), "y_true": rng.integers(0, 2, n)})
    planted = (frame["site"] == "B") & (frame["age"] >= np.quantile(frame["age"], 0.8))
    wrong = rng.random(n) < np.where(planted, 0.45, 0.10)
    frame["y_pred"] = np.where(wrong, 1 - frame["y_true"], frame["y_true"])
    return frame


def _brute_force_top(table: pd.DataFrame, err: np.ndarray, columns, max_conditions, min_size, k):
    """Every conjunction of ≤ max_conditions conditions on distinct columns, scored by SliceLine's formula
    (Sagadeeva & Boehm 2021, eq. 1) with pandas, no pruning: the top k with a positive score."""
    n, mean = len(err), err.mean()
    found = []
    for level in range(1, max_conditions + 1):
        for cols in itertools.combinations(columns, level):
            for values, rows in table.groupby(list(cols) if len(cols) > 1 else cols[0]).groups.items():
                size = len(rows)
                e = err[np.asarray(rows)].sum()
                if size < min_size or e <= 0:
                    continue
                score = SCORE_WEIGHT * (e / size / mean - 1) - (1 - SCORE_WEIGHT) * (n / size - 1)
                if score > 0:
                    values = values if isinstance(values, tuple) else (values,)
                    found.append((score, dict(zip(cols, map(str, values)))))
    found.sort(key=lambda t: -t[0])
    return found[:k]


def test_top_slices_are_sliceline_packages_on_the_same_binarised_table():
    sliceline = pytest.importorskip("sliceline.slicefinder")
    rng = np.random.default_rng(3)
    n = 3000
    frame = pd.DataFrame({"a": rng.choice(list("pqrs"), n), "b": rng.choice(list("xyz"), n),
                          "c": rng.choice(list("uvw"), n), "y_true": rng.integers(0, 2, n)})
    weak = np.where((frame["a"] == "q") & (frame["b"] == "y"), 0.45, np.where(frame["c"] == "w", 0.22, 0.15))
    wrong = rng.random(n) < weak
    frame["y_pred"] = np.where(wrong, 1 - frame["y_true"], frame["y_true"])
    found = discover(_assessment(frame), key="error_rate", columns=["a", "b", "c"], max_conditions=2, min_size=40,
                     top_k=6)
    with pytest.warns(UserWarning):                  # "Numba JIT optimization not available": speed only
        finder = sliceline.Slicefinder(alpha=SCORE_WEIGHT, k=6, max_l=2, min_sup=40)
    finder.fit(frame[["a", "b", "c"]].to_numpy(), wrong.astype(float))
    theirs = [({c: v for c, v in zip("abc", row) if v is not None}, s["slice_score"])
              for row, s in zip(finder.top_slices_, finder.top_slices_statistics_)]
    assert len(theirs) >= 4
    assert [c for c, _ in theirs] == list(found.slices["conditions"])
    assert [s for _, s in theirs] == pytest.approx(list(found.slices["score"]), rel=1e-12)


@pytest.mark.parametrize("max_conditions", [2, 3])
def test_the_pruned_search_is_exact_against_a_brute_force_enumeration(max_conditions):
    frame = _planted(seed=4, n=3000)
    frame["band"] = np.random.default_rng(5).choice(["lo", "mid", "hi"], len(frame))
    found = discover(_assessment(frame), key="accuracy", columns=["age", "site", "device", "band"],
                     max_conditions=max_conditions, min_size=30, top_k=8)
    codes, labels = condition_codes(frame["age"])
    table = frame.assign(age=np.asarray(labels, dtype=object)[codes])
    err = (frame["y_pred"] != frame["y_true"]).to_numpy(dtype=float)
    expected = _brute_force_top(table, err, ["age", "site", "device", "band"], max_conditions, 30, 8)
    assert list(found.slices["score"]) == pytest.approx([s for s, _ in expected], rel=1e-12)
    assert list(found.slices["conditions"]) == [c for _, c in expected]


def test_a_planted_slice_is_found_first_with_its_test_interval_and_correction():
    frame = _planted()
    found = discover(_assessment(frame), columns=["age", "site", "device"], min_size=40)
    first = found.discovered.iloc[0]
    low, high = np.quantile(frame["age"], [0.8, 1.0])
    assert first["conditions"] == {"age": f"[{low:.4g}, {high:.4g}]", "site": "B"}
    rows = frame[(frame["site"] == "B") & (frame["age"] >= low)]
    rest = frame.drop(rows.index)
    assert first["n"] == len(rows)
    assert first["value"] == pytest.approx(skm.accuracy_score(rows["y_true"], rows["y_pred"]), abs=1e-12)
    assert first["rest"] == pytest.approx(skm.accuracy_score(rest["y_true"], rest["y_pred"]), abs=1e-12)
    # one-sided Fisher (slice less accurate than the rest), SciPy as the oracle
    right = lambda f: int((f["y_true"] == f["y_pred"]).sum())  # noqa: E731
    table = [[right(rows), len(rows) - right(rows)], [right(rest), len(rest) - right(rest)]]
    assert first["pvalue"] == pytest.approx(sps.fisher_exact(table, alternative="less")[1], rel=1e-9)
    assert first["low"] < first["value"] < first["high"]
    assert first["difference_low"] < first["difference"] < first["difference_high"] < 0


def test_every_candidate_enters_the_benjamini_hochberg_correction():
    """p_adjusted is statsmodels' BH over every slice looked at, the reported p-value among them."""
    frame = _planted(seed=2, n=2000)
    found = discover(_assessment(frame), columns=["age", "site", "device"], min_size=30)
    family = found.pvalues
    assert family.size == found.looked_at > 40
    adjusted = multipletests(family, method="fdr_bh")[1]
    for r in found.slices.itertuples():
        at = np.flatnonzero(np.isclose(family, r.pvalue, rtol=1e-9, atol=0))
        assert at.size >= 1
        assert r.p_adjusted == pytest.approx(adjusted[at[0]], rel=1e-9)


def test_a_mean_loss_is_searched_with_welchs_test():
    rng = np.random.default_rng(6)
    n = 3000
    frame = pd.DataFrame({"region": rng.choice(list("NESW"), n), "size": rng.uniform(0, 100, n).round(2),
                          "y_true": rng.normal(10, 2, n)})
    noise = np.where((frame["region"] == "W") & (frame["size"] < 20), 3.0, 1.0)
    frame["y_pred"] = frame["y_true"] + rng.normal(0, noise)
    found = discover(_assessment(frame), key="mae", columns=["region", "size"])
    first = found.discovered.iloc[0]
    assert first["conditions"] == {"region": "W", "size": found.slices.iloc[0]["conditions"]["size"]}
    assert first["conditions"]["size"].startswith("[0")
    mask = (frame["region"] == "W") & (frame["size"] < float(first["conditions"]["size"].split(", ")[1][:-1]))
    a = (frame["y_true"] - frame["y_pred"]).abs()
    assert first["value"] == pytest.approx(skm.mean_absolute_error(frame["y_true"][mask], frame["y_pred"][mask]))
    oracle = sps.ttest_ind(a[mask], a[~mask], equal_var=False, alternative="greater")
    assert first["pvalue"] == pytest.approx(oracle.pvalue, rel=1e-6)


def test_recall_counts_the_truly_positive_rows_of_a_slice():
    frame = _planted(seed=8)
    found = discover(_assessment(frame), key="recall", columns=["age", "site", "device"])
    first = found.slices.iloc[0]
    mask = np.ones(len(frame), bool)
    for col, value in first["conditions"].items():
        codes, labels = condition_codes(frame[col])
        mask &= np.asarray(labels, dtype=object)[codes] == value
    rows = frame[mask]
    assert first["value"] == pytest.approx(skm.recall_score(rows["y_true"], rows["y_pred"]), abs=1e-12)
    assert first["size"] == (rows["y_true"] == 1).sum()


def test_on_data_without_a_weak_slice_runs_report_one_at_most_at_the_stated_rate():
    """Seeded simulation of the search and its correction on null data (errors independent of every column; three
    columns, one of them quintiles of a number): BH at 5 % over every slice looked at reports a slice in at most 5 %
    of 200 runs, while testing each slice looked at uncorrected would report one in nearly every run."""
    rng = np.random.default_rng(36)
    n, runs, cards = 1000, 200, [5, 4, 3]
    reported = uncorrected = 0
    for _ in range(runs):
        codes = [rng.integers(0, k, n) for k in cards]
        err = (rng.random(n) < 0.15).astype(float)          # misses of an accuracy: x = 1 − err, d = 1
        top, p, adjusted = lattice_search(codes, cards, 1.0 - err, np.ones(n), err, proportion=True, min_size=30)
        reported += any(adjusted[at] <= 0.05 for _, _, _, at in top)
        uncorrected += bool((p <= 0.05).any())
    assert reported / runs <= 0.05
    assert uncorrected / runs >= 0.75


def test_a_mean_loss_on_null_data_reports_a_slice_at_most_at_the_stated_rate():
    """The same simulation for a mean loss (Welch): right-skewed absolute errors (|e| ~ Exp(1)^1.5) independent of
    the columns, 150 runs."""
    rng = np.random.default_rng(37)
    n, runs, cards = 1000, 150, [5, 4, 3]
    reported = 0
    for _ in range(runs):
        codes = [rng.integers(0, k, n) for k in cards]
        loss = rng.standard_exponential(n) ** 1.5
        top, _, adjusted = lattice_search(codes, cards, loss, np.ones(n), loss, proportion=False, min_size=30)
        reported += any(adjusted[at] <= 0.05 for _, _, _, at in top)
    assert reported / runs <= 0.05


def test_numeric_columns_are_cut_at_their_quantiles():
    x = pd.Series(np.arange(100, dtype=float))
    codes, labels = condition_codes(x, bins=4)
    edges = np.quantile(x, [0, 0.25, 0.5, 0.75, 1])
    assert labels == [f"[{edges[0]:.4g}, {edges[1]:.4g})", f"[{edges[1]:.4g}, {edges[2]:.4g})",
                      f"[{edges[2]:.4g}, {edges[3]:.4g})", f"[{edges[3]:.4g}, {edges[4]:.4g}]"]
    assert np.bincount(codes).tolist() == [25, 25, 25, 25]
    codes, labels = condition_codes(pd.Series([1.0, np.nan, 2.0, 1.0]))
    assert labels == ["1", "2", "(missing)"] and codes.tolist() == [0, 2, 1, 0]


def test_a_metric_that_is_not_a_mean_over_rows_is_refused():
    with pytest.raises(AssessError, match="mean over rows"):
        discover(_assessment(_planted(n=400)), key="f1", columns=["site"])


def test_cli_prints_the_discovered_slices_worst_first(tmp_path, capsys):
    path = tmp_path / "planted.csv"
    _planted().to_csv(path, index=False)
    status = main(["slices", str(path), "--discover", "--features", "age", "site", "device", "--max-conditions", "2",
                   "--min-size", "40", "--metric", "accuracy", "--quiet"])
    assert status == 0
    doc = json.loads(capsys.readouterr().out)
    found = doc["discovered"]
    low, high = np.quantile(_planted()["age"], [0.8, 1.0])
    assert found[0]["conditions"] == {"age": f"[{low:.4g}, {high:.4g}]", "site": "B"}
    assert {"conditions", "n", "value", "low", "high", "rest", "difference", "pvalue",
            "p_adjusted"} <= set(found[0])
    assert all(f["p_adjusted"] <= 0.05 for f in found)
    assert doc["search"]["planted"]["looked_at"] > 0


def test_the_default_columns_leave_out_predictions_and_other_annotators_labels():
    rng = np.random.default_rng(1)
    n = 300
    frame = pd.DataFrame({"id": np.arange(n), "y_true": rng.integers(0, 2, n), "y_pred": rng.integers(0, 2, n),
                          "y_true_reader_a": rng.integers(0, 2, n), "y_true_reader_b": rng.integers(0, 2, n),
                          "site": rng.choice(list("AB"), n),
                          "age": rng.uniform(0, 90, n), "constant": 1})
    assert discovery_columns(_assessment(frame)) == ["site", "age"]


def test_cli_slices_needs_a_column_or_the_search(tmp_path, capsys):
    path = tmp_path / "plain.csv"
    _planted(n=300).to_csv(path, index=False)
    assert main(["slices", str(path), "--quiet"]) == 2
    assert "--discover" in capsys.readouterr().err
    assert main(["slices", str(path), "--slice", "site", "--discover", "--max-conditions", "1", "--quiet"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["slices"]["columns"] == ["site"] and doc["search"]["plain"]["max_conditions"] == 1
    assert main(["slices", str(path), "--discover", "--metric", "f1", "--quiet"]) == 2
    assert "mean over rows" in capsys.readouterr().err


@pytest.mark.parametrize("sample, key, oracle", [
    ("wine_multiclass.csv", "error_rate", lambda y, p, s: 1 - skm.accuracy_score(y, p)),
    ("wine_multiclass.csv", "log_loss", lambda y, p, s: skm.log_loss(y, s)),
    ("breast_cancer_binary.csv", "recall", lambda y, p, s: skm.recall_score(y, p)),
    ("breast_cancer_binary.csv", "specificity", lambda y, p, s: skm.recall_score(y, p, pos_label=0)),
    ("digits_multilabel.csv", "hamming_loss", lambda y, p, s: skm.hamming_loss(y, p)),
])
def test_per_row_terms_sum_to_the_metric(sample, key, oracle):
    """Σ x / Σ d over all rows is the metric (scikit-learn on the encoded arrays): the per-row terms the search sums
    per slice are the registry's formula one row at a time."""
    from assess.core.decision import predicted_labels
    from assess.analyses.discovery import row_terms
    from tests.conftest import ROOT

    assessment = describe(read_table((ROOT / "assets/samples" / sample).read_bytes(), name=sample))
    pred = assessment.predictions(assessment.models[0])
    x, d, _ = row_terms(pred, key)
    labels = predicted_labels(pred.task, pred.y_pred, pred.scores, labels=pred.classes, model=pred.model)
    scores = None if pred.scores is None else np.asarray(pred.scores)
    assert x.sum() / d.sum() == pytest.approx(oracle(np.asarray(pred.y_true), np.asarray(labels), scores), rel=1e-9)
