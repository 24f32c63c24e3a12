"""Reading prediction files: CSV/TSV/TXT, Parquet, Excel .xlsx and JSON Lines, each optionally gzip or zip.

The format is recognised by content first and by name second, so a CSV renamed ``.parquet`` is read as CSV (with a
note saying so) instead of failing inside pyarrow. Pickle and joblib files are refused: loading them executes code.

Missing values are explicit: only an empty cell (or JSON ``null``) is missing. Strings such as ``NA``, ``None``,
``null`` or ``nan`` stay strings, because they are real class labels in some data sets; numeric roles convert
them later (`assess.columns.numeric_column`), where the role is known.

Every failure is an `InputError` naming the file and, where it applies, the column and an example row. Rows are
numbered from 1 for the first data row (the header is not counted).
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import json
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePath

import pandas as pd

from assess.errors import InputError

#: Extensions the uploader accepts (compressed variants add ``.gz`` or are ``.zip``).
ACCEPTED_EXTENSIONS = ("csv", "tsv", "txt", "parquet", "pq", "xlsx", "jsonl", "ndjson", "json", "gz", "zip")

_DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}
_DELIMITER_PREFERENCE = ("\t", ",", ";", "|")
_SNIFF_LINES = 200


@dataclass(frozen=True)
class Limits:
    """Caps that protect the app from files it cannot hold; each message says how to raise the cap.

    The app reads them from the environment variables ``ASSESS_MAX_MB``, ``ASSESS_MAX_ROWS`` and
    ``ASSESS_MAX_COLUMNS`` (`Limits.from_env`); the command line takes ``--max-mb``, ``--max-rows`` and
    ``--max-columns``. Streamlit's own upload cap (``server.maxUploadSize`` in ``.streamlit/config.toml``) is set to
    the same 200 MB.
    """

    max_bytes: int = 200 * 1024 * 1024
    max_rows: int = 5_000_000
    max_columns: int = 2_000

    def __post_init__(self):
        for name in ("max_bytes", "max_rows", "max_columns"):
            value = getattr(self, name)
            if not isinstance(value, int) or value <= 0:
                raise ValueError(f"'{name}' must be a positive integer (got {value!r})")

    @classmethod
    def from_env(cls, environ=None) -> Limits:
        import os

        env = os.environ if environ is None else environ
        kwargs = {}
        for var, name, scale in (("ASSESS_MAX_MB", "max_bytes", 1024 * 1024), ("ASSESS_MAX_ROWS", "max_rows", 1),
                                 ("ASSESS_MAX_COLUMNS", "max_columns", 1)):
            if env.get(var):
                try:
                    kwargs[name] = int(float(env[var]) * scale)
                except ValueError:
                    raise ValueError(f"environment variable {var} must be a number (got {env[var]!r})") from None
        return cls(**kwargs)


@dataclass(frozen=True, eq=False)
class LoadedTable:
    """A file read into a DataFrame, with what is needed to report on it (ISO 4213 clause 8: what was assessed)."""

    frame: pd.DataFrame
    name: str
    sha256: str
    n_bytes: int
    format: str                      # "csv", "parquet", "xlsx", "jsonl"
    compression: str | None = None   # "gzip", "zip" or None
    delimiter: str | None = None     # for text files
    decimal: str = "."
    sheet: str | None = None
    sheets: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())  # how the file was read, when it is worth saying

    @property
    def stem(self) -> str:
        name = PurePath(self.name).name
        for suffix in (".gz", ".zip"):
            if name.lower().endswith(suffix):
                name = name[: -len(suffix)]
        return PurePath(name).stem or "model"


def read_table(source: bytes | str | Path, *, name: str | None = None, sheet: str | int | None = None,
               decimal: str | None = None, limits: Limits | None = None) -> LoadedTable:
    """Read a predictions file into a `LoadedTable`.

    ``source`` is the file's bytes (an upload) or a path; ``name`` is the file name shown in messages (defaults to
    the path's name). ``sheet`` picks an Excel sheet (name or 0-based index; the first by default). ``decimal`` is
    ``"."`` or ``","``; None detects a decimal comma when it is unambiguous.

    >>> t = read_table(b"y_true;score\\n1;0,8\\n0;0,25\\n", name="p.csv")
    >>> (t.delimiter, t.decimal, t.frame["score"].tolist())
    (';', ',', [0.8, 0.25])
    """
    limits = limits or Limits()
    if decimal not in (None, ".", ","):
        raise ValueError(f"'decimal' must be '.', ',' or None (got {decimal!r})")
    if isinstance(source, (str, Path)):
        path = Path(source)
        name = name or path.name
        try:
            size = path.stat().st_size
        except OSError as exc:
            raise InputError(f"cannot be opened ({exc.strerror or exc})", file=name) from None
        _check_size(size, name, limits)
        raw = path.read_bytes()
    elif isinstance(source, (bytes, bytearray, memoryview)):
        raw = bytes(source)
        name = name or "upload"
        _check_size(len(raw), name, limits)
    else:
        raise TypeError(f"'source' must be bytes or a path (got {type(source).__name__})")

    sha256 = hashlib.sha256(raw).hexdigest()
    if not raw.strip():
        raise InputError("is empty", file=name)
    payload, inner_name, compression = _decompress(raw, name, limits)
    fmt = _sniff_format(payload, inner_name, name)
    notes = []
    claimed = _format_from_name(inner_name)
    if claimed and claimed != fmt:
        notes.append(f"named like a {claimed.upper()} file but its content is {fmt.upper()}: read as {fmt.upper()}")

    kwargs = {}
    if fmt == "csv":
        frame, delimiter, dec = _read_text(payload, name, decimal, limits)
        kwargs.update(delimiter=delimiter, decimal=dec)
        if dec == "," and decimal is None:
            notes.append("decimal commas detected (e.g. 0,75): numbers read with ',' as the decimal mark")
    elif fmt == "parquet":
        frame = _read_parquet(payload, name, limits)
    elif fmt == "xlsx":
        frame, sheet_name, sheets = _read_xlsx(payload, name, sheet, limits)
        kwargs.update(sheet=sheet_name, sheets=sheets)
    else:
        frame = _read_jsonl(payload, name, limits)

    frame = _tidy_columns(frame, name, limits)
    if len(frame) == 0:
        raise InputError("has a header but no data rows", file=name)
    return LoadedTable(frame=frame, name=name, sha256=sha256, n_bytes=len(raw), format=fmt,
                       compression=compression, notes=tuple(notes), **kwargs)


# --- bytes: size, compression, format ---------------------------------------------------------------------------

def _check_size(n_bytes: int, name: str, limits: Limits) -> None:
    if n_bytes > limits.max_bytes:
        raise InputError(
            f"is {n_bytes / 2**20:,.1f} MB, over the {limits.max_bytes / 2**20:,.0f} MB limit "
            f"(raise it with ASSESS_MAX_MB or --max-mb)", file=name)


def _read_capped(stream, name: str, limits: Limits) -> bytes:
    """Read a decompressing stream, stopping at the byte cap so a small archive cannot expand into memory."""
    data = stream.read(limits.max_bytes + 1)
    if len(data) > limits.max_bytes:
        raise InputError(
            f"expands to more than the {limits.max_bytes / 2**20:,.0f} MB limit when decompressed "
            f"(raise it with ASSESS_MAX_MB or --max-mb)", file=name)
    return data


def _decompress(raw: bytes, name: str, limits: Limits) -> tuple[bytes, str, str | None]:
    lower = name.lower()
    if raw[:2] == b"\x1f\x8b":
        try:
            data = _read_capped(gzip.GzipFile(fileobj=io.BytesIO(raw)), name, limits)
        except (OSError, EOFError) as exc:
            raise InputError(f"is a damaged gzip file ({exc})", file=name) from None
        inner = name[:-3] if lower.endswith(".gz") else name
        return data, inner, "gzip"
    if raw[:4] == b"PK\x03\x04" and not _is_xlsx(raw):
        try:
            archive = zipfile.ZipFile(io.BytesIO(raw))
            members = [m for m in archive.infolist()
                       if not m.is_dir() and not PurePath(m.filename).name.startswith(".")
                       and not m.filename.startswith("__MACOSX/")]
        except zipfile.BadZipFile as exc:
            raise InputError(f"is a damaged zip file ({exc})", file=name) from None
        if len(members) != 1:
            listed = ", ".join(m.filename for m in members[:5]) or "nothing"
            raise InputError(f"is a zip archive with {len(members)} files ({listed}); it must hold exactly one "
                             f"predictions file", file=name)
        member = members[0]
        if member.file_size > limits.max_bytes:
            _check_size(member.file_size, f"{name}/{member.filename}", limits)
        with archive.open(member) as stream:
            data = _read_capped(stream, name, limits)
        return data, member.filename, "zip"
    return raw, name, None


def _is_xlsx(raw: bytes) -> bool:
    try:
        names = set(zipfile.ZipFile(io.BytesIO(raw)).namelist())
    except zipfile.BadZipFile:
        return False
    return "[Content_Types].xml" in names and any(n.startswith("xl/") for n in names)


def _format_from_name(name: str) -> str | None:
    suffix = PurePath(name).suffix.lower().lstrip(".")
    return {"csv": "csv", "tsv": "csv", "txt": "csv", "parquet": "parquet", "pq": "parquet", "xlsx": "xlsx",
            "jsonl": "jsonl", "ndjson": "jsonl", "json": "jsonl"}.get(suffix)


def _sniff_format(data: bytes, inner_name: str, name: str) -> str:
    suffix = PurePath(inner_name).suffix.lower()
    if suffix in (".pkl", ".pickle", ".joblib") or data[:1] == b"\x80" and data[1:2] in bytes(range(2, 6)):
        raise InputError("looks like a pickle/joblib file; these are never loaded because opening them runs code. "
                         "Save the predictions as CSV or Parquet", file=name)
    if data[:4] == b"PAR1":
        return "parquet"
    if data[:4] == b"PK\x03\x04":
        if _is_xlsx(data):
            return "xlsx"
        raise InputError("is a zip archive inside an archive; unpack it once and upload the predictions file",
                         file=name)
    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        raise InputError("is an old Excel .xls (or another OLE) file; save it as .xlsx or CSV", file=name)
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "csv"  # UTF-16 text, as Excel's "Unicode text" export writes it
    head = data[:4096]
    if b"\x00" in head:
        raise InputError("is binary, not a table this app reads (CSV/TSV/TXT, Parquet, .xlsx, JSON Lines)",
                         file=name)
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if stripped[:1] == b"{":
        return "jsonl"
    if stripped[:1] == b"[":
        raise InputError("is a JSON array; write one JSON object per line (JSON Lines) instead", file=name)
    return "csv"


# --- text tables --------------------------------------------------------------------------------------------------

def _decode(data: bytes, name: str) -> str:
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"is not UTF-8 text (byte 0x{data[exc.start]:02X} on line {line}); save it as UTF-8",
                         file=name) from None


def _field_counts(lines: list[str], delimiter: str) -> list[int]:
    return [len(row) for row in csv.reader(lines, delimiter=delimiter)]


def sniff_delimiter(lines: list[str]) -> str | None:
    """The delimiter that splits the header and every sampled line into the same number (> 1) of fields.

    Checking the header too keeps a ``|`` inside multi-label sets (``a|b``) or a decimal comma from being taken for
    the delimiter. Ties go to tab, comma, semicolon, pipe in that order. None when no candidate is consistent.
    """
    for delimiter in _DELIMITER_PREFERENCE:
        counts = _field_counts(lines, delimiter)
        if counts and counts[0] > 1 and all(c == counts[0] for c in counts):
            return delimiter
    return None


_DECIMAL_COMMA = re.compile(r"^\s*[-+]?\d+,\d+(?:[eE][-+]?\d+)?\s*$")
_DECIMAL_POINT = re.compile(r"^\s*[-+]?\d*\.\d+(?:[eE][-+]?\d+)?\s*$")


def _detect_decimal_comma(lines: list[str], delimiter: str) -> bool:
    """True when some sampled cells look like ``0,75`` and none look like ``0.75`` (only when ',' isn't the delimiter)."""
    if delimiter == ",":
        return False
    rows = list(csv.reader(lines[1:], delimiter=delimiter))
    cells = [cell for row in rows for cell in row]
    comma = sum(bool(_DECIMAL_COMMA.match(c)) for c in cells)
    point = sum(bool(_DECIMAL_POINT.match(c)) for c in cells)
    return comma > 0 and point == 0


def _read_text(data: bytes, name: str, decimal: str | None, limits: Limits) -> tuple[pd.DataFrame, str, str]:
    text = _decode(data, name)
    lines = [ln for ln in text.splitlines()[: _SNIFF_LINES + 1] if ln.strip()]
    if not lines:
        raise InputError("is empty", file=name)
    delimiter = sniff_delimiter(lines)
    whitespace = False
    if delimiter is None:
        if len(lines) == 1 and len(_field_counts(lines, ",")) and _field_counts(lines, ",")[0] > 1:
            raise InputError("has a header but no data rows", file=name)
        ws_counts = [len(ln.split()) for ln in lines]
        if ws_counts[0] > 1 and all(c == ws_counts[0] for c in ws_counts):
            whitespace = True
            delimiter = " "
        else:
            first = _first_inconsistent_line(lines)
            raise InputError(
                "could not be split into columns: no delimiter (comma, semicolon, tab, pipe) gives every line the "
                f"same number of fields as the header (first differing line: {first})", file=name)
    if decimal is None:
        decimal = "," if _detect_decimal_comma(lines, delimiter) else "."
    if decimal == "," and delimiter == ",":
        raise InputError("uses ',' both as the delimiter and as the decimal mark; choose '.' as decimal mark or "
                         "re-save with ';' as the delimiter", file=name)
    try:
        frame = pd.read_csv(
            io.StringIO(text), sep=r"\s+" if whitespace else delimiter, decimal=decimal, keep_default_na=False, na_values=[""], nrows=limits.max_rows + 1,
            skipinitialspace=not whitespace, engine="python" if whitespace else "c", on_bad_lines="error",
            **({} if whitespace else {"low_memory": False}))
    except pd.errors.ParserError as exc:
        raise InputError(f"could not be read as delimited text: {_clean_parser_message(exc)}", file=name) from None
    _check_rows(len(frame), name, limits)
    # pandas renames a repeated header name to "x.1"; keep the names as written so the duplicate is reported.
    header = lines[0].split() if whitespace else next(csv.reader([lines[0]], delimiter=delimiter))
    if len(header) == frame.shape[1]:
        frame.columns = [h.strip() for h in header]
    return frame, delimiter, decimal


def _first_inconsistent_line(lines: list[str]) -> str:
    counts = _field_counts(lines, ",")
    for i, c in enumerate(counts[1:], start=2):
        if c != counts[0]:
            return f"line {i}: {lines[i - 1][:60]!r}"
    return f"line 1: {lines[0][:60]!r}"


def _clean_parser_message(exc: Exception) -> str:
    msg = str(exc).strip().splitlines()[-1]
    return msg.replace("Error tokenizing data. C error: ", "")


def _check_rows(n_rows: int, name: str, limits: Limits) -> None:
    if n_rows > limits.max_rows:
        raise InputError(f"has more than {limits.max_rows:,} rows, the row limit "
                         f"(raise it with ASSESS_MAX_ROWS or --max-rows)", file=name)


# --- binary formats ------------------------------------------------------------------------------------------------

def _read_parquet(data: bytes, name: str, limits: Limits) -> pd.DataFrame:
    import pyarrow
    import pyarrow.parquet as pq

    try:
        pfile = pq.ParquetFile(io.BytesIO(data))
        _check_rows(pfile.metadata.num_rows, name, limits)
        _check_columns(pfile.metadata.num_columns, name, limits)
        return pfile.read().to_pandas()
    except (pyarrow.ArrowException, OSError) as exc:
        raise InputError(f"is not a readable Parquet file ({str(exc).splitlines()[0]})", file=name) from None


def _read_xlsx(data: bytes, name: str, sheet: str | int | None, limits: Limits):
    import openpyxl

    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many unrelated types for damaged files
        raise InputError(f"is not a readable .xlsx workbook ({type(exc).__name__}: {exc})", file=name) from None
    sheets = tuple(book.sheetnames)
    if sheet is None:
        chosen = sheets[0]
    elif isinstance(sheet, int):
        if not 0 <= sheet < len(sheets):
            raise InputError(f"has {len(sheets)} sheets; sheet index {sheet} does not exist", file=name)
        chosen = sheets[sheet]
    elif sheet in sheets:
        chosen = sheet
    else:
        raise InputError(f"has no sheet {sheet!r} (sheets: {', '.join(sheets)})", file=name)
    ws = book[chosen]
    rows = ws.iter_rows(values_only=True)
    header = next(rows, None)
    if header is None:
        raise InputError(f"sheet {chosen!r} is empty", file=name)
    records = []
    for i, row in enumerate(rows, start=1):
        if i > limits.max_rows:
            _check_rows(i, name, limits)
        if row is not None and any(v is not None and v != "" for v in row):
            records.append(row)
    book.close()
    width = max([len(header)] + [len(r) for r in records[:1000]])
    header = list(header) + [None] * (width - len(header))
    columns = [str(h).strip() if h is not None else "" for h in header]
    # Trailing unnamed, empty columns are Excel formatting, not data.
    while columns and columns[-1] == "" and all(len(r) < len(columns) or r[len(columns) - 1] in (None, "")
                                                  for r in records):
        columns.pop()
    records = [tuple(r[: len(columns)]) + (None,) * (len(columns) - len(r)) for r in records]
    frame = pd.DataFrame.from_records(records, columns=columns)
    frame = frame.replace({"": None}).infer_objects()
    for col in frame.columns:  # numbers stored as text in Excel become numbers, labels stay labels
        if frame[col].dtype == object:
            converted = pd.to_numeric(frame[col], errors="coerce")
            if converted.notna().sum() == frame[col].notna().sum() and frame[col].notna().any():
                frame[col] = converted
    return frame, chosen, sheets


def _read_jsonl(data: bytes, name: str, limits: Limits) -> pd.DataFrame:
    text = _decode(data, name)
    records = []
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"line {line_no} is not valid JSON ({exc.msg} at character {exc.colno})",
                             file=name) from None
        if not isinstance(obj, dict):
            raise InputError(f"line {line_no} is a JSON {type(obj).__name__}, expected one object per line",
                             file=name)
        records.append(obj)
        if len(records) > limits.max_rows:
            _check_rows(len(records), name, limits)
    frame = pd.DataFrame.from_records(records)
    for col in frame.columns:
        if frame[col].map(lambda v: isinstance(v, (dict, list))).any():
            row = int(frame[col].map(lambda v: isinstance(v, (dict, list))).to_numpy().argmax()) + 1
            raise InputError(f"holds nested JSON (first at row {row}); each value must be a number or a string",
                             file=name, column=str(col))
    return frame.infer_objects()


# --- columns -------------------------------------------------------------------------------------------------------

def _check_columns(n_columns: int, name: str, limits: Limits) -> None:
    if n_columns > limits.max_columns:
        raise InputError(f"has {n_columns:,} columns, over the {limits.max_columns:,} column limit "
                         f"(raise it with ASSESS_MAX_COLUMNS or --max-columns)", file=name)


def _tidy_columns(frame: pd.DataFrame, name: str, limits: Limits) -> pd.DataFrame:
    _check_columns(frame.shape[1], name, limits)
    columns = [str(c).strip() for c in frame.columns]
    for i, col in enumerate(columns):
        if col == "" or col.startswith("Unnamed: "):
            raise InputError(f"column {i + 1} has no name in the header; every column needs one", file=name)
    seen: dict[str, int] = {}
    for i, col in enumerate(columns):
        key = col.lower()
        if key in seen:
            raise InputError(f"appears twice in the header (columns {seen[key] + 1} and {i + 1}); names must be "
                             f"unique", file=name, column=col)
        seen[key] = i
    frame.columns = columns
    return frame.reset_index(drop=True)
