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
from hypothesis import assume, example, given, reject, settings
from hypothesis import strategies as st

from assess.core.decision import AUTO, LABELS, SCORES, Decision
from assess.core.errors import AssessError
from assess.engine.reports import engine_reports
from assess.engine.source import resolve_source
from assess.inputs.roles import Overrides
from tests.inputs.test_fuzz_pipeline import FOUND, csv_texts

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
    except Exception as exc:  # noqa: BLE001 - only the one known escape is set aside, by its exact message
        if fmt == "csv" and KNOWN_DATE_INFINITY in str(exc):
            reject()   # pinned below as a strict xfail: when it is fixed, that test fails and this goes
        raise
    assert set(run.reports) <= set(run.assessment.models)


#: The one escape the fuzzer finds (71 of 1,500 random files): DuckDB's CSV sniffer reads a column holding ``inf`` as
#: DATE (``infinity``), and converting the head rows to pandas raises `duckdb.ConversionException` in
#: `assess.engine.backends` (exit 70 on the command line; the in-memory reader reads the column as numbers).
KNOWN_DATE_INFINITY = "Could not convert DATE (infinity)"
DATE_INFINITY = "y_true,y_pred,when\n1,1,inf\n0,0,-inf\n"


@pytest.mark.xfail(strict=True, raises=duckdb.ConversionException, reason="assess.engine.backends: DuckDB reads a CSV column of inf as DATE and fails "
                                       "to convert it (an engine fix; see KNOWN_DATE_INFINITY)")
def test_a_column_of_inf_in_a_csv_is_read_by_duckdb(tmp_path):
    path = tmp_path / "inf.csv"
    path.write_text(DATE_INFINITY)
    try:
        engine_reports(resolve_source(str(path)), "duckdb", Overrides())
    except AssessError:
        pass


@pytest.mark.xfail(strict=True, raises=duckdb.InvalidInputException,
                   reason="assess.engine.backends: a CSV that is not UTF-8 reaches DuckDB's InvalidInputException (exit "
                          "70) where the in-memory reader reads UTF-16 and refuses bad bytes with an InputError")
def test_a_csv_that_is_not_utf8_is_read_or_refused_as_bad_input(tmp_path):
    path = tmp_path / "utf16.csv"
    path.write_bytes("y_true,y_pred,score\n1,0,0.5\n0,1,0.2\n".encode("utf-16"))
    try:
        engine_reports(resolve_source(str(path)), "duckdb", Overrides())
    except AssessError:
        pass


@settings(max_examples=40)
@given(csv_texts(), st.sampled_from(["csv", "parquet"]), st.sampled_from([AUTO, LABELS, SCORES]))
@example(FOUND["class scores of three classes on a binary truth"], "csv", AUTO)
@example(FOUND["all-zero weights"], "parquet", AUTO)
@example(FOUND["KeyError NA"], "csv", SCORES)
def test_engine_gives_results_or_an_assess_error(tmp_path_factory, text, fmt, source):
    run_engine(tmp_path_factory.mktemp("fuzz"), text, fmt, Decision(source))
