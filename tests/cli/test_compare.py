"""`python -m assess compare`: SPEC's JSON for prediction files and per-fold score tables, checked against SciPy and
statsmodels as independent oracles."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

from assess.cli import main

ROOT = Path(__file__).resolve().parents[2]
BINARY = str(ROOT / "assets/samples/breast_cancer_binary.csv")


def run(capsys, *argv):
    code = main(["compare", *argv])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else None), err


def test_mcnemar_two_models_matches_statsmodels(capsys):
    code, doc, _ = run(capsys, BINARY, "--test", "mcnemar", "--models", "logistic", "tree")
    assert code == 0
    assert {"test", "statistic", "pvalue", "df", "effect", "assumptions", "sentence", "pairs"} <= set(doc)
    data = pd.read_csv(BINARY)
    right = {m: (g.sort_values("id").y_true == g.sort_values("id").y_pred).to_numpy() for m, g in data.groupby("model")}
    a, b = right["logistic"], right["tree"]
    table = [[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]]
    assert doc["pvalue"] == pytest.approx(sm_mcnemar(table, exact=True).pvalue, rel=1e-9)
    assert doc["effect"]["value"] == pytest.approx(a.mean() - b.mean())
    assert doc["pairs"] == [] and "McNemar exact" in doc["sentence"]


def test_mcnemar_asymptotic_without_continuity(capsys):
    code, doc, _ = run(capsys, BINARY, "--test", "mcnemar", "--models", "tree", "naive_bayes_3f", "--method",
                       "asymptotic", "--continuity", "off")
    data = pd.read_csv(BINARY)
    right = {m: (g.sort_values("id").y_true == g.sort_values("id").y_pred).to_numpy() for m, g in data.groupby("model")}
    a, b = right["tree"], right["naive_bayes_3f"]
    table = [[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]]
    expected = sm_mcnemar(table, exact=False, correction=False)
    assert (doc["statistic"], doc["pvalue"]) == (pytest.approx(expected.statistic), pytest.approx(expected.pvalue))


def test_three_models_give_adjusted_pairs(capsys):
    code, doc, _ = run(capsys, BINARY, "--test", "cochran_q", "--correction", "bonferroni")
    assert code == 0 and doc["correction"] == "bonferroni" and len(doc["pairs"]) == 3
    raw = [p["pvalue"] for p in doc["pairs"]]
    assert [p["pvalue_adjusted"] for p in doc["pairs"]] == pytest.approx([min(1, 3 * p) for p in raw])


def fold_table(tmp_path):
    rng = np.random.default_rng(7)
    rows = []
    for fold in range(1, 11):
        base = rng.normal(0.8, 0.03)
        for model, shift in (("a", 0.0), ("b", -0.02), ("c", -0.05)):
            rows.append({"model": model, "fold": fold, "accuracy": base + shift + rng.normal(0, 0.01),
                         "f1": base + shift / 2 + rng.normal(0, 0.02)})
    frame = pd.DataFrame(rows)
    path = tmp_path / "cv_scores.csv"
    frame.to_csv(path, index=False)
    return path, frame


def test_fold_table_paired_t_and_friedman_match_scipy(capsys, tmp_path):
    path, frame = fold_table(tmp_path)
    code, doc, _ = run(capsys, str(path), "--test", "paired_t", "--models", "a", "b", "--metric", "accuracy")
    a = frame[frame.model == "a"].accuracy.to_numpy()
    b = frame[frame.model == "b"].accuracy.to_numpy()
    expected = sps.ttest_rel(a, b)
    assert code == 0
    assert (doc["statistic"], doc["pvalue"], doc["df"]) == (pytest.approx(expected.statistic),
                                                           pytest.approx(expected.pvalue), 9)
    code, doc, _ = run(capsys, str(path), "--test", "friedman", "--metric", "f1")
    wide = frame.pivot(index="fold", columns="model", values="f1")
    assert doc["pvalue"] == pytest.approx(sps.friedmanchisquare(*[wide[m] for m in "abc"]).pvalue)
    assert doc["details"]["average_ranks"].keys() == {"a", "b", "c"}


def test_test_all_lists_tests_with_why(capsys):
    code, doc, _ = run(capsys, BINARY, "--test", "all", "--metric", "accuracy")
    assert code == 0
    assert {"mcnemar", "cochran_q"} <= {t["test"] for t in doc["tests"]}
    assert all(t["why"] for t in doc["tests"])


@pytest.mark.parametrize("argv,message", [
    (["--test", "mcnemar", "--seed", "3"], "error: option `seed` does not apply to test `mcnemar`"),
    (["--test", "mcnemar", "--models", "logistic", "nope"], "error: breast_cancer_binary.csv: no model 'nope'"),
])
def test_bad_options_exit_2_with_one_line(capsys, argv, message):
    code, doc, err = run(capsys, BINARY, *argv)
    assert code == 2 and doc is None and err.startswith(message) and err.count("\n") == 1


def test_bad_fold_table_names_file_column_and_row(capsys, tmp_path):
    path = tmp_path / "cv.csv"
    path.write_text("model,fold,accuracy\na,1,0.8\na,1,0.7\nb,1,0.75\nb,2,0.7\n")
    code, _, err = run(capsys, str(path), "--test", "paired_t")
    assert code == 2
    assert err == "error: cv.csv: column `fold` lists fold `1` of model `a` twice (first repeat at row 2)\n"


def two_test_sets(tmp_path):
    """Last year's model on last year's test set and this year's on this year's: no sample id in common."""
    rng = np.random.default_rng(11)
    rows = []
    for model, start, n in (("last_year", 0, 240), ("this_year", 5000, 200)):
        y = rng.random(n) < 0.4
        s = 1 / (1 + np.exp(-(1.2 * (2 * y - 1) + rng.normal(0, 1, n))))
        rows += [{"id": start + i, "model": model, "y_true": "yes" if y[i] else "no",
                  "y_pred": "yes" if s[i] >= 0.5 else "no", "score": round(float(s[i]), 6)} for i in range(n)]
    path = tmp_path / "two_sets.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    return path, pd.DataFrame(rows)


def test_models_on_different_test_sets_are_compared_as_independent_samples(capsys, tmp_path):
    path, frame = two_test_sets(tmp_path)
    code, doc, _ = run(capsys, str(path), "--test", "chi2")
    right = frame.assign(ok=frame.y_true == frame.y_pred).groupby("model", sort=False).ok
    table = np.column_stack([right.sum(), right.count() - right.sum()])
    assert code == 0 and doc["design"] == "independent" and "no sample id is shared" in doc["design_reason"]
    assert doc["pvalue"] == pytest.approx(sps.chi2_contingency(table, correction=False).pvalue, rel=1e-12)
    code, doc, _ = run(capsys, str(path), "--test", "all", "--metric", "f1", "--resamples", "200")
    # F1 is compared: the bootstrap, the one suggested test of F1, comes first
    assert [t["test"] for t in doc["tests"]] == ["unpaired_bootstrap", "chi2", "fisher_exact", "unpaired_delong",
                                                 "mann_whitney", "welch_t"]
    assert doc["design"] == "independent"
    code, doc, err = run(capsys, str(path), "--test", "mcnemar")
    assert code == 2 and doc is None and err.count("\n") == 1
    assert err.startswith("error: test `mcnemar` compares models on the same samples, but no sample id is shared")


def test_paired_file_says_so_and_chi2_there_warns(capsys):
    code, doc, _ = run(capsys, BINARY, "--test", "chi2", "--models", "logistic", "tree")
    assert code == 0 and doc["design"] == "paired"
    stated = next(a for a in doc["assumptions"] if a["name"] == "independent samples per model")
    assert stated["met"] is False and "McNemar" in stated["detail"] and "Caution:" in doc["sentence"]


# ------------------------------------------------------------------------------------ regression and forecasts

FORECASTS = str(ROOT / "assets/samples/monthly_forecasts.csv")
REGRESSION = str(ROOT / "assets/samples/diabetes_regression.csv")


def test_diebold_mariano_on_the_forecast_sample_tests_each_horizon_with_its_own_lags(capsys):
    from tests.stats.test_horizons import hln_oracle
    code, doc, _ = run(capsys, FORECASTS, "--test", "diebold_mariano", "--models", "seasonal_naive", "ets",
                       "--loss", "absolute")
    assert code == 0
    data = pd.read_csv(FORECASTS)
    wide = data.pivot_table(index=["series", "horizon", "timestamp"], columns="model", values="y_pred")
    truth = data[data.model == "ets"].set_index(["series", "horizon", "timestamp"]).y_true
    d = ((wide.seasonal_naive - truth).abs() - (wide.ets - truth).abs()).rename("d").reset_index()
    rows = {r["horizon"]: r for r in doc["details"]["by_horizon"]}
    assert sorted(rows) == list(range(1, 13))
    for h in (1, 3, 6):
        per_month = d[d.horizon == h].groupby("timestamp").d.mean().sort_index().to_numpy()
        stat, p = hln_oracle(per_month, h)
        assert rows[h]["statistic"] == pytest.approx(stat, rel=1e-9) and rows[h]["pvalue"] == pytest.approx(p)
    cells = {(r["series"], r["horizon"]): r for r in doc["details"]["by_series"]}
    one = d[(d.series == "elnino_sst") & (d.horizon == 4)].sort_values("timestamp").d.to_numpy()
    assert cells[("elnino_sst", 4)]["statistic"] == pytest.approx(hln_oracle(one, 4)[0], rel=1e-9)
    overall = d.groupby("timestamp").d.mean().sort_index().to_numpy()
    assert doc["statistic"] == pytest.approx(hln_oracle(overall, 12)[0], rel=1e-9)
    assert doc["sentence"].startswith("ets's forecasts are off by ") and "(y_true units)" in doc["sentence"]
    assert "By horizon (Holm across 12 horizons" in doc["sentence"]


def test_horizon_flag_tests_one_horizon(capsys):
    code, doc, _ = run(capsys, FORECASTS, "--test", "diebold_mariano", "--horizon", "3")
    assert code == 0 and len(doc["pairs"]) == 3
    assert all([r["horizon"] for r in p["details"]["by_horizon"]] == [3] for p in doc["pairs"])


@pytest.mark.parametrize("sample, tests", [
    (FORECASTS, {"diebold_mariano", "friedman", "paired_bootstrap"}),
    (REGRESSION, {"paired_bootstrap", "paired_t", "wilcoxon", "friedman"})])
def test_all_suitable_tests_run_on_the_numeric_samples(capsys, sample, tests):
    code, doc, _ = run(capsys, sample, "--test", "all", "--metric", "mae", "--resamples", "200")
    assert code == 0
    assert {t["test"] for t in doc["tests"]} == tests and doc["skipped"] == {}
    assert all(t["sentence"] for t in doc["tests"])


def test_paired_t_on_per_sample_squared_errors_from_the_cli(capsys):
    code, doc, _ = run(capsys, REGRESSION, "--test", "paired_t", "--models", "ridge", "knn_5", "--loss", "squared")
    assert code == 0
    data = pd.read_csv(REGRESSION)
    err = {m: g.sort_values("id").pipe(lambda f: (f.y_true - f.y_pred) ** 2).to_numpy()
           for m, g in data.groupby("model")}
    ref = sps.ttest_rel(err["ridge"], err["knn_5"])
    assert doc["statistic"] == pytest.approx(ref.statistic, rel=1e-10)
    assert doc["pvalue"] == pytest.approx(ref.pvalue, rel=1e-9)
    assert "(squared y_true units)" in doc["sentence"]


def test_a_multi_output_file_is_compared_on_the_average_and_on_one_output_with_output(capsys, tmp_path):
    """Issue 33 §1.1: `metrics` gives MAE a = 5.0, b = 0.5 (the average over outputs u and v); `compare` said a is
    better, testing output u alone. Oracle: SciPy's paired t-test of the per-row absolute errors worked by hand."""
    from tests.stats.test_outputs import ISSUE_FILE, row_losses

    path = tmp_path / "two_outputs.csv"
    path.write_text(ISSUE_FILE)
    code, doc, _ = run(capsys, str(path), "--test", "paired_t")
    losses = row_losses()
    assert code == 0 and doc["pvalue"] == pytest.approx(sps.ttest_rel(losses["a"], losses["b"]).pvalue)
    assert doc["effect"]["value"] == pytest.approx(4.5) and doc["sentence"].startswith("b's predictions")
    code, doc, _ = run(capsys, str(path), "--test", "paired_t", "--output", "u")
    losses = row_losses("u")
    assert code == 0 and doc["pvalue"] == pytest.approx(sps.ttest_rel(losses["a"], losses["b"]).pvalue)
    assert doc["sentence"].startswith("a's predictions are off by 1.00 (y_true_u units)")
    code, _, err = run(capsys, str(path), "--test", "paired_t", "--output", "w")
    assert code != 0 and "no output `w`" in err
