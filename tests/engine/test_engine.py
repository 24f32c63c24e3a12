"""The out-of-core path (assess.engine, DuckDB): the same numbers as the in-memory path and scikit-learn.

Oracles: the in-memory `compute_reports` (itself checked against scikit-learn in tests/metrics/test_oracle.py) for every
key, and scikit-learn's roc_auc_score / average_precision_score directly for the ranking metrics and for the true
error of the score grid. Spark runs the same aggregation in tests/engine/test_spark.py.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, roc_auc_score

from assess.cli import main
from assess.core.decision import Decision
from assess.engine.binary import GRID_BINS
from assess.engine.reports import engine_reports
from assess.engine.source import resolve_source
from assess.inputs.assessment import describe
from assess.inputs.read import LoadedTable
from assess.inputs.roles import Overrides
from assess.metrics.reports import compute_reports

pytest.importorskip("duckdb")

SAMPLE = Path(__file__).resolve().parents[2] / "assets" / "samples" / "breast_cancer_binary.csv"


def run_cli(*argv) -> tuple[int, dict | None, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, (json.loads(out.getvalue()) if code == 0 and out.getvalue() else None), err.getvalue()


def assert_same_values(a: dict, b: dict, rel: float = 1e-12) -> None:
    """Every model's every key equal (None where None) to ``rel`` relative (absolute below 1)."""
    assert a.keys() == b.keys()
    for model in a:
        assert a[model].keys() == b[model].keys(), model
        for key, va in a[model].items():
            vb = b[model][key]
            if isinstance(va, dict):
                for part in ("value", "low", "high"):
                    assert _close(va[part], vb[part], rel), (model, key, part, va, vb)
            else:
                assert _close(va, vb, rel), (model, key, va, vb)


def _close(x, y, rel) -> bool:
    if x is None or y is None:
        return x is None and y is None
    return abs(x - y) <= rel * max(1.0, abs(x), abs(y))


# --- the sample through the command line ---------------------------------------------------------------------------

@pytest.mark.parametrize("extra", [[], ["--ci", "wilson"], ["--threshold", "0.3"], ["--labels-from", "scores"],
                                   ["--ci", "delong", "--metrics", "roc_auc", "f1"]])
def test_cli_duckdb_equals_memory_on_the_sample(extra):
    code_m, memory, _ = run_cli("metrics", SAMPLE, "--engine", "memory", *extra)
    code_d, duck, err = run_cli("metrics", SAMPLE, "--engine", "duckdb", *extra)
    assert code_m == 0 and code_d == 0, err
    assert_same_values(memory["models"], duck["models"])
    assert memory["undefined"] == duck["undefined"]
    assert (memory["task"], memory["n"], memory["positive"], memory["classes"]) == \
        (duck["task"], duck["n"], duck["positive"], duck["classes"])
    assert duck["engine"]["exact"] is True and duck["engine"]["rows"] == 3 * 569


def assert_truth_named_as_in_memory(folder, engine: str, positive: str, negative: str) -> None:
    """A CSV whose truth is spelt ``positive``/``negative``: through ``engine`` the same positive class and classes
    as in memory, and the same numbers."""
    rng = np.random.default_rng(3)
    y = rng.random(500) < 0.3
    pd.DataFrame({"y_true": np.where(y, positive, negative), "score": np.round(rng.random(500), 3)}).to_csv(
        folder / "yn.csv", index=False)
    code_m, memory, _ = run_cli("metrics", folder / "yn.csv", "--engine", "memory")
    code_e, out, err = run_cli("metrics", folder / "yn.csv", "--engine", engine)
    assert code_m == 0 and code_e == 0, err
    assert (out["positive"], out["classes"]) == (memory["positive"], memory["classes"])
    assert_same_values(memory["models"], out["models"])


@pytest.mark.parametrize("positive, negative", [("yes", "no"), ("t", "f"), ("true", "false"), ("TRUE", "FALSE")])
def test_a_csv_truth_of_yes_and_no_keeps_its_names_out_of_core(tmp_path, positive, negative):
    """DuckDB's CSV sniffer reads yes/no and t/f as booleans, pandas keeps them as text (and reads true/false as
    booleans): the classes out of core are named as in memory, and the numbers agree."""
    assert_truth_named_as_in_memory(tmp_path, "duckdb", positive, negative)


def assert_float_labels_as_in_memory(folder, engine: str, labels: tuple[float, ...], suffix: str) -> None:
    """A file whose class labels are the floats ``labels`` (infinities among them: whole numbers to the class
    reader; the first row's truth one of them), predicted labels right four times in five (and a score for a binary
    file): through ``engine`` the same
    task, classes and numbers as in memory."""
    rng = np.random.default_rng(7)
    n, k = 400, len(labels)
    values = np.array(labels, dtype=float)
    y = rng.integers(0, k, n)
    y[0] = np.flatnonzero(np.isinf(values))[0]      # DuckDB's sniffer took a column opening with one for text
    pred = np.where(rng.random(n) < 0.8, y, rng.integers(0, k, n))
    frame = pd.DataFrame({"y_true": values[y], "y_pred": values[pred]})
    if k == 2:
        frame["score"] = np.round(np.clip(0.3 + 0.4 * y + rng.normal(0, 0.2, n), 0, 1), 3)
    path = folder / f"labels{suffix}"
    frame.to_csv(path, index=False) if suffix == ".csv" else frame.to_parquet(path, index=False)
    code_m, memory, err_m = run_cli("metrics", path, "--engine", "memory", "--ci", "wilson")
    code_e, out, err = run_cli("metrics", path, "--engine", engine, "--ci", "wilson")
    assert code_m == 0, err_m
    assert code_e == 0, err
    assert (out["task"], out["n"], out["positive"], out["classes"]) == \
        (memory["task"], memory["n"], memory["positive"], memory["classes"])
    assert_same_values(memory["models"], out["models"])


@pytest.mark.parametrize("labels", [(0.0, float("inf")), (float("-inf"), 0.0, 2.0)])
@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_float_class_labels_with_infinities_give_the_in_memory_numbers(tmp_path, labels, suffix):
    """Issue 31, item 6: a label written into SQL as repr(inf) was read as a column named inf (DuckDB's Binder
    Error), and DuckDB's CSV sniffer read a column holding -inf as text ('2.0' then matched no prediction 2.0:
    accuracy 0.30 for 0.81 in memory)."""
    assert_float_labels_as_in_memory(tmp_path, "duckdb", labels, suffix)


@pytest.mark.parametrize("cells", [("inf", "-inf"), ("infinity", "2020-01-01")])
def test_a_csv_column_of_infinities_or_dates_with_one_is_read_as_pandas_reads_it(tmp_path, cells):
    """DuckDB's sniffer reads a column of only inf/-inf, and dates with an infinity among them, as DATE, whose
    infinity has no pandas value: the head read raised ConversionException (exit 70). pandas reads the first as
    floats and the second as text; the numbers equal memory's."""
    rows = [f"{i % 2},{(i // 3) % 2},{cells[i % 2]}" for i in range(40)]
    path = tmp_path / "when.csv"
    path.write_text("y_true,y_pred,when\n" + "\n".join(rows) + "\n")
    code_m, memory, err_m = run_cli("metrics", path, "--engine", "memory", "--ci", "wilson")
    code_d, duck, err = run_cli("metrics", path, "--engine", "duckdb", "--ci", "wilson")
    assert code_m == 0 and code_d == 0, err_m + err
    assert_same_values(memory["models"], duck["models"])


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan"), 1.5, 1e300, 3, True, "it's \\ 'q'"])
def test_a_literal_reads_back_as_its_value_in_duckdb(value):
    from assess.engine.backends import DuckDBBackend

    backend = DuckDBBackend(resolve_source(str(SAMPLE)))
    try:
        back = backend.query(f"SELECT {backend.literal(value)} AS v")["v"].iloc[0]
    finally:
        backend.close()
    assert (np.isnan(back) if isinstance(value, float) and np.isnan(value) else back == value), (value, back)


def test_auto_picks_memory_for_a_small_file_and_duckdb_for_a_directory(tmp_path):
    frame = pd.read_csv(SAMPLE)
    for i, rows in enumerate(np.array_split(np.arange(len(frame)), 3)):
        frame.iloc[rows].to_parquet(tmp_path / f"part-{i}.parquet")
    code, small, _ = run_cli("metrics", SAMPLE)
    assert code == 0 and "engine" not in small
    code, parts, err = run_cli("metrics", tmp_path)
    assert code == 0, err
    assert parts["engine"]["name"] == "duckdb"
    assert_same_values(small["models"], parts["models"])


# --- generated files: ties, weights, string labels, several models ------------------------------------------------

@st.composite
def binary_files(draw):
    n = draw(st.integers(8, 60))
    models = draw(st.sampled_from([["a"], ["a", "b"], ["m1", "m2", "m3"]]))
    levels = draw(st.integers(2, 12))          # few distinct scores: many ties
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 16)))
    rows = []
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]                              # both classes present
    for m in models:
        score = np.round(rng.integers(0, levels, n) / (levels - 1), 6)
        pred = np.where(rng.random(n) < 0.8, y, 1 - y)
        rows.append(pd.DataFrame({"id": np.arange(n), "model": m, "y_true": np.where(y == 1, "yes", "no"),
                                  "y_pred": np.where(pred == 1, "yes", "no"), "score": score}))
    frame = pd.concat(rows, ignore_index=True)
    if draw(st.booleans()):
        frame["weight"] = np.round(rng.uniform(0.0, 3.0, len(frame)), 3)
    return frame


def _memory_reports(frame, decision, ci=None):
    table = LoadedTable(frame=frame, name="t.parquet", sha256="", n_bytes=0, format="parquet")
    assessment = describe(table, Overrides(positive="yes"))
    return compute_reports(assessment, decision=decision, ci=ci)


@settings(max_examples=25)
@given(frame=binary_files(), from_scores=st.booleans())
def test_duckdb_equals_memory_on_generated_files(frame, from_scores):
    decision = Decision.from_scores(0.5) if from_scores else Decision()
    ci = None if "weight" in frame else "wilson"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.parquet"
        frame.to_parquet(path)
        run = engine_reports(resolve_source(str(path)), "duckdb", Overrides(positive="yes"), decision=decision, ci=ci)
    memory = _memory_reports(frame, decision, ci)
    assert run.exact
    assert set(run.reports) == set(memory)
    assert_same_values({m: r.to_dict(with_ci=bool(ci)) for m, r in memory.items()},
                       {m: r.to_dict(with_ci=bool(ci)) for m, r in run.reports.items()})
    for model, report in run.reports.items():           # and scikit-learn directly
        rows = frame[frame["model"] == model]
        y, w = (rows["y_true"] == "yes").to_numpy(), rows["weight"].to_numpy() if "weight" in rows else None
        if w is not None and (w[y].sum() == 0 or w[~y].sum() == 0):
            continue
        assert report["roc_auc"].value == pytest.approx(roc_auc_score(y, rows["score"], sample_weight=w), abs=1e-12)
        assert report["average_precision"].value == pytest.approx(
            average_precision_score(y, rows["score"], sample_weight=w), abs=1e-12)


def test_a_directory_of_parts_equals_the_single_file(tmp_path):
    rng = np.random.default_rng(3)
    n = 5000
    frame = pd.DataFrame({"model": np.repeat(["a", "b"], n), "y_true": rng.integers(0, 2, 2 * n),
                          "score": np.round(rng.random(2 * n), 4)})
    frame.to_parquet(tmp_path / "one.parquet")
    (tmp_path / "parts").mkdir()
    shuffled = frame.sample(frac=1.0, random_state=1)
    for i, rows in enumerate(np.array_split(np.arange(len(frame)), 4)):
        shuffled.iloc[rows].to_parquet(tmp_path / "parts" / f"part-{i}.parquet")
    one = engine_reports(resolve_source(str(tmp_path / "one.parquet")), "duckdb", Overrides())
    parts = engine_reports(resolve_source(str(tmp_path / "parts")), "duckdb", Overrides())
    glob = engine_reports(resolve_source(str(tmp_path / "parts" / "part-*.parquet")), "duckdb", Overrides())
    for other in (parts, glob):
        assert_same_values({m: r.to_dict() for m, r in one.reports.items()},
                           {m: r.to_dict() for m, r in other.reports.items()})


def _one_model(model: str, n: int = 40) -> pd.DataFrame:
    return pd.DataFrame({"model": model, "y_true": [i % 2 for i in range(n)],
                         "score": [0.3 + 0.4 * (i % 2) + 0.001 * i for i in range(n)]})


@pytest.mark.parametrize("name, neighbour", [("x*.parquet", "xa.parquet"), ("x[1].parquet", "x1.parquet"),
                                             ("x?.parquet", "xa.parquet")])
def test_a_file_named_with_glob_characters_is_that_file_alone(tmp_path, name, neighbour):
    """The command line takes an existing file as named, and the engine does not expand its name again: the
    neighbour its name would match as a pattern is not read (it was: issue 31, item 1)."""
    _one_model("literal").to_parquet(tmp_path / name, index=False)
    _one_model("neighbour").to_parquet(tmp_path / neighbour, index=False)
    code, out, err = run_cli("metrics", tmp_path / name, "--engine", "duckdb", "--ci", "wilson")
    assert code == 0, err
    assert list(out["models"]) == ["literal"] and out["n"] == 40


def test_a_glob_matching_files_named_with_glob_characters_reads_each_once(tmp_path):
    """``*.parquet`` matches ``x[1].parquet`` and ``x1.parquet``: DuckDB, handed ``x[1].parquet`` as a pattern, read
    ``x1.parquet`` twice and ``x[1].parquet`` never."""
    _one_model("bracket").to_parquet(tmp_path / "x[1].parquet", index=False)
    _one_model("plain").to_parquet(tmp_path / "x1.parquet", index=False)
    run = engine_reports(resolve_source(str(tmp_path / "*.parquet")), "duckdb", Overrides(), ci="wilson")
    assert sorted(run.reports) == ["bracket", "plain"] and run.n_rows == 80


# --- the score grid: a stated bound that holds ----------------------------------------------------------------------

@pytest.mark.parametrize("bins, n", [(2 ** 10, 1_000_000), (GRID_BINS, 10_000_000), (2 ** 20, 1_000_000)])
def test_the_grid_reports_a_bound_holding_the_true_error(tmp_path, bins, n):
    """The issue's case at the default grid: 1e7 distinct float scores; coarser and finer grids on 1e6."""
    rng = np.random.default_rng(11)
    y = rng.random(n) < 0.3
    score = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1)
    # rows in score order: the grid is blind to row order, and scikit-learn's stable sorts (one per oracle call)
    # then run in linear time, one sort here instead of two (of 1e7 scores: about a third of the test's time)
    order = np.argsort(score)
    y, score = y[order], score[order]
    pd.DataFrame({"y_true": y.astype(np.int8), "score": score}).to_parquet(tmp_path / "g.parquet")
    run = engine_reports(resolve_source(str(tmp_path / "g.parquet")), "duckdb", Overrides(),
                         decision=Decision.from_scores(0.5), exact_limit=0, bins=bins)
    assert not run.exact and run.bins == bins
    (model, report), = run.reports.items()
    bound = run.bounds[model]
    exact = {"roc_auc": roc_auc_score(y, score), "average_precision": average_precision_score(y, score)}
    for key, truth in exact.items():
        error = abs(report[key].value - truth)
        assert bound[key] > 0 and error <= bound[key], (key, error, bound[key])
        assert "score grid" in report[key].note
    # label metrics and losses do not depend on the grid: exact
    assert report["tp"].value == np.count_nonzero(y & (score >= 0.5))
    assert report["brier_score"].value == pytest.approx(np.mean((score - y) ** 2), rel=1e-12)


# --- bad input: one clear line, exit status 2 ---------------------------------------------------------------------

def test_a_glob_matching_nothing(tmp_path):
    code, _, err = run_cli("metrics", tmp_path / "nothing-*.parquet", "--engine", "duckdb")
    assert code == 2 and "matches no file" in err


def test_parts_with_different_schemas(tmp_path):
    pd.DataFrame({"y_true": [0, 1], "score": [0.1, 0.9]}).to_parquet(tmp_path / "a.parquet")
    pd.DataFrame({"y_true": ["0", "1"], "score": [0.1, 0.9]}).to_parquet(tmp_path / "b.parquet")
    code, _, err = run_cli("metrics", tmp_path, "--engine", "duckdb")
    assert code == 2 and "b.parquet" in err and "'y_true'" in err and "different schemas" in err


def test_a_column_missing_in_one_part(tmp_path):
    pd.DataFrame({"y_true": [0, 1], "score": [0.1, 0.9]}).to_parquet(tmp_path / "a.parquet")
    pd.DataFrame({"y_true": [0, 1]}).to_parquet(tmp_path / "b.parquet")
    code, _, err = run_cli("metrics", tmp_path, "--engine", "duckdb")
    assert code == 2 and "b.parquet" in err and "'score' is missing" in err


def test_a_non_numeric_score_half_way_through_a_large_csv(tmp_path):
    n, bad = 2_000_000, 1_000_000
    score = np.char.mod("%.6f", np.random.default_rng(0).random(n)).astype(object)
    score[bad] = "abc"
    pd.DataFrame({"y_true": np.arange(n) % 2, "score": score}).to_csv(tmp_path / "big.csv", index=False)
    code, _, err = run_cli("metrics", tmp_path / "big.csv", "--engine", "duckdb")
    assert code == 2
    assert f"line {bad + 2:,} (data row {bad + 1:,})" in err and "'score'" in err and "'abc'" in err
    assert err.count("\n") == 1


def test_memory_refuses_a_directory_and_names_the_engine(tmp_path):
    code, _, err = run_cli("metrics", tmp_path, "--engine", "memory")
    assert code == 2 and "--engine duckdb" in err


def test_the_cli_has_no_row_cap_of_its_own(monkeypatch):
    """The app's 5,000,000-row and 200 MB caps do not apply to the command line (memory is its limit); an explicit
    --max-rows still does."""
    import assess.cli.common as common

    seen = []
    real = common.read_table
    monkeypatch.setattr(common, "read_table", lambda *a, **kw: seen.append(kw["limits"]) or real(*a, **kw))
    monkeypatch.delenv("ASSESS_MAX_ROWS", raising=False)
    monkeypatch.delenv("ASSESS_MAX_MB", raising=False)
    code, _, err = run_cli("metrics", SAMPLE, "--engine", "memory")
    assert code == 0, err
    assert seen[-1].max_rows > 10 ** 12 and seen[-1].max_bytes > 2 ** 39
    code, _, err = run_cli("metrics", SAMPLE, "--engine", "memory", "--max-rows", "100")
    assert code == 2 and "100" in err


def test_memory_says_when_the_file_would_not_fit(monkeypatch):
    monkeypatch.setattr("assess.cli.engine._available_bytes", lambda: 1024)
    code, _, err = run_cli("metrics", SAMPLE, "--engine", "memory")
    assert code == 2 and "this command may use (half the memory available)" in err and "--engine duckdb" in err


def test_multiclass_metrics_out_of_core_equal_memory():
    # label metrics from the confusion table, score metrics (one-vs-rest and pairwise AUCs, log loss, Brier, top-k)
    # from per-class score histograms (tests/engine/test_multiclass.py has generated files)
    wine = SAMPLE.with_name("wine_multiclass.csv")
    code_m, memory, _ = run_cli("metrics", wine, "--engine", "memory", "--ci", "wilson")
    code_d, duck, err = run_cli("metrics", wine, "--engine", "duckdb", "--ci", "wilson")
    assert code_m == 0 and code_d == 0, err
    assert duck["classes"] == memory["classes"] and "not_computed" not in duck["engine"]
    assert_same_values(memory["models"], duck["models"])


def test_regression_out_of_core_equals_memory_on_the_sample():
    diabetes = SAMPLE.with_name("diabetes_regression.csv")
    code_m, memory, _ = run_cli("metrics", diabetes, "--engine", "memory")
    code_d, duck, err = run_cli("metrics", diabetes, "--engine", "duckdb")
    assert code_m == 0 and code_d == 0, err
    assert_same_values(memory["models"], duck["models"])
    assert memory["undefined"] == duck["undefined"] and memory["settings"] == duck["settings"]


def test_regression_with_weights_and_zero_truths_equals_memory(tmp_path):
    rng = np.random.default_rng(21)
    n = 3000
    y = np.round(rng.normal(5, 3, n), 1)
    y[:40] = 0.0                                          # MAPE undefined: the reason names the count
    frame = pd.concat([pd.DataFrame({"model": m, "y_true": y, "y_pred": np.round(y + rng.normal(b, 1, n), 2),
                                     "weight": np.round(rng.uniform(0.1, 2, n), 2)}) for m, b in (("u", 0), ("v", 1))],
                      ignore_index=True)
    frame.to_parquet(tmp_path / "r.parquet")
    run = engine_reports(resolve_source(str(tmp_path / "r.parquet")), "duckdb", Overrides())
    table = LoadedTable(frame=frame, name="r.parquet", sha256="", n_bytes=0, format="parquet")
    memory = compute_reports(describe(table, Overrides()))
    for model, report in run.reports.items():
        mem = memory[model]
        for r in report.results:
            assert _close(mem[r.key].value if mem[r.key].defined else None, r.value if r.defined else None, 1e-9), \
                (model, r.key, mem[r.key].value, r.value)
            if not r.defined:
                assert r.reason.split(" (first")[0] in mem[r.key].reason.replace(" (first at row 0)", "")


@pytest.mark.parametrize("column, value", [("y_pred", np.inf), ("y_true", np.nan), ("weight", np.inf),
                                           ("weight", np.nan)])
def test_regression_non_finite_cells_after_the_first_rows_are_refused(tmp_path, column, value):
    """A NaN (a real one, not an empty cell) or an infinity past the first rows: a present cell to the engine's
    count(), so counted apart and refused, as the in-memory validation refuses it (its message names the row)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(3)
    n = 60_000
    cols = {"y_true": rng.normal(0, 3, n), "weight": rng.integers(1, 4, n) / 1.0}
    cols["y_pred"] = cols["y_true"] + rng.normal(0, 1, n)
    cols[column][55_000] = value
    pq.write_table(pa.table({k: pa.array(v, from_pandas=False) for k, v in cols.items()}), tmp_path / "r.parquet")
    for engine in ("memory", "duckdb"):
        code, _, err = run_cli("metrics", tmp_path / "r.parquet", "--engine", engine)
        assert code == 2, (engine, err)
    assert ("weights" in err) if column == "weight" else ("NaN or infinite" in err and "y_pred" in err), err


def test_parameterised_metrics_are_named_with_their_parameter_in_memory_and_out_of_core(tmp_path):
    """A table row "Top-k accuracy" did not say which k (nor "F-beta score" which β): both paths name the value with
    the parameter it was computed with, the same way."""
    rng = np.random.default_rng(7)
    classes = np.array(["ant", "bee", "cat", "dog"])
    n = 80
    proba = rng.dirichlet(np.ones(4), n)
    frame = pd.DataFrame({"y_true": classes[rng.integers(0, 4, n)], "y_pred": classes[proba.argmax(axis=1)]})
    for j, c in enumerate(classes):
        frame[f"proba_{c}"] = proba[:, j]
    frame.to_parquet(tmp_path / "mc.parquet")
    run = engine_reports(resolve_source(str(tmp_path / "mc.parquet")), "duckdb", Overrides(), k=3, beta=2.0)
    table = LoadedTable(frame=frame, name="mc.parquet", sha256="", n_bytes=0, format="parquet")
    memory = compute_reports(describe(table, Overrides()), k=3, beta=2.0)
    for reports in (run.reports, memory):
        report, = reports.values()
        names = {r.key: r.name for r in report.results}
        assert names["top_k_accuracy"] == "Top-3 accuracy"
        assert {names[k] for k in names if "fbeta" in k} == {"F-beta (macro, β = 2)", "F-beta (micro, β = 2)",
                                                               "F-beta (weighted, β = 2)"}
        assert names["accuracy"] == "Accuracy"
