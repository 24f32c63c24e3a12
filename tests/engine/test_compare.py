"""`compare --engine duckdb`: McNemar, Cochran's Q and DeLong from grouped tables give the in-memory JSON.

Oracles: the in-memory `compare` (tested against statsmodels, SciPy and R's pROC in test_stats_*.py) on the same
file, to 1e-12 relative in every number and equal in every string; statsmodels' `cochrans_q` and `mcnemar` directly
on a generated file; and a hand-counted 2 × 2 table. Spark runs the same SQL in tests/engine/test_additions_spark.py.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.engine.test_engine import SAMPLE, run_cli

pytest.importorskip("duckdb")


def assert_same_json(a, b, rel: float = 1e-12, where: str = "") -> None:
    """Equal documents: numbers to ``rel`` relative (absolute below 1), everything else exactly."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), (where, a, b)
        for key in a:
            assert_same_json(a[key], b[key], rel, f"{where}.{key}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), (where, a, b)
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same_json(x, y, rel, f"{where}[{i}]")
    elif isinstance(a, float) and not isinstance(a, bool) or isinstance(b, float) and not isinstance(b, bool):
        assert a is not None and b is not None, (where, a, b)
        assert abs(a - b) <= rel * max(1.0, abs(a), abs(b)), (where, a, b)
    else:
        assert a == b, (where, a, b)


def both(path, *args):
    """(memory, duckdb) results of `compare` on ``path``: (exit code, JSON or None, stderr) each."""
    return run_cli("compare", path, *args, "--engine", "memory"), run_cli("compare", path, *args, "--engine", "duckdb")


@pytest.mark.parametrize("args", [
    ["--test", "mcnemar"],
    ["--test", "mcnemar", "--method", "midp", "--alternative", "greater", "--correction", "fdr_bh"],
    ["--test", "mcnemar", "--method", "asymptotic", "--continuity", "off", "--models", "tree", "logistic"],
    ["--test", "mcnemar", "--labels-from", "scores", "--threshold", "0.3"],
    ["--test", "cochran_q"],
    ["--test", "cochran_q", "--method", "asymptotic", "--confidence-level", "0.9"],
    ["--test", "delong"],
    ["--test", "delong", "--alternative", "less", "--models", "naive_bayes_3f", "logistic"],
])
def test_the_sample_through_duckdb_equals_memory(args):
    (code_m, memory, err_m), (code_d, duck, err_d) = both(SAMPLE, *args)
    assert code_m == 0 and code_d == 0, (err_m, err_d)
    assert_same_json(memory, duck)
    assert duck["design"] == "paired"


# --- generated files -------------------------------------------------------------------------------------------

@st.composite
def long_files(draw):
    """A long file (one row per sample and model, rows shuffled, string ids) of 2–4 models; binary 0/1 or text
    classes, or three text classes; scores rounded to 1 decimal (ties) for binary files."""
    n = draw(st.integers(6, 40))
    k = draw(st.integers(2, 4))
    kind = draw(st.sampled_from(["binary01", "binary_text", "multiclass"]))
    seed = draw(st.integers(0, 2 ** 16))
    rng = np.random.default_rng(seed)
    classes = {"binary01": [0, 1], "binary_text": ["no", "yes"], "multiclass": ["ant", "bee", "cat"]}[kind]
    truth = rng.integers(0, len(classes), n)
    truth[:2] = [0, 1]                             # both binary classes present
    rows = []
    for j in range(k):
        skill = rng.uniform(0.3, 0.9)
        right = rng.random(n) < skill
        pred = np.where(right, truth, rng.integers(0, len(classes), n))
        score = np.clip(np.round(0.5 * (truth == 1) + rng.normal(0.25, 0.25 + 0.1 * j, n), 1), 0, 1)
        for i in range(n):
            row = {"id": f"s{i:03d}", "model": f"m{j}", "y_true": classes[truth[i]], "y_pred": classes[pred[i]]}
            if kind != "multiclass":
                row["score"] = float(score[i])
            rows.append(row)
    frame = pd.DataFrame(rows)
    return frame.iloc[rng.permutation(len(frame))].reset_index(drop=True), kind


@settings(max_examples=20)
@given(case=long_files(), test=st.sampled_from(["mcnemar", "cochran_q", "delong"]),
       fmt=st.sampled_from(["csv", "parquet"]))
@example(case=(pd.DataFrame({"id": ["a", "b", "c", "d"] * 2, "model": ["x"] * 4 + ["y"] * 4,
                             "y_true": [0, 1, 0, 1] * 2, "y_pred": [0, 1, 1, 1, 0, 0, 0, 1],
                             "score": [0.1, 0.9, 0.6, 0.9, 0.2, 0.4, 0.4, 0.8]}), "binary01"),
         test="delong", fmt="csv")
def test_generated_long_files_through_duckdb_equal_memory(tmp_path_factory, case, test, fmt):
    frame, kind = case
    path = tmp_path_factory.mktemp("long") / f"file.{fmt}"
    frame.to_csv(path, index=False) if fmt == "csv" else frame.to_parquet(path, index=False)
    (code_m, memory, err_m), (code_d, duck, err_d) = both(path, "--test", test)
    if test == "delong" and kind == "multiclass":
        assert code_m != 0 and code_d != 0 and "binary" in err_d
        return
    assert code_m == code_d, (err_m, err_d)
    if code_m == 0:
        assert_same_json(memory, duck)
    else:   # the same refusal (e.g. DeLong with fewer than 2 of a class)
        assert err_m.strip().splitlines()[-1] == err_d.strip().splitlines()[-1]


def test_a_wide_file_and_a_directory_of_parts_equal_memory(tmp_path):
    rng = np.random.default_rng(3)
    n = 300
    y = rng.integers(0, 2, n)
    wide = pd.DataFrame({"y_true": y} | {f"score_{m}": np.round(np.clip(0.4 * y + rng.normal(0.3, s, n), 0, 1), 2)
                                          for m, s in (("a", 0.2), ("b", 0.3), ("c", 0.4))})
    for m in "abc":
        wide[f"y_pred_{m}"] = (wide[f"score_{m}"] >= 0.5).astype(int)
    single = tmp_path / "wide.parquet"
    wide.to_parquet(single, index=False)
    parts = tmp_path / "parts"
    parts.mkdir()
    for i, chunk in enumerate(wide.iloc[i:i + 100] for i in range(0, n, 100)):
        chunk.to_parquet(parts / f"part-{i}.parquet", index=False)
    for test in ("mcnemar", "cochran_q", "delong"):
        (code_m, memory, err_m), (code_d, duck, err_d) = both(single, "--test", test)
        assert code_m == 0 and code_d == 0, (err_m, err_d)
        assert_same_json(memory, duck)
        code_p, from_parts, err_p = run_cli("compare", parts, "--test", test, "--engine", "duckdb")
        assert code_p == 0, err_p
        assert_same_json(duck, from_parts)
    assert duck["design_reason"].startswith("the models have no sample ids, but the same 300 rows")


# --- independent oracles ---------------------------------------------------------------------------------------

def test_cochran_q_and_mcnemar_match_statsmodels(tmp_path):
    from statsmodels.stats.contingency_tables import cochrans_q, mcnemar

    rng = np.random.default_rng(11)
    n = 500
    y = rng.integers(0, 2, n)
    right = np.column_stack([rng.random(n) < p for p in (0.8, 0.7, 0.75)])
    rows = [{"id": i, "model": f"m{j}", "y_true": int(y[i]), "y_pred": int(y[i] if right[i, j] else 1 - y[i])}
            for i in range(n) for j in range(3)]
    path = tmp_path / "long.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    code, doc, err = run_cli("compare", path, "--test", "cochran_q", "--engine", "duckdb")
    assert code == 0, err
    oracle = cochrans_q(right.astype(int))
    assert doc["statistic"] == pytest.approx(oracle.statistic, rel=1e-12)
    assert doc["pvalue"] == pytest.approx(oracle.pvalue, rel=1e-10)
    code, doc, err = run_cli("compare", path, "--test", "mcnemar", "--models", "m0", "m1", "--engine", "duckdb")
    assert code == 0, err
    table = [[int(np.sum(right[:, 0] & right[:, 1])), int(np.sum(right[:, 0] & ~right[:, 1]))],
             [int(np.sum(~right[:, 0] & right[:, 1])), int(np.sum(~right[:, 0] & ~right[:, 1]))]]
    assert doc["details"]["n10"] == table[0][1] and doc["details"]["n01"] == table[1][0]
    assert doc["pvalue"] == pytest.approx(mcnemar(table, exact=True).pvalue, rel=1e-10)


def test_mcnemar_on_a_hand_counted_table(tmp_path):
    # 8 samples: A right on 1-6, B right on 5-8 -> n10 = 4 (samples 1-4), n01 = 2 (7, 8); exact p = 2 P(X <= 2),
    # X ~ Bin(6, 1/2) = 2 * 22/64 = 0.6875
    y = [1, 0, 1, 0, 1, 0, 1, 0]
    a = [1, 0, 1, 0, 1, 0, 0, 1]
    b = [0, 1, 0, 1, 1, 0, 1, 0]
    frame = pd.DataFrame({"id": list(range(8)) * 2, "model": ["A"] * 8 + ["B"] * 8, "y_true": y * 2,
                          "y_pred": a + b})
    path = tmp_path / "hand.csv"
    frame.to_csv(path, index=False)
    code, doc, err = run_cli("compare", path, "--test", "mcnemar", "--engine", "duckdb")
    assert code == 0, err
    assert (doc["details"]["n10"], doc["details"]["n01"]) == (4, 2)
    assert doc["pvalue"] == pytest.approx(0.6875, rel=1e-12)


# --- refusals --------------------------------------------------------------------------------------------------

def _long(tmp_path, frame) -> str:
    path = tmp_path / "f.csv"
    frame.to_csv(path, index=False)
    return str(path)


def _pairs(ids_a, ids_b, y_b=None):
    y_a = [0, 1] * (len(ids_a) // 2)
    return pd.DataFrame({"id": ids_a + ids_b, "model": ["A"] * len(ids_a) + ["B"] * len(ids_b),
                         "y_true": y_a + (y_b or [0, 1] * (len(ids_b) // 2)),
                         "y_pred": [0, 1] * ((len(ids_a) + len(ids_b)) // 2)})


@pytest.mark.parametrize("test", ["paired_bootstrap", "chi2", "friedman"])
def test_tests_needing_rows_are_refused_by_name(test):
    code, _, err = run_cli("compare", SAMPLE, "--test", test, "--engine", "duckdb")
    assert code != 0
    assert f"test `{test}`" in err and "--engine memory" in err and "mcnemar, cochran_q, delong" in err


def test_test_all_runs_the_suggested_tests_the_engine_can_and_skips_the_others():
    (code_m, memory, err_m), (code_d, duck, err_d) = both(SAMPLE, "--test", "all")
    assert code_m == 0 and code_d == 0, (err_m, err_d)
    ran = {t["test"]: t for t in memory["tests"]}
    assert [t["test"] for t in duck["tests"]] == [t for t in ran if t != "paired_bootstrap"]
    for test in duck["tests"]:
        assert_same_json(ran[test["test"]], test)
    assert "--engine memory" in duck["skipped"]["paired_bootstrap"]
    assert (duck["design"], duck["design_reason"]) == (memory["design"], memory["design_reason"])


def test_disjoint_ids_are_the_independent_design(tmp_path):
    path = _long(tmp_path, _pairs(["a", "b", "c", "d"], ["e", "f", "g", "h"]))
    code, _, err = run_cli("compare", path, "--test", "mcnemar", "--engine", "duckdb")
    assert code != 0 and "no sample id is shared between models" in err and "chi2" in err


def test_partly_shared_ids_name_the_model_and_an_id(tmp_path):
    path = _long(tmp_path, _pairs(["a", "b", "c", "d"], ["a", "b", "c", "e"]))
    code, _, err = run_cli("compare", path, "--test", "mcnemar", "--engine", "duckdb")
    assert code != 0 and "lacks sample ids" in err and ("'d'" in err or "'e'" in err)


def test_duplicated_ids_and_different_truths_past_the_first_rows_are_refused(tmp_path, monkeypatch):
    # the first rows' validation (head_assessment) would catch these in a small file: the whole-file checks of the
    # pairing scan must catch them after the rows the roles were recognised from
    monkeypatch.setattr("assess.engine.reports.HEAD_ROWS", 8)
    clean = _pairs(["a", "b", "c", "d"], ["a", "b", "c", "d"])
    again = pd.DataFrame({"id": ["a"], "model": ["A"], "y_true": [0], "y_pred": [1]})
    path = _long(tmp_path, pd.concat([clean, again], ignore_index=True))
    code, _, err = run_cli("compare", path, "--test", "mcnemar", "--engine", "duckdb")
    assert code != 0 and "more than once" in err and "'a'" in err
    clean = _pairs(["a", "b", "c", "d", "e", "f"], ["a", "b", "c", "d", "e", "f"], y_b=[0, 1, 0, 1, 1, 1])
    path = _long(tmp_path, clean)
    code, _, err = run_cli("compare", path, "--test", "cochran_q", "--engine", "duckdb")
    assert code != 0 and "different true labels" in err and "'e'" in err


def test_a_long_file_without_ids_is_refused(tmp_path):
    frame = _pairs(["a", "b", "c", "d"], ["a", "b", "c", "d"]).drop(columns="id")
    code, _, err = run_cli("compare", _long(tmp_path, frame), "--test", "mcnemar", "--engine", "duckdb")
    assert code != 0 and "--id-col" in err and "--engine memory" in err


def test_regression_files_are_refused(tmp_path):
    frame = pd.DataFrame({"id": list(range(6)) * 2, "model": ["A"] * 6 + ["B"] * 6,
                          "y_true": [1.5, 2.25, 3.5, 4.75, 5.5, 6.25] * 2,
                          "y_pred": [1.25, 2.5, 3.25, 4.5, 5.75, 6.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]})
    code, _, err = run_cli("compare", _long(tmp_path, frame), "--test", "mcnemar", "--engine", "duckdb")
    assert code != 0 and "regression" in err and "--engine memory" in err


def long_delong_file(path) -> None:
    """A long Parquet file for DeLong: continuous scores for model a, ties (one decimal) for model b, ids in an order
    unlike the rows'."""
    rng = np.random.default_rng(8)
    n = 400
    y = rng.random(n) < 0.35
    frame = pd.concat([pd.DataFrame({"id": rng.permutation(n), "model": m, "y_true": 0, "score": 0.0})
                       for m in ("a", "b")], ignore_index=True)
    for m, rounding in (("a", None), ("b", 1)):
        rows = frame["model"] == m
        ids = frame.loc[rows, "id"].to_numpy()
        score = np.clip(rng.normal(0.4 + 0.25 * y[ids], 0.2), 0, 1)
        frame.loc[rows, "score"] = score if rounding is None else np.round(score, rounding)
        frame.loc[rows, "y_true"] = y[ids].astype(int)
    frame.sample(frac=1.0, random_state=3).to_parquet(path, index=False)


def delong_both_ways_equal_memory(path, engine: str, monkeypatch) -> None:
    """DeLong on ``engine`` by the row windows and by the grouped table (`assess.engine.compare.ROW_WINDOWS_SHARE`
    0 and 2) equals the in-memory document."""
    import json

    from assess.engine import compare
    from assess.engine.source import resolve_source
    from assess.inputs.roles import Overrides

    code, memory, err = run_cli("compare", path, "--test", "delong", "--engine", "memory")
    assert code == 0, err
    real = compare._delong_by_row_windows
    for share in (0.0, 2.0):              # 0: always the row windows; 2: always the grouped table
        chosen = []
        monkeypatch.setattr(compare, "ROW_WINDOWS_SHARE", share)
        monkeypatch.setattr(compare, "_delong_by_row_windows", lambda *a: chosen.append(1) or real(*a))
        result = compare.engine_compare(resolve_source(str(path)), engine, Overrides(), test="delong")
        assert bool(chosen) == (share == 0.0)
        assert_same_json(memory, json.loads(json.dumps(result.to_dict(), default=str)), where=f"share {share}")


def test_delong_by_row_windows_and_by_the_grouped_table_equal_memory(tmp_path, monkeypatch):
    """Both ways to DeLong's placements out of core give the in-memory document."""
    long_delong_file(tmp_path / "long.parquet")
    delong_both_ways_equal_memory(tmp_path / "long.parquet", "duckdb", monkeypatch)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
@pytest.mark.parametrize("args", [["--test", "mcnemar", "--labels-from", "scores"], ["--test", "delong"]])
def test_a_nan_or_infinite_score_after_the_first_rows_is_refused_as_in_memory(tmp_path, monkeypatch, bad, args):
    """The first rows (here 20) look clean; a later NaN or infinite score must not be counted: DuckDB orders NaN
    above every number, so `score >= threshold` held for it and McNemar counted it a positive (DeLong ranked it
    highest). Oracle: the in-memory path refuses the file."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from assess.engine import reports

    monkeypatch.setattr(reports, "HEAD_ROWS", 20)
    rng = np.random.default_rng(3)
    n = 60
    score = rng.random(2 * n)
    score[-2] = bad                                           # model a's score of the last sample
    table = pa.table({"id": np.repeat(np.arange(n), 2), "model": np.tile(["a", "b"], n),
                      "y_true": np.repeat(rng.integers(0, 2, n), 2),
                      "score": pa.array(score, from_pandas=False)})      # NaN stays NaN, not NULL
    assert table["score"].null_count == 0
    path = tmp_path / "late.parquet"
    pq.write_table(table, path)
    (code_m, _, err_m), (code_e, _, err_e) = both(path, *args, "--id-col", "id")
    assert code_m != 0 and "score" in err_m
    assert code_e != 0 and "1 samples have" in err_e and "NaN or infinite score" in err_e, err_e
