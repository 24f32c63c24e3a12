"""Byte-level fuzzing of the readers: a mutated file either loads or raises the project's own `InputError`.

Seeds are small valid files of every format the app reads (CSV, TSV in UTF-16, gzip, zip, xlsx, Parquet, JSON
Lines); hypothesis flips, deletes, inserts, duplicates and truncates their bytes. Anything else escaping `read_table`
(`UnicodeDecodeError`, `EOFError`, zip's `NotImplementedError`, a "negative seek value" `ValueError`, ...) is a
crash of a page. Failures found while hunting with the ``dev`` profile are pinned with ``@example``.
"""

import gzip
import io
import re
import struct
import zipfile

import pandas as pd
import pytest
import pyarrow as pa
import pyarrow.parquet as pq
from hypothesis import example, given, settings
from hypothesis import strategies as st

from assess.core.errors import InputError
from assess.inputs.read import LoadedTable, read_table
from tests import hostile_files

CSV = b"y_true,y_pred,score\ncat,cat,0.9\ndog,cat,0.25\nNA,NA,0.5\ncat,dog,0.125\n"
FRAME = pd.DataFrame({"y_true": ["cat", "dog", "NA", "cat"], "y_pred": ["cat", "cat", "NA", "dog"],
                      "score": [0.9, 0.25, 0.5, 0.125]})


def _zip(name: str, payload: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, payload)
    return buf.getvalue()


def _xlsx() -> bytes:
    buf = io.BytesIO()
    FRAME.to_excel(buf, index=False)
    return buf.getvalue()


def _parquet() -> bytes:
    buf = io.BytesIO()
    pq.write_table(pa.Table.from_pandas(FRAME, preserve_index=False), buf)
    return buf.getvalue()


SEEDS = {
    "p.csv": CSV,
    "p.tsv": CSV.replace(b",", b"\t").decode().encode("utf-16"),
    "p.csv.gz": gzip.compress(CSV),
    "p.zip": _zip("p.csv", CSV),
    "p.xlsx": _xlsx(),
    "p.parquet": _parquet(),
    "p.jsonl": FRAME.to_json(orient="records", lines=True).encode(),
}
NAMES = sorted(SEEDS)


def _with_zip_field(data: bytes, signature: bytes, offset: int, fmt: str, change) -> bytes:
    """``data`` with one little-endian field of a zip header (found by its signature) rewritten by ``change``."""
    out = bytearray(data)
    at = out.rindex(signature) + offset
    size = struct.calcsize(fmt)
    (value,) = struct.unpack(fmt, out[at:at + size])
    out[at:at + size] = struct.pack(fmt, change(value))
    return bytes(out)


# The escapes byte-level fuzzing found in the audit of issue 15, one file each.
FOUND = {
    "UnicodeDecodeError: UTF-16 with an odd byte count": ("p.tsv", SEEDS["p.tsv"] + b"\x00"),
    "EOFError: a gzip stream cut short": ("p.csv.gz", SEEDS["p.csv.gz"][:-12]),
    "EOFError: a zip member's extra field runs past the end": (
        "p.zip", _with_zip_field(SEEDS["p.zip"], b"PK\x03\x04", 28, "<H", lambda _: 256)),
    "ValueError: negative seek value (central directory offset moved)": (
        "p.zip", _with_zip_field(SEEDS["p.zip"], b"PK\x05\x06", 16, "<I", lambda v: v + 100)),
    "BadZipFile: bad CRC": hostile_files.zip_bad_crc(),
    "RuntimeError: an encrypted member": hostile_files.zip_encrypted(),
    "NotImplementedError: PPMd compression": hostile_files.zip_unsupported_method(),
    "zlib.error: damaged deflate data": ("p.zip", SEEDS["p.zip"][:40] + b"\xff" * 8 + SEEDS["p.zip"][48:]),
}


def _edit(draw, data: bytearray) -> None:
    """One byte-level edit of ``data`` in place: flip, set, delete, insert, duplicate a span, or truncate."""
    at = draw(st.integers(0, len(data) - 1))
    op = draw(st.sampled_from(["flip", "set", "delete", "insert", "duplicate", "truncate"]))
    if op == "flip":
        data[at] ^= 1 << draw(st.integers(0, 7))
    elif op == "set":
        data[at] = draw(st.sampled_from([0x00, 0xFF, 0x80, ord(","), ord("\n"), ord('"'), ord("9"), ord("<")]))
    elif op == "delete":
        del data[at:at + draw(st.integers(1, 16))]
    elif op == "insert":
        data[at:at] = draw(st.binary(min_size=1, max_size=8))
    elif op == "duplicate":
        data[at:at] = data[at:at + draw(st.integers(1, 64))]
    else:
        del data[at:]


@st.composite
def mutated_members(draw):
    """An .xlsx or .zip whose archive stays valid while one member's bytes are edited: this reaches the XML and CSV
    parsers behind the zip's CRC check, which byte edits of the archive itself rarely get past."""
    name = draw(st.sampled_from(["p.xlsx", "p.zip"]))
    source = zipfile.ZipFile(io.BytesIO(SEEDS[name]))
    members = source.namelist()
    target = draw(st.sampled_from(members))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for member in members:
            data = bytearray(source.read(member))
            if member == target:
                for _ in range(draw(st.integers(1, 3))):
                    if data:
                        _edit(draw, data)
            archive.writestr(member, bytes(data))
    return name, buf.getvalue()


@st.composite
def mutated_files(draw):
    """A seed file with 1 to 4 byte-level edits: flip, delete, insert, duplicate a span, or truncate."""
    name = draw(st.sampled_from(NAMES))
    data = bytearray(SEEDS[name])
    for _ in range(draw(st.integers(1, 4))):
        if not data:
            break
        _edit(draw, data)
    return name, bytes(data)


def _read_or_refuse(name: str, data: bytes) -> None:
    try:
        table = read_table(data, name=name)
    except InputError as exc:
        message = str(exc)
        assert message.startswith(f"{name}: ") and "\n" not in message, message
        return
    assert isinstance(table, LoadedTable) and len(table.frame) > 0


def test_seeds_are_valid_files():
    """The fuzzing starts from files that load, so a mutation is what makes a file bad."""
    for name in NAMES:
        assert read_table(SEEDS[name], name=name).frame["y_true"].tolist() == ["cat", "dog", "NA", "cat"], name


@pytest.mark.parametrize("found", sorted(FOUND))
def test_found_escapes_are_input_errors(found):
    name, data = FOUND[found]
    with pytest.raises(InputError, match=rf"^{re.escape(name)}: "):
        read_table(data, name=name)


@settings(max_examples=3000)
@given(mutated_files())
@example(FOUND["UnicodeDecodeError: UTF-16 with an odd byte count"])
@example(FOUND["EOFError: a zip member's extra field runs past the end"])
@example(FOUND["ValueError: negative seek value (central directory offset moved)"])
@example(FOUND["RuntimeError: an encrypted member"])
@example(FOUND["NotImplementedError: PPMd compression"])
def test_mutated_files_load_or_raise_input_error(case):
    _read_or_refuse(*case)


@pytest.mark.filterwarnings("ignore::UserWarning")  # openpyxl warns about the damage it tolerates
@settings(max_examples=1000)
@given(mutated_members())
def test_files_with_a_mutated_archive_member_load_or_raise_input_error(case):
    _read_or_refuse(*case)
