"""Fuzzing the out-of-core path: a small hostile CSV or Parquet file through `assess.engine` (DuckDB) ends in results
or the project's own `AssessError`, never another exception (which the command line reports as exit 70, our bug).

The texts are the in-memory fuzzer's (`tests.inputs.test_fuzz_pipeline.csv_texts`: synonym column names, hostile
cells, duplicated names); each is written as the CSV file DuckDB reads itself, or as a Parquet file of the columns
pandas reads from it (duplicated names made unique, as a Parquet writer must). They go through what ``python -m assess
metrics FILE --engine duckdb`` runs: `resolve_source` (the file's format, the Parquet schemas), then `engine_reports`
(DuckDB's head read, `describe`, the profiling and curve scans, the metrics). DuckDB only: a Spark session costs
seconds per file. Derandomized by the ``ci`` profile (tests/conftest.py), 40 files in a few seconds; hunt for more
with ``HYPOTHESIS_PROFILE=dev`` and a ``--hypothesis-seed``, and pin what is found with ``@example``.
"""

from __future__ import annotations

import io

import pandas as pd
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from assess.core.decision import AUTO, LABELS, SCORES, Decision
from assess.core.errors import AssessError
from assess.engine.reports import engine_reports
from assess.engine.source import resolve_source
from assess.inputs.roles import Overrides
from tests.inputs.test_fuzz_pipeline import FOUND, KEY_ERROR_NA, csv_texts

duckdb = pytest.importorskip("duckdb")


def _parquet(text: str) -> bytes | None:
    """The CSV text as a Parquet file: a column whose every present cell is a number as doubles, any other as
    strings (pyarrow types neither a column of mixed numbers and text nor integers beyond 64 bits); None when pandas
    cannot read the text at all (a row with more cells than the header)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        frame = pd.read_csv(io.StringIO(text), dtype=str)
    except (ValueError, pd.errors.ParserError):
        return None
    for col in frame.columns:
        numbers = pd.to_numeric(frame[col], errors="coerce")
        if numbers.notna().sum() == frame[col].notna().sum():
            frame[col] = numbers.astype(float)
    buf = io.BytesIO()
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), buf)
    return buf.getvalue()


def run_engine(tmp_path, text: str, fmt: str, decision: Decision = Decision()) -> None:
    """Write ``text`` as a ``fmt`` file and assess it with DuckDB; only results or an `AssessError` may leave."""
    data = text.encode() if fmt == "csv" else _parquet(text)
    assume(data is not None)
    path = tmp_path / f"fuzz.{fmt}"
    path.write_bytes(data)
    try:
        run = engine_reports(resolve_source(str(path)), "duckdb", Overrides(), decision=decision, n_resamples=50)
    except AssessError:
        return
    assert set(run.reports) <= set(run.assessment.models)


#: What the fuzzer found through DuckDB, each now read as pandas reads it or refused with an AssessError: a column of
#: ``inf`` that DuckDB's CSV sniffer took for DATE (±infinity) failed the head read with ConversionException; a
#: UTF-16 CSV failed the sniffer with InvalidInputException (exit 70 on the command line).
DATE_INFINITY = "y_true,y_pred,when\n1,1,inf\n0,0,-inf\n"


def test_a_column_of_inf_in_a_csv_is_read_by_duckdb_as_pandas_reads_it(tmp_path):
    path = tmp_path / "inf.csv"
    path.write_text(DATE_INFINITY)
    run = engine_reports(resolve_source(str(path)), "duckdb", Overrides())
    assert run.n_rows == 2


@pytest.mark.parametrize("data, says", [
    ("y_true,y_pred,score\n1,0,0.5\n0,1,0.2\n".encode("utf-16"), "it is UTF-16"),
    ("y_true,y_pred,région\n1,0,Zürich\n0,1,Genève\n".encode("latin-1"), "is not UTF-8"),
])
def test_a_csv_that_is_not_utf8_is_refused_as_bad_input_naming_the_file(tmp_path, data, says):
    path = tmp_path / "wide.csv"
    path.write_bytes(data)
    with pytest.raises(AssessError, match=f"wide.csv: the out-of-core engines read UTF-8 text and .*{says}.*"
                                          "--engine memory"):
        engine_reports(resolve_source(str(path)), "duckdb", Overrides())


@settings(max_examples=40)
@given(csv_texts(), st.sampled_from(["csv", "parquet"]), st.sampled_from([AUTO, LABELS, SCORES]))
@example(FOUND["class scores of three classes on a binary truth"], "csv", AUTO)
@example(FOUND["all-zero weights"], "parquet", AUTO)
@example(KEY_ERROR_NA, "csv", SCORES)
def test_engine_gives_results_or_an_assess_error(tmp_path_factory, text, fmt, source):
    run_engine(tmp_path_factory.mktemp("fuzz"), text, fmt, Decision(source))
