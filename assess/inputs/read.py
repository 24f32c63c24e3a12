"""Reading prediction files: CSV/TSV/TXT, Parquet, Excel .xlsx and JSON Lines, each optionally gzip or zip.

The format is recognised by content first and by name second, so a CSV renamed ``.parquet`` is read as CSV (with a
note saying so) instead of failing inside pyarrow. Pickle and joblib files are refused: loading them executes code.

Missing values are explicit: only an empty cell (or JSON ``null``) is missing. Strings such as ``NA``, ``None``,
``null`` or ``nan`` stay strings, because they are real class labels in some data sets; numeric roles convert
them later (`assess.inputs.columns.numeric_column`), where the role is known.

Every failure is an `InputError` naming the file and, where it applies, the column and an example row. Rows are
numbered from 1 for the first data row (the header is not counted).
"""

from __future__ import annotations

import codecs
import csv
import gzip
import hashlib
import io
import json
import lzma
import re
import sys
import zipfile
import zlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePath

import numpy as np
import pandas as pd

from assess.core.errors import AssessError, InputError, shorten
from assess.inputs.columns import dictionary_label_codes, label_codes, small_int_type
from assess.inputs.label_confidence import expand_label_confidence
from assess.inputs.vectors import expand_arrow_lists, expand_vectors, vector_type_supported

#: The format a file name's extension claims (the content decides when they disagree: `sniff_format`).
FORMAT_OF_EXTENSION = {"csv": "csv", "tsv": "csv", "txt": "csv", "parquet": "parquet", "pq": "parquet",
                       "xlsx": "xlsx", "jsonl": "jsonl", "ndjson": "jsonl", "json": "jsonl"}
#: Compressions read around any of those formats (``x.csv.gz``, a ``.zip`` holding one file).
COMPRESSED_EXTENSIONS = ("gz", "zip")
#: What every table uploader of the app accepts: exactly what `read_table` reads, from this one place.
ACCEPTED_EXTENSIONS = (*FORMAT_OF_EXTENSION, *COMPRESSED_EXTENSIONS)

_DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}
_DELIMITER_PREFERENCE = ("\t", ",", ";", "|")
#: The delimiter and decimal mark are read from the header and this many lines after it.
SNIFF_LINES = 200
#: A header cell longer than this is refused: names are shown in every table, chart and message.
MAX_COLUMN_NAME = 1_000
#: The delimiter, decimal mark and header are read from at most this many leading bytes, never from the whole file.
_SNIFF_BYTES = 1 << 20


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
        for var, name, scale, unit in (("ASSESS_MAX_MB", "max_bytes", 1024 * 1024, "megabytes"),
                                       ("ASSESS_MAX_ROWS", "max_rows", 1, "rows"),
                                       ("ASSESS_MAX_COLUMNS", "max_columns", 1, "columns")):
            if env.get(var):
                # The user's setting, said as theirs: text, 0, a negative, inf or a cap below one byte, row or column
                # (0.0000001 MB) would reach `__post_init__`'s check as our bug, or int() as OverflowError.
                try:
                    value = float(env[var]) * scale
                    kwargs[name] = int(value) if value >= 1 else 0
                except (ValueError, OverflowError):
                    kwargs[name] = 0
                if kwargs[name] < 1:
                    raise AssessError(f"environment variable {var} must be a positive, finite number of {unit} "
                                      f"(got {shorten(repr(env[var]))})")
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
    #: label codes of text columns found while reading (Parquet dictionaries), by column: see `label_codes`
    coded: dict = field(default_factory=dict, repr=False)

    def label_codes(self, column: str) -> tuple[np.ndarray, tuple[str, ...]]:
        """`assess.inputs.columns.label_codes` of ``frame[column]``, from the codes found while reading when there are."""
        return self.coded.get(column) or label_codes(self.frame[column])

    @property
    def stem(self) -> str:
        name = PurePath(self.name).name
        for suffix in (".gz", ".zip"):
            if name.lower().endswith(suffix):
                name = name[: -len(suffix)]
        return PurePath(name).stem or "model"


def read_table(source: bytes | str | Path, *, name: str | None = None, sheet: str | int | None = None,
               decimal: str | None = None, limits: Limits | None = None, progress=None) -> LoadedTable:
    """Read a predictions file into a `LoadedTable`.

    ``source`` is the file's bytes (an upload) or a path; ``name`` is the file name shown in messages (defaults to
    the path's name). ``sheet`` picks an Excel sheet (name or 0-based index; the first by default). ``decimal`` is
    ``"."`` or ``","``; None detects a decimal comma when it is unambiguous. ``progress(fraction)``, when given, is
    told how much of a text or JSON Lines file has been parsed.

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
    fmt = sniff_format(payload, inner_name, name)
    notes = []
    claimed = _format_from_name(inner_name)
    if claimed and claimed != fmt:
        notes.append(f"named like a {claimed.upper()} file but its content is {fmt.upper()}: read as {fmt.upper()}")

    kwargs, coded = {}, {}
    if fmt == "csv":
        frame, delimiter, dec = _read_text(payload, name, decimal, limits, progress)
        kwargs.update(delimiter=delimiter, decimal=dec)
        if dec == "," and decimal is None:
            notes.append("decimal commas detected (e.g. 0,75): numbers read with ',' as the decimal mark")
    elif fmt == "parquet":
        frame = _read_parquet(payload, name, limits)
        notes.extend(frame.attrs.pop("vector_notes", ()))  # list columns already expanded in Arrow
        coded = frame.attrs.pop("label_codes", {})
    elif fmt == "xlsx":
        frame, sheet_name, sheets, sheet_notes = _read_xlsx(payload, name, sheet, limits)
        kwargs.update(sheet=sheet_name, sheets=sheets)
        notes.extend(sheet_notes)
    else:
        frame = _read_jsonl(payload, name, limits, progress)

    frame = _tidy_columns(frame, name, limits)
    if len(frame) == 0:
        raise InputError("has a header but no data rows", file=name)
    # Vector cells (Spark MLlib's `probability`, Parquet list columns, JSON arrays): one column per element, here
    # and nowhere else, so every later step sees plain columns.
    columns = list(frame.columns)
    frame, vector_notes = expand_vectors(frame, name, max_columns=limits.max_columns)
    notes.extend(vector_notes)
    frame, confidence_notes = expand_label_confidence(frame)
    notes.extend(confidence_notes)
    # codes found by position while reading, by (tidied) name; none when vector columns moved the columns
    coded = {columns[i]: c for i, c in coded.items()} if list(frame.columns) == columns else {}
    return LoadedTable(frame=frame, name=name, sha256=sha256, n_bytes=len(raw), format=fmt,
                       compression=compression, notes=tuple(notes), coded=coded, **kwargs)


# --- bytes: size, compression, format ---------------------------------------------------------------------------

def _check_size(n_bytes: int, name: str, limits: Limits) -> None:
    if n_bytes > limits.max_bytes:
        raise InputError(
            f"is {n_bytes / 2**20:,.1f} MB, over the {limits.max_bytes / 2**20:,.0f} MB limit "
            f"(raise it with ASSESS_MAX_MB or --max-mb)", file=name)


#: Unpacked bytes are read in steps of this size: one read of the whole cap would allocate the cap (200 MB) for
#: every compressed upload.
_STEP = 1 << 20


def _unpacked_chunks(stream, name: str, limits: Limits, compression: str | None):
    """The bytes of a (decompressing) stream in `_STEP` steps, refused once past the byte cap: the one loop that
    unpacks a file, whether to keep it (`_read_capped`) or only to count it (`scan_unpacked`).

    The decompressed file obeys the same ``ASSESS_MAX_MB`` cap as an uncompressed upload: whatever arrives
    compressed is never bigger in memory than what could have been uploaded plain.
    """
    seen = 0
    while True:
        try:
            chunk = stream.read(_STEP)
        except _ARCHIVE_ERRORS as exc:
            if compression is None:
                raise
            raise InputError(f"is a damaged {compression} file ({shorten(exc, 120)})", file=name) from None
        if not chunk:
            return
        seen += len(chunk)
        if seen > limits.max_bytes:
            raise InputError(
                f"expands to more than the {limits.max_bytes / 2**20:,.0f} MB limit when decompressed "
                f"(raise it with ASSESS_MAX_MB or --max-mb)", file=name)
        yield chunk


def _read_capped(stream, name: str, limits: Limits, compression: str) -> bytes:
    """A decompressing stream's bytes, stopping at the byte cap so a small archive cannot expand into memory."""
    out = io.BytesIO()
    for chunk in _unpacked_chunks(stream, name, limits, compression):
        out.write(chunk)
    return out.getvalue()


#: What a damaged archive raises from the standard library, besides BadZipFile: a corrupt central directory gives
#: "negative seek value" (ValueError), truncated streams EOFError, damaged deflate/LZMA/bzip2 data their own errors.
_ARCHIVE_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError, zlib.error,
                   lzma.LZMAError, NotImplementedError, RuntimeError, KeyError, IndexError, OverflowError)
_ZIP_METHODS = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA}
_ZIP_METHOD_NAMES = {9: "Deflate64", 93: "Zstandard", 95: "XZ", 96: "JPEG", 97: "WavPack", 98: "PPMd",
                     99: "AES encryption"}


def _open_zip(source) -> zipfile.ZipFile:
    """A zip archive from its bytes or from a seekable binary file."""
    return zipfile.ZipFile(io.BytesIO(source) if isinstance(source, (bytes, bytearray)) else source)


@contextmanager
def _unpacking(file, name: str, limits: Limits):
    """``(stream, inner name, compression, size)`` of a seekable binary file: a gzip's or a one-file zip's
    decompressing stream (``size``: what the zip's directory declares, which bounds what its stream gives; None for
    gzip), or the file itself (``size``: its length). Archives that cannot be unpacked are refused here."""
    magic = file.read(4)
    file.seek(0)
    if magic[:2] == b"\x1f\x8b":
        yield gzip.GzipFile(fileobj=file), name[:-3] if name.lower().endswith(".gz") else name, "gzip", None
        return
    if magic == b"PK\x03\x04" and not _is_xlsx(file):
        file.seek(0)
        try:
            archive = _open_zip(file)
            members = [m for m in archive.infolist()
                       if not m.is_dir() and not PurePath(m.filename).name.startswith(".")
                       and not m.filename.startswith("__MACOSX/")]
        except _ARCHIVE_ERRORS as exc:
            raise InputError(f"is a damaged zip file ({shorten(exc, 120)})", file=name) from None
        if len(members) != 1:
            listed = ", ".join(shorten(m.filename) for m in members[:5]) or "nothing"
            raise InputError(f"is a zip archive with {len(members)} files ({listed}); it must hold exactly one "
                             f"predictions file", file=name)
        member = members[0]
        if member.flag_bits & 0x1:
            raise InputError("is an encrypted zip archive; unpack it and upload the predictions file itself",
                             file=name)
        if member.compress_type not in _ZIP_METHODS:
            method = _ZIP_METHOD_NAMES.get(member.compress_type, "unknown")
            raise InputError(f"uses a zip compression method this app cannot unpack (method {member.compress_type}:"
                             f" {method}); re-create it with the standard deflate method, or upload the file itself",
                             file=name)
        if member.file_size > limits.max_bytes:
            raise InputError(f"holds {shorten(member.filename)!r} of {member.file_size / 2**20:,.1f} MB when unpacked, "
                             f"over the {limits.max_bytes / 2**20:,.0f} MB limit (raise it with ASSESS_MAX_MB or "
                             f"--max-mb)", file=name)
        try:
            stream = archive.open(member)
        except _ARCHIVE_ERRORS as exc:
            raise InputError(f"is a damaged zip file ({shorten(exc, 120)})", file=name) from None
        with stream:
            yield stream, member.filename, "zip", member.file_size
        return
    file.seek(0, io.SEEK_END)
    size = file.tell()
    file.seek(0)
    yield file, name, None, size


def _decompress(raw: bytes, name: str, limits: Limits) -> tuple[bytes, str, str | None]:
    with _unpacking(io.BytesIO(raw), name, limits) as (stream, inner, compression, _):
        if compression is None:
            return raw, name, None
        return _read_capped(stream, name, limits, compression), inner, compression


@dataclass(frozen=True)
class Unpacked:
    """What `scan_unpacked` counted of a file's unpacked content, without keeping more than its head."""

    name: str
    inner_name: str                  # the name inside a .gz (without the suffix) or a .zip
    compression: str | None
    n_bytes: int                     # unpacked bytes counted so far (every one when `complete`)
    n_lines: int                     # line breaks ("\n") among them
    size: int | None                 # the unpacked size known before unpacking: a plain file's, a zip member's
    head: bytes                      # the first `_SNIFF_BYTES` of them (fewer until counted)
    fraction: float                  # share of the file on disk read so far
    complete: bool = False


def scan_unpacked(path: str | Path, *, name: str | None = None, limits: Limits | None = None,
                  enough=lambda unpacked: False) -> Unpacked:
    """Stream the unpacked content of the file at ``path`` counting its bytes and line breaks, as `read_table` would
    unpack it (same archive checks and byte cap) but keeping only the head, so measuring a decompression bomb costs
    one step of memory. ``enough(so_far)`` is called after every step; the scan stops as soon as it is true.
    """
    limits = limits or Limits()
    path = Path(path)
    name = name or path.name
    try:
        file = path.open("rb")
        disk = path.stat().st_size
    except OSError as exc:
        raise InputError(f"cannot be opened ({exc.strerror or exc})", file=name) from None
    with file, _unpacking(file, name, limits) as (stream, inner, compression, size):
        if compression is None:
            _check_size(size, name, limits)
        head, n_bytes, n_lines = b"", 0, 0
        chunks = _unpacked_chunks(stream, name, limits, compression)
        for chunk in chunks:
            if len(head) < _SNIFF_BYTES:
                head += chunk[: _SNIFF_BYTES - len(head)]
            n_bytes += len(chunk)
            n_lines += chunk.count(b"\n")
            so_far = Unpacked(name, inner, compression, n_bytes, n_lines, size, head,
                              min(file.tell() / disk, 1.0) if disk else 1.0)
            # a short step is the last (the streams read until a step is full or the data ends)
            if enough(so_far) and len(chunk) == _STEP and next(chunks, None) is not None:
                return so_far
            if len(chunk) < _STEP:
                break
        return Unpacked(name, inner, compression, n_bytes, n_lines, size, head, 1.0, complete=True)


def _is_xlsx(source) -> bool:
    try:
        names = set(_open_zip(source).namelist())
    except _ARCHIVE_ERRORS:
        return False
    return "[Content_Types].xml" in names and any(n.startswith("xl/") for n in names)


def _format_from_name(name: str) -> str | None:
    suffix = PurePath(name).suffix.lower().lstrip(".")
    return FORMAT_OF_EXTENSION.get(suffix)


def sniff_format(data: bytes, inner_name: str, name: str) -> str:
    """The format of the unpacked bytes (their head is enough): "parquet", "xlsx", "jsonl" or "csv"; refused with
    the reason when it is none this reader reads (pickle, a nested archive, .xls, other binary, a JSON array)."""
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

_UTF8_BOM = b"\xef\xbb\xbf"


def _utf8(data: bytes, name: str) -> bytes:
    """The file's text as UTF-8 bytes without a BOM; UTF-16 (Excel's "Unicode text") is converted.

    UTF-8 is checked in 1 MB steps, so no decoded copy of the whole file is ever held: a 190 MB text file stays
    190 MB in memory, instead of becoming a string and then a list of millions of line strings.
    """
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            return data.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"is UTF-16 text with a damaged or incomplete character at byte {exc.start:,} "
                             f"({exc.reason}); save it again as UTF-8", file=name) from None
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM):]
    if data.isascii():
        return data
    decoder = codecs.getincrementaldecoder("utf-8")()
    view = memoryview(data)
    step = 1 << 20
    try:
        for start in range(0, len(data), step):
            decoder.decode(view[start:start + step], final=start + step >= len(data))
    except UnicodeDecodeError:
        try:  # the failing step is known; decoding the file up to it again gives the exact offset for the message
            data[: start + step].decode("utf-8")
            at = len(data) - 1
        except UnicodeDecodeError as exc:
            at = exc.start
        line = data[:at].count(b"\n") + 1
        raise InputError(f"is not UTF-8 text (byte 0x{data[at]:02X} on line {line:,}); save it as UTF-8",
                         file=name) from None
    return data


def _field_counts(lines: list[str], delimiter: str) -> list[int]:
    return [len(row) for row in csv.reader(lines, delimiter=delimiter)]


def sniff_delimiter(lines: list[str]) -> str | None:
    """The delimiter that splits the header and every sampled line into the same number (> 1) of fields.

    Checking the header too keeps a ``|`` inside multi-label sets (``a|b``) or a decimal comma from being taken for
    the delimiter. Ties go to tab, comma, semicolon, pipe in that order. None when no candidate is consistent
    (including a candidate that makes one field longer than the csv module's field limit).
    """
    for delimiter in _DELIMITER_PREFERENCE:
        try:
            counts = _field_counts(lines, delimiter)
        except csv.Error:
            continue
        if counts and counts[0] > 1 and all(c == counts[0] for c in counts):
            return delimiter
    return None


def _head_lines(data: bytes, name: str) -> list[str]:
    """The non-blank lines among the first 201 of the file, read from at most `_SNIFF_BYTES` bytes."""
    head = data[:_SNIFF_BYTES]
    if len(data) > _SNIFF_BYTES:
        cut = max(head.rfind(b"\n"), head.rfind(b"\r"))  # old Mac files end lines with CR alone
        if cut < 0:
            raise InputError(f"has no line break in its first {_SNIFF_BYTES / 2**20:,.0f} MB: a header line that "
                             f"long is not a predictions table", file=name)
        head = head[:cut]
    return [ln for ln in head.decode("utf-8").splitlines()[: SNIFF_LINES + 1] if ln.strip()]


def _check_header_width(header: str, name: str, limits: Limits) -> None:
    """Refuse a header with more fields than the column cap before any row is parsed (any candidate delimiter)."""
    widest = max(header.count(d) for d in _DELIMITERS) + 1
    if widest > limits.max_columns:
        _check_columns(widest, name, limits)


def _check_field_limit(lines: list[str], name: str) -> None:
    """A field over the csv module's limit gets its own message instead of "no delimiter fits"."""
    limit = csv.field_size_limit()
    for i, line in enumerate(lines, start=1):
        if any(len(field) > limit for field in re.split(r"[,;\t|]", line)):
            raise InputError(f"line {i:,} has a field longer than {limit:,} characters, more than any cell of a "
                             f"predictions table holds", file=name)


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


class _Followed(io.BytesIO):
    """Bytes read by a parser, telling ``progress`` the share read after each of its reads (pandas reads in steps)."""

    def __init__(self, data: bytes, progress):
        super().__init__(data)
        self._progress, self._total = progress, max(len(data), 1)

    def read(self, size=-1):
        chunk = super().read(size)
        self._progress(self.tell() / self._total)
        return chunk


def _read_text(data: bytes, name: str, decimal: str | None, limits: Limits,
               progress=None) -> tuple[pd.DataFrame, str, str]:
    data = _utf8(data, name)
    lines = _head_lines(data, name)
    if not lines:
        raise InputError("is empty", file=name)
    _check_header_width(lines[0], name, limits)
    delimiter = sniff_delimiter(lines)
    whitespace = False
    if delimiter is None:
        _check_field_limit(lines, name)
        if len(lines) == 1 and lines[0].count(",") > 0:
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
        # The parser reads the bytes directly and stops one row past the cap, so a file of 47 million short lines
        # costs the rows kept, not a Python string per line.
        frame = pd.read_csv(
            io.BytesIO(data) if progress is None else _Followed(data, progress), encoding="utf-8",
            sep=r"\s+" if whitespace else delimiter, decimal=decimal,
            keep_default_na=False, na_values=[""], nrows=limits.max_rows + 1, skipinitialspace=not whitespace,
            engine="python" if whitespace else "c", on_bad_lines="error",
            **({} if whitespace else {"low_memory": False}))
    except (pd.errors.ParserError, pd.errors.EmptyDataError, csv.Error) as exc:
        raise InputError(f"could not be read as delimited text: {_clean_parser_message(exc)}", file=name) from None
    _check_rows(len(frame), name, limits)
    # pandas renames a repeated header name to "x.1"; keep the names as written so the duplicate is reported.
    header = lines[0].split() if whitespace else next(csv.reader([lines[0]], delimiter=delimiter))
    if len(header) == frame.shape[1]:
        frame.columns = [h.strip() for h in header]
    return _big_integers_as_text(frame), delimiter, decimal


def _big_integers_as_text(frame: pd.DataFrame) -> pd.DataFrame:
    """Integers beyond 64 bits (``99999999999999999999999``) become their digits as text.

    pandas keeps them as Python ints in an object column, which no numeric code expects. As text they are exact
    labels when the column is the ground truth, and `assess.inputs.assessment` converts them to floats when the column is a
    score, as it does with every numeric text.
    """
    for i in range(frame.shape[1]):  # by position: a repeated header name is reported later, not here
        values = frame.iloc[:, i]
        if values.dtype == object and values.map(lambda v: type(v) is int).any():
            frame.isetitem(i, values.map(lambda v: str(v) if type(v) is int else v))
    return frame


def _first_inconsistent_line(lines: list[str]) -> str:
    try:
        counts = _field_counts(lines, ",")
    except csv.Error:  # a quoted field over the csv module's limit
        counts = [ln.count(",") + 1 for ln in lines]
    for i, c in enumerate(counts[1:], start=2):
        if c != counts[0]:
            return f"line {i}: {lines[i - 1][:60]!r}"
    return f"line 1: {lines[0][:60]!r}"


def _clean_parser_message(exc: Exception) -> str:
    msg = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
    return shorten(msg.replace("Error tokenizing data. C error: ", ""), 160)


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
        _refuse_nested(pfile.schema_arrow, name)
        _check_cells(pfile.metadata.num_rows, pfile.metadata.num_columns, name, limits)
        text = [f.name for f in pfile.schema_arrow if pyarrow.types.is_string(f.type)
                or pyarrow.types.is_large_string(f.type)]
        if text:  # read as dictionaries (how Parquet stores repeated text): see _decode_dictionaries
            pfile = pq.ParquetFile(io.BytesIO(data), read_dictionary=text)
        table, vector_notes = expand_arrow_lists(pfile.read(), name, max_columns=limits.max_columns)
        table, codes = _decode_dictionaries(table)
        frame = _big_integers_as_text(table.to_pandas())
        frame.attrs["vector_notes"] = vector_notes
        frame.attrs["label_codes"] = codes
        return frame
    except (pyarrow.ArrowException, OSError, ValueError, TypeError, IndexError, KeyError, OverflowError) as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError(f"is not a readable Parquet file ({_reason(exc)})", file=name) from None


#: Most distinct values of a text column whose label codes the Parquet reader keeps (`LoadedTable.label_codes`):
#: label-like columns (models, classes, folds), not ids or free text.
MAX_KEPT_LABELS = 2_000


def _decode_dictionaries(table):
    """(table with its dictionary columns decoded to plain text, {column position: label codes}).

    A text column read as an Arrow dictionary skips building a string per row when the file stores it
    dictionary-encoded, and its indices give the column's `assess.inputs.columns.label_codes` from integers alone (no string
    hashed per row: 0.3 s for a 1e7-row model column). The frame keeps plain text columns, as before; the codes of
    columns with at most `MAX_KEPT_LABELS` labels are kept (in the smallest integer type that holds them).
    """
    import pyarrow as pa

    codes = {}
    for i, column_field in enumerate(table.schema):
        if not pa.types.is_dictionary(column_field.type):
            continue
        column = table.column(i).unify_dictionaries()
        dictionary = column.chunk(0).dictionary if column.num_chunks else pa.array([], column_field.type.value_type)
        if len(dictionary) <= MAX_KEPT_LABELS:
            indices = pa.chunked_array([c.indices for c in column.chunks], column_field.type.index_type)
            found, labels = dictionary_label_codes(indices.fill_null(-1).to_numpy(), dictionary.to_pylist())
            # kept as long as the table: the smallest type (2 models: 1 byte a row, not Arrow's 4)
            codes[i] = (found.astype(small_int_type(len(labels)), copy=False), labels)
        table = table.set_column(i, pa.field(column_field.name, column_field.type.value_type, column_field.nullable),
                                 column.cast(column_field.type.value_type))
    return table, codes


def _check_cells(n_rows: int, n_columns: int, name: str, limits: Limits) -> None:
    """Refuse more cells than a text file within the size cap could hold (each cell takes at least 2 bytes, ``0,``).

    Parquet encodes repeated values in a few bytes, so a 1 MB file can declare 5 million rows × 2,000 columns: 80 GB
    as a table. Rows and columns are each within their caps there; their product is what must be bounded.
    """
    cells = n_rows * n_columns
    if cells > limits.max_bytes // 2:
        raise InputError(f"declares {n_rows:,} rows × {n_columns:,} columns = {cells:,} cells, more than the "
                         f"{limits.max_bytes // 2:,} a {limits.max_bytes / 2**20:,.0f} MB text file can hold (raise "
                         f"it with ASSESS_MAX_MB or --max-mb)", file=name)


def _refuse_nested(schema, name: str) -> None:
    """Nested columns other than vectors (`assess.inputs.vectors`: lists of numbers or strings, Spark's vector struct) name
    their column and type."""
    import pyarrow

    nested = [f for f in schema if pyarrow.types.is_nested(f.type) and not vector_type_supported(f.type)]
    if nested:
        listed = ", ".join(f"`{shorten(f.name)}` ({shorten(f.type, 40)})" for f in nested[:5])
        more = f" and {len(nested) - 5:,} more" if len(nested) > 5 else ""
        raise InputError(f"has nested columns: {listed}{more}; only lists of numbers (one per class) or of labels "
                         f"are read: write one value per cell (for class probabilities one `proba_<class>` column "
                         f"each, or a list column)", file=name)


def _reason(exc: BaseException, limit: int = 120) -> str:
    """A library's complaint as one short line: its type and the first line of its text."""
    text = str(exc).strip().splitlines()
    return shorten(f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__, limit)


def _is_entity_bomb(exc: BaseException) -> bool:
    """defusedxml (used by openpyxl when installed) refuses XML entity declarations; openpyxl wraps its error."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if type(exc).__name__ in ("EntitiesForbidden", "DTDForbidden", "ExternalReferenceForbidden"):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def _xlsx_error(exc: Exception, name: str, where: str = "") -> InputError:
    if _is_entity_bomb(exc):
        return InputError("is not a readable .xlsx workbook: its XML declares entities, which are refused "
                          "(an entity-expansion bomb can make a few KB expand to gigabytes)", file=name)
    damaged = f"{where} is damaged" if where else "it is damaged"
    return InputError(f"is not a readable .xlsx workbook: {damaged} ({_reason(exc)})", file=name)


def _read_xlsx(data: bytes, name: str, sheet: str | int | None, limits: Limits):
    import openpyxl

    # An .xlsx is a zip archive: its unpacked XML obeys the cap of any archive, which also bounds the real cell count
    # (each cell takes at least ~20 bytes of XML) whatever the sheet's <dimension> claims.
    unpacked = sum(member.file_size for member in _open_zip(data).infolist())
    if unpacked > limits.max_bytes:
        raise InputError(f"expands to {unpacked / 2**20:,.1f} MB of XML when unpacked (an .xlsx is a zip archive), "
                         f"over the {limits.max_bytes / 2**20:,.0f} MB limit (raise it with ASSESS_MAX_MB or "
                         f"--max-mb)", file=name)
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # noqa: BLE001 - openpyxl raises many unrelated types for damaged files
        raise _xlsx_error(exc, name) from None
    sheets = tuple(book.sheetnames)
    if sheet is None:
        if not sheets:
            raise InputError("is an .xlsx workbook without sheets", file=name)
        chosen = sheets[0]
    elif isinstance(sheet, int):
        if not 0 <= sheet < len(sheets):
            raise InputError(f"has {len(sheets)} sheets; sheet index {sheet} does not exist", file=name)
        chosen = sheets[sheet]
    elif sheet in sheets:
        chosen = sheet
    else:
        raise InputError(f"has no sheet {shorten(sheet)!r} (sheets: {', '.join(shorten(s) for s in sheets[:20])})",
                         file=name)
    shown = f"sheet {shorten(chosen)!r}"
    try:
        ws = book[chosen]
        # The <dimension> element is the writer's claim, not the data: "A1:XFD20000" would pad every row to 16,384
        # cells (46 s and 829 MB for a 50 KB file). Without it each row is as long as its own last cell.
        ws.reset_dimensions()
        rows = ws.iter_rows(values_only=True)
        header = next(rows, None)
        if header is None:
            raise InputError(f"{shown} is empty", file=name)
        header = _within_column_cap(header, name, limits, 1)
        records, numbers = [], []
        for i, row in enumerate(rows, start=1):
            if i > limits.max_rows:
                _check_rows(i, name, limits)
            if row is not None and any(v is not None and v != "" for v in row):
                records.append(_within_column_cap(row, name, limits, i + 1))
                numbers.append(i + 1)
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - the sheet's XML is parsed lazily, while rows are read
        raise _xlsx_error(exc, name, shown) from None
    finally:
        book.close()
    at = _header_below_title(header, records)
    notes = []
    if at:
        first = numbers[at - 1]
        notes.append(f"{shown}: {'row 1' if first == 2 else f'rows 1–{first - 1}'} above the table (a title, not "
                     f"data) skipped; the header is row {first}, the first whose every cell is a name")
        header, records = records[at - 1], records[at:]
    width = max([len(header), *(len(r) for r in records)])
    header = list(header) + [None] * (width - len(header))
    columns = [str(h).strip() if h is not None else "" for h in header]
    # Trailing unnamed, empty columns are Excel formatting, not data.
    while columns and columns[-1] == "" and all(len(r) < len(columns) or r[len(columns) - 1] in (None, "")
                                                  for r in records):
        columns.pop()
    records = [tuple(r[: len(columns)]) + (None,) * (len(columns) - len(r)) for r in records]
    frame = pd.DataFrame.from_records(records, columns=columns)
    frame = frame.replace({"": None}).infer_objects()
    # numbers stored as text in Excel become numbers, labels stay labels; by position, since two unnamed columns
    # share the name "" until `_tidy_columns` refuses them with a clear message
    for i in range(frame.shape[1]):
        values = frame.iloc[:, i]
        if values.dtype == object:
            converted = pd.to_numeric(values, errors="coerce")
            if converted.notna().sum() == values.notna().sum() and values.notna().any():
                frame.isetitem(i, converted)
    return _big_integers_as_text(frame), chosen, sheets, tuple(notes)


#: Rows of a sheet looked at for a title above the table.
TITLE_SEARCH_ROWS = 20


def _header_below_title(header: tuple, records: list) -> int:
    """Where the header is when a title (a report name, a date, a note) sits above the table, as a workbook exported
    for people often has: the first of the first rows with the most filled cells, all of them text, when that is not
    the first row. Returns its position in ``[header, *records]`` (0: the first row is the header).

    >>> _header_below_title(("Q3 export",), [("y_true", "score"), (1, 0.8)])
    1
    >>> _header_below_title(("y_true", "score"), [(1, 0.8)]), _header_below_title(("Q3",), [(1, 0.8)])
    (0, 0)
    >>> _header_below_title(("y_true", "y_pred", None), [("a", "b", "note"), ("b", "b", "x")])
    0
    """
    rows = [header, *records[:TITLE_SEARCH_ROWS - 1]]
    filled = [sum(v is not None and v != "" for v in row) for row in rows]
    most = max(filled)
    if filled[0] == most or most < 2:
        return 0
    at = next((i for i, row in enumerate(rows) if filled[i] == most
               and all(isinstance(v, str) for v in row if v is not None and v != "")), 0)
    # a title is a cell or two; a header with a blank cell above rows of text is a header (refused later, by name)
    return at if all(n <= max(1, most // 2) for n in filled[:at]) else 0


def _within_column_cap(row: tuple, name: str, limits: Limits, row_number: int) -> tuple:
    """A row cut to the column cap when the cells past it are empty (formatting); refused when they hold data."""
    if len(row) <= limits.max_columns:
        return row
    if any(v is not None and v != "" for v in row[limits.max_columns:]):
        raise InputError(f"has {len(row):,} columns in sheet row {row_number:,}, over the {limits.max_columns:,} "
                         f"column limit (raise it with ASSESS_MAX_COLUMNS or --max-columns)", file=name)
    return row[: limits.max_columns]


def _read_jsonl(data: bytes, name: str, limits: Limits, progress=None) -> pd.DataFrame:
    data = _utf8(data, name)
    if data.count(b"\n") >= limits.max_rows:  # a JSON Lines record is one line: count before building any dict
        _check_rows(sum(1 for line in io.BytesIO(data) if line.strip()), name, limits)
    records = []
    # Lines are taken one at a time from the bytes (split at "\n" only, as JSON Lines defines them), never as a
    # list of every line.
    lines = io.BytesIO(data)
    for line_no, line in enumerate(lines, start=1):
        if progress is not None and line_no % 65_536 == 0:
            progress(lines.tell() / len(data))
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"line {line_no:,} is not valid JSON ({exc.msg} at character {exc.colno})",
                             file=name) from None
        except RecursionError:
            raise InputError(f"line {line_no:,} nests arrays or objects too deeply to read; each value must be a "
                             f"number or a string", file=name) from None
        except ValueError:  # Python refuses to convert integers of more than 4,300 digits (a denial-of-service guard)
            raise InputError(f"line {line_no:,} holds an integer of more than {sys.get_int_max_str_digits():,} "
                             f"digits, too long to be a label or a score", file=name) from None
        if not isinstance(obj, dict):
            raise InputError(f"line {line_no:,} is a JSON {type(obj).__name__}, expected one object per line",
                             file=name)
        records.append(obj)
        if len(records) > limits.max_rows:
            _check_rows(len(records), name, limits)
    if records:
        _check_columns(len(records[0]), name, limits)
    frame = pd.DataFrame.from_records(records)
    _check_columns(frame.shape[1], name, limits)
    # Arrays (and Spark's vector objects) are expanded by `assess.inputs.vectors` once the columns are tidy; it refuses any
    # other nesting with the column and row.
    return _big_integers_as_text(frame.infer_objects())


# --- columns -------------------------------------------------------------------------------------------------------

def _check_columns(n_columns: int, name: str, limits: Limits) -> None:
    if n_columns > limits.max_columns:
        raise InputError(f"has {n_columns:,} columns, over the {limits.max_columns:,} column limit "
                         f"(raise it with ASSESS_MAX_COLUMNS or --max-columns)", file=name)


def _tidy_columns(frame: pd.DataFrame, name: str, limits: Limits) -> pd.DataFrame:
    _check_columns(frame.shape[1], name, limits)
    columns = [str(c).strip() for c in frame.columns]
    for i, col in enumerate(columns):
        if len(col) > MAX_COLUMN_NAME:
            raise InputError(f"column {i + 1}'s name is {len(col):,} characters long ({shorten(col, 30)!r}); a "
                             f"header cell over {MAX_COLUMN_NAME:,} characters is data, not a column name", file=name)
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
