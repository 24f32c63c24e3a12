"""Readers over a corpus of good and malformed files, generated here.

Each good file must read to the same small table; each malformed file must raise `InputError` (never anything else)
with a message of a pinned shape that names the file.
"""

import gzip
import io
import pickle
import zipfile

import numpy as np
import openpyxl
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from assess.core.errors import AssessError, InputError
from assess.inputs.read import Limits, read_table

EXPECTED = pd.DataFrame({"y_true": ["cat", "dog", "NA", "cat"], "y_pred": ["cat", "cat", "NA", "dog"],
                         "score": [0.9, 0.25, 0.5, 0.125]})
CSV = "y_true,y_pred,score\ncat,cat,0.9\ndog,cat,0.25\nNA,NA,0.5\ncat,dog,0.125\n"


def _xlsx(sheets: dict[str, list[list]]) -> bytes:
    book = openpyxl.Workbook()
    book.remove(book.active)
    for title, rows in sheets.items():
        ws = book.create_sheet(title)
        for row in rows:
            ws.append(row)
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def _parquet(frame: pd.DataFrame) -> bytes:
    buf = io.BytesIO()
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), buf)
    return buf.getvalue()


def _zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
    return buf.getvalue()


ROWS = [["y_true", "y_pred", "score"], ["cat", "cat", 0.9], ["dog", "cat", 0.25], ["NA", "NA", 0.5],
        ["cat", "dog", 0.125]]
JSONL = "\n".join(pd.DataFrame(EXPECTED).to_json(orient="records", lines=True).splitlines()) + "\n"

GOOD = {
    "comma.csv": CSV.encode(),
    "tab.tsv": CSV.replace(",", "\t").encode(),
    "semicolon_decimal_comma.csv": CSV.replace(",", ";").replace("0.", "0,").encode(),
    "pipe.txt": CSV.replace(",", "|").encode(),
    "bom.csv": b"\xef\xbb\xbf" + CSV.encode(),
    "excel_unicode_text.txt": CSV.replace(",", "\t").encode("utf-16"),
    "whitespace.txt": CSV.replace(",", "   ").encode(),
    "crlf.csv": CSV.replace("\n", "\r\n").encode(),
    "quoted.csv": 'y_true,y_pred,score\n"cat","cat",0.9\n"dog","cat",0.25\n"NA","NA",0.5\n"cat","dog",0.125\n'.encode(),
    "comma.csv.gz": gzip.compress(CSV.encode()),
    "inside.zip": _zip({"predictions.csv": CSV.encode()}),
    "inside_with_macos_junk.zip": _zip({"p.csv": CSV.encode(), "__MACOSX/._p.csv": b"junk"}),
    "table.parquet": _parquet(EXPECTED),
    "table.parquet.gz": gzip.compress(_parquet(EXPECTED)),
    "book.xlsx": _xlsx({"predictions": ROWS}),
    "book.xlsx.zip": _zip({"book.xlsx": _xlsx({"predictions": ROWS})}),
    "lines.jsonl": JSONL.encode(),
    "lines.jsonl.gz": gzip.compress(JSONL.encode()),
    "csv_named.parquet": CSV.encode(),
    "upper.CSV": CSV.encode(),
}


@pytest.mark.parametrize("name", sorted(GOOD))
def test_good_files_read_to_the_same_table(name):
    table = read_table(GOOD[name], name=name)
    frame = table.frame
    assert list(frame.columns) == ["y_true", "y_pred", "score"]
    assert frame["y_true"].tolist() == EXPECTED["y_true"].tolist()  # "NA" survives as a label
    assert frame["y_pred"].tolist() == EXPECTED["y_pred"].tolist()
    np.testing.assert_allclose(frame["score"].astype(float), EXPECTED["score"])
    assert table.name == name and len(table.sha256) == 64


def test_format_recognised_by_content_says_so():
    table = read_table(GOOD["csv_named.parquet"], name="csv_named.parquet")
    assert table.format == "csv"
    assert table.notes == ("named like a PARQUET file but its content is CSV: read as CSV",)


def test_decimal_comma_detected_and_reported():
    table = read_table(GOOD["semicolon_decimal_comma.csv"], name="d.csv")
    assert (table.delimiter, table.decimal) == (";", ",")
    assert any("decimal commas detected" in n for n in table.notes)


def test_decimal_comma_can_be_chosen_explicitly():
    data = b"y_true;score\n1;0,5\n0;1,25\n"  # "1,25" alone looks like a decimal comma too; choosing is explicit
    assert read_table(data, name="d.csv", decimal=",").frame["score"].tolist() == [0.5, 1.25]


def test_label_like_missing_strings_stay_labels():
    data = b"y_true,y_pred\nNA,None\nnull,nan\nNA,NA\n"
    frame = read_table(data, name="labels.csv").frame
    assert frame["y_true"].tolist() == ["NA", "null", "NA"]
    assert frame["y_pred"].tolist() == ["None", "nan", "NA"]


def test_empty_cell_is_missing():
    frame = read_table(b"y_true,score\na,0.5\n,0.25\n", name="m.csv").frame
    assert frame["y_true"].isna().tolist() == [False, True]


def test_multilabel_pipes_do_not_become_the_delimiter():
    data = b"y_true,y_pred\na|b,a\nb,b|c\na|b|c,a|c\n"
    table = read_table(data, name="ml.csv")
    assert table.delimiter == "," and table.frame["y_true"].tolist() == ["a|b", "b", "a|b|c"]


def test_xlsx_sheet_by_name_and_index():
    data = _xlsx({"notes": [["just", "text"], ["a", "b"]], "predictions": ROWS})
    assert read_table(data, name="b.xlsx").sheet == "notes"
    by_name = read_table(data, name="b.xlsx", sheet="predictions")
    by_index = read_table(data, name="b.xlsx", sheet=1)
    assert by_name.sheets == ("notes", "predictions")
    assert by_name.frame["y_true"].tolist() == by_index.frame["y_true"].tolist() == EXPECTED["y_true"].tolist()


def test_path_source(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text(CSV)
    table = read_table(path)
    assert table.name == "p.csv" and table.stem == "p" and len(table.frame) == 4


def test_stem_drops_compression_suffix():
    assert read_table(GOOD["comma.csv.gz"], name="run1.csv.gz").stem == "run1"


MALFORMED = {
    # name: (bytes, kwargs, message pattern); the file name always leads the message
    "empty.csv": (b"", {}, r"^empty\.csv: is empty$"),
    "blank.csv": (b"\n\n  \n", {}, r"^blank\.csv: is empty$"),
    "header_only.csv": (b"y_true,y_pred\n", {}, r"^header_only\.csv: has a header but no data rows$"),
    "duplicate.csv": (b"y_true,score,y_true\n1,0.5,1\n", {},
                      r"^duplicate\.csv: column `y_true` appears twice in the header \(columns 1 and 3\)"),
    "unnamed.csv": (b"y_true,,score\n1,2,0.5\n", {}, r"^unnamed\.csv: column 2 has no name in the header"),
    "ragged.csv": (b"y_true,y_pred\n1,0\n1,0,7\n0,1\n", {},
                   r"^ragged\.csv: could not be split into columns: .*first differing line: line 3: '1,0,7'"),
    "latin1.csv": ("y_true,y_pred\ncafé,thé\n".encode("latin-1"), {},
                   r"^latin1\.csv: is not UTF-8 text \(byte 0xE9 on line 2\); save it as UTF-8$"),
    "garbage.bin": (bytes(range(256)) * 4, {}, r"^garbage\.bin: is binary, not a table"),
    "model.pkl": (pickle.dumps({"y_true": [1]}), {}, r"^model\.pkl: looks like a pickle/joblib file; these are "
                                                     r"never loaded because opening them runs code"),
    "renamed_pickle.csv": (pickle.dumps([1, 2]), {}, r"^renamed_pickle\.csv: looks like a pickle/joblib file"),
    "old.xls": (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 100, {}, r"^old\.xls: is an old Excel \.xls"),
    "two.zip": (_zip({"a.csv": CSV.encode(), "b.csv": CSV.encode()}), {},
                r"^two\.zip: is a zip archive with 2 files \(a\.csv, b\.csv\); it must hold exactly one"),
    "nested.zip": (_zip({"inner.zip": _zip({"a.csv": CSV.encode()})}), {}, r"^nested\.zip: is a zip archive inside"),
    "broken.csv.gz": (gzip.compress(CSV.encode())[:-12], {}, r"^broken\.csv\.gz: is a damaged gzip file"),
    "array.json": (b'[{"y_true": 1}]', {}, r"^array\.json: is a JSON array; write one JSON object per line"),
    "bad_line.jsonl": (b'{"y_true": 1}\n{"y_true": 2,}\n', {},
                       r"^bad_line\.jsonl: line 2 is not valid JSON \(.+ at character 14\)$"),
    "scalar_line.jsonl": (b'{"y_true": 1}\n7\n', {}, r"^scalar_line\.jsonl: line 2 is a JSON int, expected one"),
    # arrays of numbers are vectors (assess.inputs.vectors); an object that is no vector is refused
    "nested.jsonl": (b'{"y_true": 1, "p": 0.1}\n{"y_true": 0, "p": {"a": 0.9}}\n', {},
                     r"^nested\.jsonl: column `p` holds nested values among single values \(first at row 2\)"),
    "too_many_rows.csv": (b"y_true,y_pred\n" + b"1,0\n" * 11, {"limits": Limits(max_rows=10)},
                          r"^too_many_rows\.csv: has more than 10 rows, the row limit \(raise it with "
                          r"ASSESS_MAX_ROWS or --max-rows\)$"),
    "too_big.csv": (CSV.encode() * 10, {"limits": Limits(max_bytes=100)},
                    r"^too_big\.csv: is 0\.0 MB, over the 0 MB limit \(raise it with ASSESS_MAX_MB or --max-mb\)$"),
    "too_wide.csv": (",".join(f"c{i}" for i in range(6)).encode() + b"\n" + b"1," * 5 + b"1\n",
                     {"limits": Limits(max_columns=5)},
                     r"^too_wide\.csv: has 6 columns, over the 5 column limit \(raise it with ASSESS_MAX_COLUMNS"),
    "bomb.csv.gz": (gzip.compress(b"y_true,y_pred\n" + b"1,0\n" * 200_000), {"limits": Limits(max_bytes=100_000)},
                    r"^bomb\.csv\.gz: expands to more than the 0 MB limit when decompressed"),
    "missing_sheet.xlsx": (_xlsx({"predictions": ROWS}), {"sheet": "results"},
                           r"^missing_sheet\.xlsx: has no sheet 'results' \(sheets: predictions\)$"),
    "sheet_index.xlsx": (_xlsx({"predictions": ROWS}), {"sheet": 3},
                         r"^sheet_index\.xlsx: has 1 sheets; sheet index 3 does not exist$"),
    "damaged.parquet": (b"PAR1" + b"\x00garbage" * 20 + b"PAR1", {}, r"^damaged\.parquet: is not a readable Parquet"),
    "damaged.xlsx": (_zip({"[Content_Types].xml": b"<bad", "xl/workbook.xml": b"<nope"}), {},
                     r"^damaged\.xlsx: is not a readable \.xlsx workbook"),
    "decimal_clash.csv": (CSV.encode(), {"decimal": ","},
                          r"^decimal_clash\.csv: uses ',' both as the delimiter and as the decimal mark"),
    "one_column.txt": (b"just one column\nof words here and there\n", {},
                       r"^one_column\.txt: could not be split into columns"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_files_raise_one_clear_input_error(name):
    data, kwargs, pattern = MALFORMED[name]
    with pytest.raises(InputError, match=pattern) as info:
        read_table(data, name=name, **kwargs)
    assert info.value.file == name
    assert "\n" not in str(info.value), "one line"


def test_corpus_is_large_enough():
    assert len(GOOD) + len(MALFORMED) >= 25


def test_limits_validate_and_read_environment():
    with pytest.raises(ValueError, match=r"'max_rows' must be a positive integer \(got 0\)"):
        Limits(max_rows=0)
    limits = Limits.from_env({"ASSESS_MAX_MB": "1.5", "ASSESS_MAX_ROWS": "10"})
    assert (limits.max_bytes, limits.max_rows, limits.max_columns) == (1572864, 10, 2000)
    with pytest.raises(AssessError, match=r"ASSESS_MAX_ROWS must be a positive, finite number of rows \(got 'many'\)"):
        Limits.from_env({"ASSESS_MAX_ROWS": "many"})


@pytest.mark.parametrize("value", ["many", "0", "-5", "nan", "inf", "1e400", "0.0000001", "1" * 5000])
def test_a_bad_size_limit_in_the_environment_is_the_users_error_naming_the_variable(value):
    """ASSESS_MAX_MB is the user's setting: every value that is not a positive, finite size is an `AssessError`
    (exit 2 on the command line) naming the variable; 0 and -5 used to reach `Limits`' own check as a plain
    ValueError about 'max_bytes', inf and 1e400 int()'s OverflowError (both exit 70, "internal error")."""
    with pytest.raises(AssessError, match=r"^environment variable ASSESS_MAX_MB must be a positive, finite number of "
                                          r"megabytes \(got '"):
        Limits.from_env({"ASSESS_MAX_MB": value})


def test_missing_path_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match=r"^nope\.csv: cannot be opened"):
        read_table(tmp_path / "nope.csv")
