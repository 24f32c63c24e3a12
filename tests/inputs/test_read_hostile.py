"""The hostile files of issue 15 (made in code by `tests.hostile_files`): each ends in one clear `InputError` line
from the reader and exit 2 with one line from ``python -m assess inspect``; the files that are merely odd load.

Memory is checked with tracemalloc where the old readers held a copy per line or padded every row: a bound on
allocations is deterministic, where a timing would not be (timings live in ``bench/bench_hostile.py``).
"""

import gzip
import io
import json
import tracemalloc

import openpyxl
import pytest

from assess.cli import main
from assess.core.errors import MAX_MESSAGE, AssessError, InputError, shorten
from assess.inputs.read import Limits, read_table
from tests import hostile_files as hostile

REFUSED = {
    # maker: message after "<file>: " (a regular expression)
    hostile.zip_bad_crc: r"is a damaged zip file \(Bad CRC-32 for file 'p\.csv'\)$",
    hostile.zip_encrypted: r"is an encrypted zip archive; unpack it and upload the predictions file itself$",
    hostile.zip_unsupported_method: r"uses a zip compression method this app cannot unpack \(method 98: PPMd\); "
                                    r"re-create it with the standard deflate method, or upload the file itself$",
    hostile.xlsx_truncated_sheet: r"is not a readable \.xlsx workbook: sheet 'Sheet1' is damaged \(ParseError: "
                                  r"no element found: line 1, column \d+\)$",
    hostile.xlsx_billion_laughs: r"is not a readable \.xlsx workbook: its XML declares entities, which are refused "
                                 r"\(an entity-expansion bomb can make a few KB expand to gigabytes\)$",
    hostile.xlsx_huge_header: r"column 2's name is 2,000,000 characters long \('s{29}…'\); a header cell over 1,000 "
                              r"characters is data, not a column name$",
    # lists of numbers or labels are read (assess.inputs.vectors); the struct is no vector
    hostile.parquet_nested: r"has nested columns: `score` \(struct<a: double>\); only lists of numbers \(one per "
                            r"class\) or of labels are read: write one value per cell \(for class probabilities one "
                            r"`proba_<class>` column each, or a list column\)$",
    hostile.jsonl_deep: r"line 1 nests arrays or objects too deeply to read; each value must be a number or a string$",
    hostile.jsonl_long_integer: r"line 1 holds an integer of more than 4,300 digits, too long to be a label or a "
                                r"score$",
    hostile.csv_field_over_limit: r"line 2 has a field longer than 131,072 characters, more than any cell of a "
                                  r"predictions table holds$",
    hostile.csv_many_columns: r"has 100,000 columns, over the 2,000 column limit \(raise it with ASSESS_MAX_COLUMNS "
                              r"or --max-columns\)$",
    hostile.utf16_odd: r"is UTF-16 text with a damaged or incomplete character at byte 46 \(truncated data\); save "
                       r"it again as UTF-8$",
    (lambda: hostile.csv_single_long_line(2_000_000)): r"has no line break in its first 1 MB: a header line that long "
                                                      r"is not a predictions table$",
}
CASES = {maker().__getitem__(0): (maker, pattern) for maker, pattern in REFUSED.items()}


@pytest.mark.parametrize("file", sorted(CASES))
def test_reader_refuses_with_one_clear_line(file):
    maker, pattern = CASES[file]
    name, data = maker()
    with pytest.raises(InputError, match=rf"^{name.replace('.', '[.]')}: {pattern}") as info:
        read_table(data, name=name)
    assert info.value.file == name and "\n" not in str(info.value)


@pytest.mark.parametrize("file", sorted(CASES))
def test_inspect_exits_2_with_one_line(file, tmp_path, capsys):
    name, data = CASES[file][0]()
    path = tmp_path / name
    path.write_bytes(data)
    code = main(["inspect", str(path)])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err.startswith(f"error: {name}: ") and err.count("\n") == 1 and len(err) < 400


def test_every_reader_case_of_the_generator_is_checked():
    assert {maker()[0] for maker in hostile.READER_CASES} <= set(CASES)


# --- odd but readable ----------------------------------------------------------------------------------------------

def test_integers_beyond_64_bits_are_labels_as_truth_and_floats_as_scores(tmp_path, capsys):
    name, data = hostile.csv_beyond_int64()
    frame = read_table(data, name=name).frame
    assert frame["y_true"].tolist() == ["99999999999999999999999"] * 40  # exact text, not a rounded float
    path = tmp_path / name
    path.write_bytes(data)
    assert main(["inspect", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["classes"] == ["0", "1", "99999999999999999999999"]

    name, data = hostile.csv_big_score()
    path = tmp_path / name
    path.write_bytes(data)
    assert main(["inspect", str(path)]) == 0
    problems = {p["code"]: p["message"] for p in json.loads(capsys.readouterr().out)["problems"]}
    assert problems["score_out_of_range"].startswith("column `score` has 40 values outside [0, 1] (first at row 1: "
                                                     "`1e+23`)")
    assert main(["metrics", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["models"]["big_score"]["accuracy"] == 0.5  # y_pred from the score


def test_json_integers_beyond_64_bits_are_text_too():
    frame = read_table(b'{"y_true": 99999999999999999999999, "score": 0.5}\n{"y_true": 1, "score": 0.25}\n',
                       name="big.jsonl").frame
    assert frame["y_true"].tolist() == ["99999999999999999999999", "1"]


def test_xlsx_dimension_claiming_16384_columns_is_not_padded():
    """openpyxl pads every row to the <dimension> claim; read as written, 1,000 rows of 2 cells stay small."""
    name, data = hostile.xlsx_wide_dimension(rows=1_000)
    tracemalloc.start()
    try:
        table = read_table(data, name=name)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert list(table.frame.columns) == ["y_true", "score"] and len(table.frame) == 1_000
    assert peak < 40 * 2**20, f"{peak / 2**20:.0f} MB traced: rows were padded"  # padded: 1,000 × 16,384 cells


def test_xlsx_unpacked_xml_obeys_the_size_cap():
    name, data = hostile.xlsx_wide_dimension(rows=20_000)
    assert len(data) < 2**20
    with pytest.raises(InputError, match=r"^xfd\.xlsx: expands to \d\.\d MB of XML when unpacked \(an \.xlsx is a "
                                         r"zip archive\), over the 1 MB limit \(raise it with ASSESS_MAX_MB or "
                                         r"--max-mb\)$"):
        read_table(data, name=name, limits=Limits(max_bytes=2**20))


def _xlsx(rows) -> bytes:
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def test_xlsx_row_wider_than_the_column_cap_is_refused_but_empty_formatting_is_not():
    wide = _xlsx([["y_true", "score"], [1, 0.5], [0, 0.25] + [None] * 20 + ["stray"]])
    with pytest.raises(InputError, match=r"^w\.xlsx: has 23 columns in sheet row 3, over the 10 column limit"):
        read_table(wide, name="w.xlsx", limits=Limits(max_columns=10))
    book = openpyxl.load_workbook(io.BytesIO(_xlsx([["y_true", "score"], [1, 0.5], [0, 0.25]])))
    book.active.cell(row=3, column=30).number_format = "0.00"  # a formatted, empty cell far right
    buf = io.BytesIO()
    book.save(buf)
    frame = read_table(buf.getvalue(), name="f.xlsx", limits=Limits(max_columns=10)).frame
    assert list(frame.columns) == ["y_true", "score"] and frame["score"].tolist() == [0.5, 0.25]


def test_gzip_bomb_is_refused_at_the_row_cap_without_a_string_per_line():
    """40 MB of ``0,1`` lines: the old reader made a str of the text and a list of 10 million line strings."""
    data = gzip.compress(b"y_true,y_pred\n" + b"0,1\n" * 10_000_000, compresslevel=1)
    tracemalloc.start()
    try:
        with pytest.raises(InputError, match=r"^bomb\.csv\.gz: has more than 1,000,000 rows, the row limit"):
            read_table(data, name="bomb.csv.gz", limits=Limits(max_rows=1_000_000))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100 * 2**20, f"{peak / 2**20:.0f} MB traced for 40 MB of text"


def test_parquet_cells_are_bounded_like_a_text_file_of_the_size_cap():
    """Run-length encoding lets a small Parquet file declare a huge table: the cell count is checked before reading."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    buf = io.BytesIO()
    pq.write_table(pa.table({f"c{i}": pa.array([0] * 100_000, pa.int8()) for i in range(10)}), buf)
    assert buf.tell() < 2**16
    with pytest.raises(InputError, match=r"^z\.parquet: declares 100,000 rows × 10 columns = 1,000,000 cells, more "
                                         r"than the 524,288 a 1 MB text file can hold \(raise it with ASSESS_MAX_MB"):
        read_table(buf.getvalue(), name="z.parquet", limits=Limits(max_bytes=2**20))


def test_decompressed_size_obeys_the_upload_cap():
    data = gzip.compress(b"y_true,y_pred\n" + b"0,1\n" * 300_000)
    with pytest.raises(InputError, match=r"^b\.csv\.gz: expands to more than the 1 MB limit when decompressed "
                                         r"\(raise it with ASSESS_MAX_MB or --max-mb\)$"):
        read_table(data, name="b.csv.gz", limits=Limits(max_bytes=2**20))


def test_header_over_the_column_cap_is_refused_before_rows_are_parsed(monkeypatch):
    import pandas as pd

    def no_parsing(*args, **kwargs):
        raise AssertionError("rows were parsed")

    monkeypatch.setattr(pd, "read_csv", no_parsing)
    header = ";".join(f"c{i}" for i in range(11)).encode()
    with pytest.raises(InputError, match=r"^w\.csv: has 11 columns, over the 10 column limit"):
        read_table(header + b"\n" + b"1;" * 10 + b"1\n", name="w.csv", limits=Limits(max_columns=10))


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
def test_files_longer_than_the_sniffed_prefix_read_whole(newline):
    """The sniffer sees the first 1 MB cut at a line end (CR alone too, as old Mac files have); the parser the rest."""
    body = b"".join(b"%d,%d" % (i % 2, (i // 2) % 2) + newline for i in range(300_000))
    table = read_table(b"y_true,y_pred" + newline + body, name="long.csv")
    assert len(body) > 2**20 and len(table.frame) == 300_000 and table.delimiter == ","
    assert table.frame["y_pred"].sum() == 150_000


# --- messages stay short ---------------------------------------------------------------------------------------------

def test_shorten_bounds_file_text():
    assert shorten("a" * 61) == "a" * 59 + "…"
    assert shorten("a" * 60) == "a" * 60
    assert shorten("x\ny", 10) == "x y"


def test_messages_are_one_bounded_line_whatever_they_quote():
    message = str(AssessError("columns: " + ", ".join(["n" * 1000] * 60_000) + ". Rename them."))
    assert len(message) <= MAX_MESSAGE and "\n" not in message and message.endswith("Rename them.")
    error = InputError("appears twice", file="f" * 10_000 + ".csv", column="c" * 10_000)
    assert len(str(error)) < 200 and error.file.endswith(".csv")  # the full name stays on the error


def test_duplicate_long_column_names_give_a_short_message():
    name = "s" * 500
    with pytest.raises(InputError) as info:
        read_table(f"y_true,{name},{name}\n1,0,0\n".encode(), name="d.csv")
    assert str(info.value) == f"d.csv: column `{'s' * 59}…` appears twice in the header (columns 2 and 3); names " \
                              f"must be unique"


def test_json_lines_over_the_row_cap_are_counted_before_any_record_is_built():
    data = gzip.compress(b'{"y_true": 0, "y_pred": 1}\n' * 1_500_000)  # 40 MB; 1.5 million dicts would be ~1 GB
    tracemalloc.start()
    try:
        with pytest.raises(InputError, match=r"^b\.jsonl\.gz: has more than 1,000,000 rows, the row limit"):
            read_table(data, name="b.jsonl.gz", limits=Limits(max_rows=1_000_000))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100 * 2**20, f"{peak / 2**20:.0f} MB traced for 40 MB of JSON Lines"
    with_blank_lines = b'{"y_true": 0, "y_pred": 1}\n\n\n' * 4  # blank lines are not records
    assert len(read_table(with_blank_lines, name="b.jsonl", limits=Limits(max_rows=5)).frame) == 4


def test_long_labels_are_shortened_in_the_reasons_shown_for_the_task_and_roles():
    from assess.inputs.assessment import describe

    label = "L" * 100_000
    rows = "".join(f"{label if i % 3 == 0 else i % 2},{i % 2}\n" for i in range(30))
    assessment = describe(read_table(f"y_true,y_pred\n{rows}".encode(), name="x.csv"))
    assert assessment.task_reason == f"`y_true` has 3 classes (0, 1, {'L' * 59}…)"
    label = "L" * 900  # a column name holds at most 1,000 characters
    proba = "".join(f"{label if i % 2 else 'b'},0.5,0.5\n" for i in range(10))
    roles = describe(read_table(f"classes,proba_{label},proba_b\n{proba}".encode(), name="p.csv")).roles
    assert roles.y_true == "classes" and roles.reason("y_true").startswith(f"its values (b, {'L' * 59}…) are the ")
