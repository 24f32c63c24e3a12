"""The memory reading a file will take, estimated before it is read.

A compressed file's size says nothing about what it holds (a 1 MB zip can unpack to 1 GB of CSV), and a text file's
size says little about its rows (short lines are many rows, and each row costs the same per cell whatever its
bytes). So the estimate streams the unpacking with `assess.inputs.read.scan_unpacked`, counting bytes and line
breaks without keeping them, and stops as soon as the estimate passes the budget it is given: measuring a bomb costs
one step of memory and the seconds it takes to unpack the budget's worth.

The figures are peak resident memory of ``python -m assess metrics`` above the interpreter's own (3,000,000-row files
of 2 and 11 columns, 21 and 219 MB: 30 and 57 bytes per cell as CSV, 39 and 62 as Parquet; JSON Lines 212 bytes per
cell), rounded up:

- text (CSV/TSV/TXT): its unpacked bytes (held while parsed) + `CELL_BYTES` per cell, rows = line breaks, columns =
  the header's fields: the parser's offsets, the frame (8 bytes a number), then the labels, scores and sort orders
  the metrics keep;
- JSON Lines: the bytes + `JSON_CELL_BYTES` per cell (a dict per record and an object per value before the frame);
- Parquet: rows × columns from its footer × `PARQUET_CELL_BYTES` (the Arrow table, then the frame; its size says
  little: repeated values take a few bits);
  inside a .gz/.zip, where the footer is not at hand, `PARQUET_FACTOR` × its unpacked bytes;
- .xlsx: `XLSX_FACTOR` × its unpacked XML (at least ~20 bytes of XML per cell, a Python object per cell).

When the size is known before unpacking (a plain file, the size a zip's directory declares) and the scan stops
early, the rows are extrapolated from the lines counted so far; a gzip's size is known only by unpacking it, so an
early stop gives lower bounds (`Footprint.complete` is False and `Footprint.at_least` True).
"""

from __future__ import annotations

import csv
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

from assess.inputs.read import SNIFF_LINES, Limits, Unpacked, scan_unpacked, sniff_delimiter, sniff_format

CELL_BYTES = 56
JSON_CELL_BYTES = 256
PARQUET_CELL_BYTES = 64
PARQUET_FACTOR = 15
XLSX_FACTOR = 4


@dataclass(frozen=True)
class Footprint:
    """A file's unpacked size and shape, and the memory reading and assessing it needs (all estimates in bytes)."""

    unpacked: Unpacked
    format: str            # as `read_table` will read it: "csv", "jsonl", "parquet", "xlsx"
    n_bytes: int           # unpacked bytes
    rows: int              # text: line breaks, the header's included; Parquet: its footer's; 0 when not counted
    columns: int
    need: int
    #: True when the scan stopped before the end of a gzip (whose size only unpacking tells): every figure is a
    #: lower bound.
    at_least: bool = False
    #: True when the rows are extrapolated from the lines counted before the scan stopped (the size was known).
    extrapolated: bool = False


def footprint(path: str | Path, *, budget: int | None = None, limits: Limits | None = None,
              step=None) -> Footprint:
    """The `Footprint` of the file at ``path``, the scan stopped as soon as the memory needed is over ``budget``.

    ``step(so_far)`` is called with each step's `Unpacked` (for progress). ``limits`` are the byte cap and archive
    checks `read_table` will apply (`assess.inputs.read.Limits`); a file they refuse raises its `InputError` here.
    """
    path = Path(path)
    shape: dict = {}

    def enough(so_far: Unpacked) -> bool:
        if not shape:
            shape.update(_shape(so_far))
        if step is not None:
            step(so_far)
        if shape["format"] not in ("csv", "jsonl") and so_far.compression is None:
            return True  # sized from their footer or directory, not from their lines
        return budget is not None and _estimate(path, so_far, **shape).need > budget

    unpacked = scan_unpacked(path, limits=limits, enough=enough)
    return _estimate(path, unpacked, **(shape or {"format": "csv", "columns": 1}))


def _shape(so_far: Unpacked) -> dict:
    """The format `read_table` will read, and the columns of a text file's header, from the head."""
    # a zip passed through unpacked is a workbook (`read._unpacking`); its head alone is not a readable zip
    fmt = "xlsx" if so_far.head[:4] == b"PK\x03\x04" else sniff_format(so_far.head, so_far.inner_name, so_far.name)
    if fmt not in ("csv", "jsonl"):
        return {"format": fmt, "columns": 1}
    head = so_far.head
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        text = head[: len(head) // 2 * 2].decode("utf-16", "replace")
    else:
        text = head.decode("utf-8", "replace").lstrip("\ufeff")
    lines = [line for line in text.splitlines()[: SNIFF_LINES + 1] if line.strip()]
    if len(lines) > 1 and len(head) < so_far.n_bytes:
        lines.pop()  # cut by the head's end
    if not lines:
        return {"format": fmt, "columns": 1}
    if fmt == "jsonl":
        try:
            record = json.loads(lines[0])
        except (ValueError, RecursionError):
            record = None
        return {"format": fmt, "columns": len(record) if isinstance(record, dict) and record else 1}
    delimiter = sniff_delimiter(lines)
    try:
        columns = len(next(csv.reader([lines[0]], delimiter=delimiter))) if delimiter else len(lines[0].split())
    except csv.Error:
        columns = max(lines[0].count(d) for d in ",;\t|") + 1
    return {"format": fmt, "columns": max(columns, 1)}


def _estimate(path: Path, unpacked: Unpacked, format: str, columns: int) -> Footprint:
    n_bytes = unpacked.n_bytes
    # stopped before the end: a gzip's figures are lower bounds; a size known beforehand gives the rest of the rows
    stopped = not unpacked.complete and (unpacked.size is None or n_bytes < unpacked.size)
    if format in ("csv", "jsonl"):
        rows = unpacked.n_lines
        extrapolated = stopped and unpacked.size is not None and n_bytes > 0
        if extrapolated:
            rows = round(rows * unpacked.size / n_bytes)   # the bytes per line so far, over the whole size
            n_bytes = unpacked.size
        per_cell = CELL_BYTES if format == "csv" else JSON_CELL_BYTES
        return Footprint(unpacked, format, n_bytes, rows, columns, n_bytes + per_cell * rows * columns,
                         at_least=stopped and not extrapolated, extrapolated=extrapolated)
    size = unpacked.size or n_bytes
    if format == "parquet" and unpacked.compression is None:
        shape = _parquet_shape(path)
        if shape is not None:
            rows, columns = shape
            return Footprint(unpacked, format, size, rows, columns, PARQUET_CELL_BYTES * rows * columns)
    if format == "xlsx" and unpacked.compression is None:
        try:
            with zipfile.ZipFile(path) as book:
                xml = sum(member.file_size for member in book.infolist())
        except (zipfile.BadZipFile, OSError, ValueError):
            xml = size
        return Footprint(unpacked, format, xml, 0, 0, XLSX_FACTOR * xml)
    factor = PARQUET_FACTOR if format == "parquet" else XLSX_FACTOR
    return Footprint(unpacked, format, size, 0, 0, factor * size, at_least=stopped and unpacked.size is None)


def _parquet_shape(path: Path) -> tuple[int, int] | None:
    """(rows, columns) its footer declares; None when it cannot be read (`read_table` says why)."""
    import pyarrow
    import pyarrow.parquet as pq

    try:
        metadata = pq.ParquetFile(path).metadata
    except (pyarrow.ArrowException, OSError, ValueError):
        return None
    return metadata.num_rows, metadata.num_columns
