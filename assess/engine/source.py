"""What an out-of-core run reads: one file, a directory of Parquet parts or a glob, checked before any scan.

`resolve_source` turns the command line's FILE into a `Source`: the list of files (sorted, so every engine reads the
same parts), their format (Parquet or CSV; one format per source) and their total size. Parquet parts are checked
against each other from their footers alone (pyarrow reads no data): a part with a different column set or a column
of a different type is named with the difference, because an engine would otherwise fail half-way through a scan
with a message about its own internals.

A source's files are the exact files to open: the engines are handed them with their glob characters escaped
(`assess.engine.backends`), never a pattern to expand again — a file named ``x*.parquet`` is that file, not its
neighbours too. The app's data directory builds its sources with `make_source` and a ``root``
(`assess.engine.data_dir.open_source`, which checks every part stays inside it); messages then name paths relative
to that root (`Source.shown`), never the server's absolute path.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from pathlib import Path

from assess.core.errors import AssessError

#: File suffixes read by the engines (compressed text and Excel go through the in-memory path).
PARQUET_SUFFIXES = (".parquet", ".parq", ".pq")
CSV_SUFFIXES = (".csv", ".tsv", ".txt")


@dataclass(frozen=True)
class Source:
    """The files of one input, all of one ``format`` ("parquet" or "csv"); ``name`` is what messages call it.
    ``root``: the data directory the files were confined to ("" for the command line's own paths)."""

    name: str
    files: tuple[str, ...]
    format: str
    n_bytes: int
    root: str = ""

    def shown(self, text: str) -> str:
        """``text`` with the data directory's absolute path cut out: a message for the browser names the files
        relative to it (an engine's or pyarrow's own message quotes the absolute path it was given)."""
        if not self.root:
            return text
        return text.replace(self.root + os.sep, "").replace(self.root, ".")


def file_format(path: str) -> str | None:
    """"parquet" or "csv" by the file name's suffix (any case; `PARQUET_SUFFIXES`, `CSV_SUFFIXES`), else None: the
    engines read those two; compressed text, Excel and the rest go through the in-memory reader."""
    lower = path.lower()
    if lower.endswith(PARQUET_SUFFIXES):
        return "parquet"
    if lower.endswith(CSV_SUFFIXES):
        return "csv"
    return None


def resolve_source(spec: str) -> Source:
    """The files named by the command line's ``spec``: a file, a directory (its Parquet/CSV files, recursively) or a
    glob pattern. An existing file is taken as named even when its name holds glob characters (``x*.parquet``)."""
    path = Path(spec)
    if path.is_dir():
        files = sorted(str(p) for p in path.rglob("*") if p.is_file() and file_format(str(p)))
        if not files:
            raise AssessError(f"{spec}: the directory holds no Parquet or CSV file")
    elif path.is_file():
        files = [str(path)]
    elif any(ch in spec for ch in "*?["):
        files = sorted(p for p in glob.glob(spec, recursive=True) if Path(p).is_file())
        if not files:
            raise AssessError(f"{spec}: the pattern matches no file")
    else:
        raise AssessError(f"{spec}: no such file or directory")
    return make_source(spec, files)


def make_source(name: str, files: list[str], root: str = "") -> Source:
    """The `Source` of these exact ``files`` (one format; Parquet parts' schemas checked), called ``name``."""
    formats = {file_format(f) for f in files}
    source = Source(name, tuple(files), "", 0, root)
    if None in formats:
        odd = next(f for f in files if file_format(f) is None)
        raise AssessError(source.shown(f"{odd}: the out-of-core engines read Parquet (.parquet) and CSV (.csv, .tsv, "
                                       ".txt) files; use --engine memory for other formats"))
    if len(formats) > 1:
        raise AssessError(f"{name}: mixes Parquet and CSV files; give one format")
    fmt = formats.pop()
    source = Source(name, tuple(files), fmt, sum(Path(f).stat().st_size for f in files), root)
    if fmt == "parquet":
        check_parquet_schemas(source)
    else:
        check_csv_encoding(source)
    return source


#: Bytes of each CSV file's head checked to be UTF-8 before an engine reads it.
ENCODING_HEAD = 1 << 16
#: Byte-order marks of the encodings the in-memory reader reads and the engines do not.
_WIDE_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"),
              (b"\xfe\xff", "UTF-16"))


def check_csv_encoding(source: Source) -> None:
    """Refuse a CSV part whose head is not UTF-8 (the engines read UTF-8 only; DuckDB fails in its sniffer with a
    bare "CSV Error on Line: 1"), naming the part and, for UTF-16/32, the encoding its byte-order mark says —
    ``--engine memory`` reads those. A UTF-8 byte-order mark is UTF-8. Only the head is read: a bad byte further in
    fails the scan later with its line."""
    import codecs

    for f in source.files:
        with open(f, "rb") as handle:
            head = handle.read(ENCODING_HEAD)
        wide = next((name for bom, name in _WIDE_BOMS if head.startswith(bom)), None)
        if wide is None:
            try:
                codecs.getincrementaldecoder("utf-8")().decode(head, final=False)   # a character cut at the end is fine
                continue
            except UnicodeDecodeError as exc:
                where = f"byte {exc.start:,} is not UTF-8 ({head[exc.start:exc.start + 1]!r})"
        else:
            where = f"it is {wide} (its byte-order mark says so)"
        raise AssessError(source.shown(f"{f}: the out-of-core engines read UTF-8 text and {where}; convert the file "
                                       "to UTF-8, or use --engine memory, which reads it"))


def check_parquet_schemas(source: Source) -> None:
    """Refuse parts whose columns differ from the first part's (names or types), naming the part and the column."""
    import pyarrow.parquet as pq

    def refuse(message: str):
        raise AssessError(source.shown(message)) from None

    first = None
    for f in source.files:
        try:
            schema = pq.read_schema(f)
        except Exception as exc:  # noqa: BLE001 - pyarrow raises several types for a damaged footer
            refuse(f"{f}: not a readable Parquet file ({exc})")
        types = {field.name: str(field.type) for field in schema}
        if first is None:
            first = (f, types)
            continue
        ref_file, ref = first
        missing = [c for c in ref if c not in types]
        if missing:
            refuse(f"{f}: column {missing[0]!r} is missing in this part (it is in {ref_file}); every part "
                   "must have the same columns")
        extra = [c for c in types if c not in ref]
        if extra:
            refuse(f"{f}: column {extra[0]!r} is in this part but not in {ref_file}; every part must have "
                   "the same columns")
        changed = [c for c in ref if types[c] != ref[c]]
        if changed:
            c = changed[0]
            refuse(f"{f}: column {c!r} is {types[c]} in this part but {ref[c]} in {ref_file}; parts with "
                   "different schemas cannot be read as one table")
