"""The out-of-core binary path's two scans (assess.engine.binary): the fallbacks and the perfect-hash grid.

Scan 1 takes the positive class's raw values from the first rows and counts again when the whole file says otherwise;
scan 2 counts the grid in DuckDB's perfect hash table when the key's range allows, else in its hash table. Each
way must give the same numbers. Oracles: the in-memory `compute_reports` (checked against scikit-learn in
tests/metrics/test_oracle.py) and scikit-learn's roc_auc_score / average_precision_score, weighted, for the grid.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

from assess.core.decision import Decision
from assess.engine import backends
from assess.engine import binary as grouped
from assess.engine.reports import engine_reports
from assess.engine.source import resolve_source
from assess.inputs.assessment import describe
from assess.inputs.read import LoadedTable
from assess.inputs.roles import Overrides
from assess.metrics.reports import compute_reports
from tests.engine.test_engine import assert_same_values

pytest.importorskip("duckdb")


def _frame(n=3000, models=("a", "b"), seed=5, weights=False) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    parts = []
    for m in models:
        y = rng.random(n) < 0.3
        parts.append(pd.DataFrame({"model": m, "y_true": np.where(y, "yes", "no"),
                                   "score": np.round(np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1), 3)}))
    frame = pd.concat(parts, ignore_index=True)
    if weights:
        frame["weight"] = np.round(rng.uniform(0.0, 2.0, len(frame)), 2)
    return frame


def _memory(frame, decision):
    table = LoadedTable(frame=frame, name="t.parquet", sha256="", n_bytes=0, format="parquet")
    return {m: r.to_dict() for m, r in compute_reports(describe(table, Overrides(positive="yes")),
                                                      decision=decision).items()}


def test_a_wrong_guess_of_the_positive_values_is_counted_again(tmp_path, monkeypatch):
    frame = _frame(weights=True)
    frame.to_parquet(tmp_path / "t.parquet")
    calls = []
    real = grouped.summarise

    def counting(*args, **kwargs):
        calls.append(args[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(grouped, "head_positives", lambda assessment: ["no"])   # the wrong class
    monkeypatch.setattr(grouped, "summarise", counting)
    decision = Decision.from_scores(0.5)
    run = engine_reports(resolve_source(str(tmp_path / "t.parquet")), "duckdb", Overrides(positive="yes"),
                         decision=decision)
    assert calls == [["no"], ["yes"]]
    assert_same_values(_memory(frame, decision), {m: r.to_dict() for m, r in run.reports.items()})


def test_the_guess_from_the_first_rows_needs_one_summary_scan(tmp_path, monkeypatch):
    _frame().to_parquet(tmp_path / "t.parquet")
    calls = []
    real = grouped.summarise
    monkeypatch.setattr(grouped, "summarise", lambda *a, **k: calls.append(a[2]) or real(*a, **k))
    engine_reports(resolve_source(str(tmp_path / "t.parquet")), "duckdb", Overrides(positive="yes"))
    assert calls == [["yes"]]


@pytest.mark.parametrize("weights", [False, True])
def test_the_grid_counts_the_same_in_the_perfect_and_the_ordinary_hash_table(tmp_path, monkeypatch, weights):
    frame = _frame(models=("m1", "m2", "m3"), weights=weights)
    frame.to_parquet(tmp_path / "t.parquet")
    source = resolve_source(str(tmp_path / "t.parquet"))
    decision = Decision.from_scores(0.4)
    runs = []
    for bits in (backends.PERFECT_HASH_BITS, 0):     # 0: DuckDB never uses the perfect hash table
        monkeypatch.setattr(backends, "PERFECT_HASH_BITS", bits)
        runs.append(engine_reports(source, "duckdb", Overrides(positive="yes"), decision=decision, exact_limit=0,
                                   bins=2 ** 12))
    perfect, hashed = runs
    assert not perfect.exact and perfect.bounds == hashed.bounds
    assert_same_values({m: r.to_dict() for m, r in perfect.reports.items()},
                       {m: r.to_dict() for m, r in hashed.reports.items()})
    for model, report in perfect.reports.items():          # within the stated bound of scikit-learn's exact values
        rows = frame[frame["model"] == model]
        y, s = (rows["y_true"] == "yes").to_numpy(), rows["score"].to_numpy()
        w = rows["weight"].to_numpy() if weights else None
        for key, truth in (("roc_auc", roc_auc_score(y, s, sample_weight=w)),
                           ("average_precision", average_precision_score(y, s, sample_weight=w))):
            assert abs(report[key].value - truth) <= perfect.bounds[model][key] + 1e-12, (model, key)


def test_grid_thresholds_are_bin_edges_that_split_the_rows_as_the_bins_do(tmp_path):
    rng = np.random.default_rng(2)
    y = rng.random(20_000) < 0.4
    s = rng.random(20_000)
    pd.DataFrame({"y_true": y.astype(np.int8), "score": s}).to_parquet(tmp_path / "g.parquet")
    run = engine_reports(resolve_source(str(tmp_path / "g.parquet")), "duckdb", Overrides(),
                         decision=Decision.from_scores(0.5), exact_limit=0, bins=64)
    (model, report), = run.reports.items()
    assert report["roc_auc"].value == pytest.approx(roc_auc_score(y, s), abs=run.bounds[model]["roc_auc"] + 1e-12)
    assert report["tp"].value == np.count_nonzero(y & (s >= 0.5))


@pytest.mark.parametrize("lo, hi", [(0.0, 1.0), (0.15000000265803726, 0.85), (-3.0, 1e6), (1e-300, 2e-300),
                                    (0.1, 0.1 + 2 ** -30)])
@pytest.mark.parametrize("bins", [64, 2 ** 16, 2 ** 18])
def test_a_score_s_bin_is_floor_of_its_distance_from_lo_times_the_scale_in_every_engine_form(lo, hi, bins):
    """`Plan.bin` needs no clamp on DuckDB up to 2^16 bins (a USMALLINT cast, which fails on overflow): the scale is
    lowered so that the top score's bin is ``bins - 1``. With (0, 1) and 2^16 bins the plain ``bins / (hi - lo)``
    would put the top score in bin 2^16. The oracle: NumPy's floor of the same IEEE products."""
    import duckdb

    plan = grouped.Plan(exact=False, lo=lo, hi=hi, bins=bins)
    rng = np.random.default_rng(bins)
    s = np.concatenate([[lo, hi, np.nextafter(hi, lo)], rng.uniform(lo, hi, 2000)])
    expected = np.floor((s - lo) * plan.scale).astype(np.int64)
    assert expected.min() == 0 and expected.max() == bins - 1
    con = duckdb.connect()
    for engine in ("duckdb", "spark"):      # Spark's form (the clamped BIGINT) evaluated by DuckDB's SQL
        sql = f"SELECT {plan.bin(engine)} FROM (SELECT unnest(?::DOUBLE[]) AS s)"
        got = np.array([row[0] for row in con.execute(sql, [s.tolist()]).fetchall()], dtype=np.int64)
        np.testing.assert_array_equal(got, expected)


def test_the_grid_is_counted_in_duckdb_s_perfect_hash_table(tmp_path, monkeypatch):
    """The curve scan's speed rests on its plan: both group columns of known range (the 16-bit bin without a
    clamp), so DuckDB counts in an array indexed by the keys rather than hashing ~10^5 groups. A CSV file: unlike
    Parquet's, its columns come with no statistics from which DuckDB could derive a bin's range itself."""
    frame = _frame()
    frame["y_true"] = (frame["y_true"] == "yes").astype(int)
    frame.to_csv(tmp_path / "t.csv", index=False)
    plans = []
    real = backends.DuckDBBackend.arrays

    def explained(self, sql):
        plans.append(self.con.execute("EXPLAIN " + sql).fetchall()[0][1])
        return real(self, sql)

    monkeypatch.setattr(backends.DuckDBBackend, "arrays", explained)
    run = engine_reports(resolve_source(str(tmp_path / "t.csv")), "duckdb", Overrides(),
                         decision=Decision.from_scores(0.5), exact_limit=0)
    assert not run.exact and len(plans) == 1
    assert "Perfect Hash Group By" in plans[0]


@pytest.mark.parametrize("column, value, message", [
    ("score", np.nan, "2 NaN or infinite values"),
    ("score", np.inf, "2 NaN or infinite values"),
    ("weight", -1.0, "2 negative or NaN weights"),
    ("weight", np.nan, "2 negative or NaN weights"),
])
def test_bad_scores_and_weights_are_counted_and_refused(tmp_path, column, value, message):
    """The summary scan sees them only as a non-finite sum or an extreme; the recount names how many. The bad rows
    come after the first rows (`assess.engine.reports.HEAD_ROWS`), which the in-memory checks read."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    frame = _frame(n=40_000, weights=True)
    frame.loc[[70_000, 79_000], column] = value
    # NaN stays NaN (pandas would write it as an empty cell)
    pq.write_table(pa.table({c: pa.array(frame[c].to_numpy(), from_pandas=False) for c in frame}),
                   tmp_path / "bad.parquet")
    with pytest.raises(grouped.AssessError, match=message):
        engine_reports(resolve_source(str(tmp_path / "bad.parquet")), "duckdb", Overrides(positive="yes"))


def test_a_huge_but_finite_score_is_not_an_error(tmp_path):
    """1e200 squares to infinity in the Brier sum, which only prompts the recount: no score is non-finite."""
    frame = _frame()
    frame.loc[3, "score"] = 1e200
    frame.to_parquet(tmp_path / "huge.parquet")
    run = engine_reports(resolve_source(str(tmp_path / "huge.parquet")), "duckdb", Overrides(positive="yes"))
    assert np.isnan(run.reports["a"]["brier_score"].value)       # not probabilities: undefined, with a reason
    assert "not probabilities" in run.reports["a"]["brier_score"].reason


# --- how many times a run reads the file (the engine's statement trace) -------------------------------------------

def _file_reads(capsys) -> list[str]:
    return [line for line in capsys.readouterr().err.splitlines()
            if line.startswith("engine-trace") and "[reads the file]" in line]


def test_a_binary_run_reads_the_file_three_times(tmp_path, monkeypatch, capsys):
    """The first rows, the summary scan and the curve scan — DeLong's interval and every metric come from the
    grouped tables, not from more scans (the bench's breakdown counts the same lines)."""
    _frame().to_parquet(tmp_path / "t.parquet")
    monkeypatch.setenv(backends.TRACE_ENV, "1")
    capsys.readouterr()
    engine_reports(resolve_source(str(tmp_path / "t.parquet")), "duckdb", Overrides(positive="yes"), ci="delong")
    reads = _file_reads(capsys)
    assert len(reads) == 3, reads
    assert "LIMIT" in reads[0] and "s_distinct" in reads[1] and "code * 2 + pos" in reads[2]


def test_the_paired_tests_pivot_in_one_grouped_scan(tmp_path, monkeypatch, capsys):
    """DeLong: the first rows, the model names, the truth's values, the share of distinct scores (which picks how
    the placements are found), then one statement that places the scores, pivots by id and sums the cross
    products; the pivot by id runs outside DuckDB's perfect hash table, which is allocated whole over the ids' range
    (`backends.DEFAULT_PERFECT_HASH_BITS`)."""
    from assess.engine.compare import engine_compare

    rng = np.random.default_rng(4)
    n = 500
    y = rng.random(n) < 0.4
    frame = pd.concat([pd.DataFrame({"id": np.arange(n), "model": m, "y_true": y.astype(int),
                                     "score": np.round(np.clip(rng.normal(0.4 + shift * y, 0.2), 0, 1), 3)})
                       for m, shift in (("a", 0.3), ("b", 0.1))], ignore_index=True)
    frame.to_parquet(tmp_path / "long.parquet")
    monkeypatch.setenv(backends.TRACE_ENV, "1")
    settings = []
    real = backends.DuckDBBackend.perfect_hash_bits
    monkeypatch.setattr(backends.DuckDBBackend, "perfect_hash_bits",
                        lambda self, bits: settings.append(bits) or real(self, bits))
    capsys.readouterr()
    engine_compare(resolve_source(str(tmp_path / "long.parquet")), "duckdb", Overrides(), test="delong")
    reads = _file_reads(capsys)
    assert len(reads) == 5 and "LIMIT" in reads[0] and "approx_count_distinct" in reads[3], reads
    assert settings == [backends.DEFAULT_PERFECT_HASH_BITS]
