"""Hostile but small input files, made in code (nothing binary is committed): each must end in one clear message.

Used by the reader tests and the page smoke tests. Every maker returns ``(name, bytes)``.
"""

from __future__ import annotations

import gzip
import io
import re
import struct
import zipfile

import pandas as pd

CSV = b"y_true,y_pred,score\n" + b"".join(b"%d,%d,0.%d\n" % (i % 2, (i // 2) % 2, i % 10) for i in range(40))


def _zip(payload: bytes = CSV, member: str = "p.csv", method=zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=method) as z:
        z.writestr(member, payload)
    return buf.getvalue()


def zip_bad_crc():
    raw = bytearray(_zip(method=zipfile.ZIP_STORED))
    raw[raw.index(b"y_true") + 2] ^= 0x20  # one stored byte changed: the CRC no longer matches
    return "bad_crc.zip", bytes(raw)


def _patch_headers(raw: bytes, *, flags: int | None = None, method: int | None = None) -> bytes:
    """Rewrite the general-purpose flags / method of the local and central headers of a one-member zip."""
    out = bytearray(raw)
    for sig, flag_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = out.index(sig)
        if flags is not None:
            out[at + flag_at:at + flag_at + 2] = struct.pack("<H", flags)
        if method is not None:
            out[at + flag_at + 2:at + flag_at + 4] = struct.pack("<H", method)
    return bytes(out)


def zip_encrypted():
    return "encrypted.zip", _patch_headers(_zip(), flags=0x1)


def zip_unsupported_method():
    return "ppmd.zip", _patch_headers(_zip(), method=98)


def _xlsx(frame: pd.DataFrame) -> bytes:
    buf = io.BytesIO()
    frame.to_excel(buf, index=False)
    return buf.getvalue()


def _rewrite_member(raw: bytes, member: str, edit) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(raw))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            data = src.read(info.filename)
            z.writestr(info.filename, edit(data) if info.filename == member else data)
    return buf.getvalue()


def _small_frame(n=40):
    return pd.DataFrame({"y_true": [i % 2 for i in range(n)], "score": [round((i % 10) / 10, 1) for i in range(n)]})


def xlsx_truncated_sheet():
    return "truncated.xlsx", _rewrite_member(_xlsx(_small_frame()), "xl/worksheets/sheet1.xml",
                                             lambda d: d[: len(d) // 2])


def xlsx_wide_dimension(rows=20_000):
    """The sheet claims 16,384 columns (``A1:XFD…``) but holds 2: a reader that trusts the claim pads every row."""
    def widen(sheet_xml):
        widened, n = re.subn(rb'<dimension ref="A1:B\d+" ?/>', b'<dimension ref="A1:XFD%d"/>' % (rows + 1), sheet_xml)
        assert n == 1, "the writer's <dimension> element was not found"
        return widened

    return "xfd.xlsx", _rewrite_member(_xlsx(_small_frame(rows)), "xl/worksheets/sheet1.xml", widen)


def xlsx_billion_laughs():
    bomb = (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
            + b"".join(b'<!ENTITY lol%d "%s">' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10)
                       for i in range(1, 10)) + b"]>")
    return "laughs.xlsx", _rewrite_member(_xlsx(_small_frame()), "xl/worksheets/sheet1.xml",
                                          lambda d: bomb + d[d.index(b"<worksheet"):])


def xlsx_huge_header(chars=2_000_000):
    """A header cell of ``chars`` characters, written into the sheet XML: Excel and its writers cap a cell at 32,767
    characters, but a reader takes whatever the XML holds."""
    frame = _small_frame()
    frame.columns = ["y_true", "HUGE"]

    def grow(sheet_xml):
        assert sheet_xml.count(b">HUGE<") == 1
        return sheet_xml.replace(b">HUGE<", b">" + b"s" * chars + b"<")

    return "huge_header.xlsx", _rewrite_member(_xlsx(frame), "xl/worksheets/sheet1.xml", grow)


def parquet_nested():
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({"y_true": pa.array([[1], [0]] * 20), "score": pa.array([{"a": 0.1}, {"a": 0.9}] * 20),
                      "model": pa.array([["m"], ["n"]] * 20)})
    buf = io.BytesIO()
    pq.write_table(table, buf)
    return "nested.parquet", buf.getvalue()


def jsonl_deep(depth=10_000):
    return "deep.jsonl", (b'{"y_true": ' + b"[" * depth + b"]" * depth + b', "score": 0.5}\n') * 2


def jsonl_long_integer(digits=5_000):
    return "long_int.jsonl", b'{"y_true": 1, "score": ' + b"9" * digits + b'}\n{"y_true": 0, "score": 0.2}\n'


def csv_beyond_int64():
    rows = b"".join(b"99999999999999999999999,%d,0.%d\n" % (i % 2, i % 10) for i in range(40))
    return "big_ints.csv", b"y_true,y_pred,score\n" + rows


def csv_big_score():
    rows = b"".join(b"%d,99999999999999999999999\n" % (i % 2) for i in range(40))
    return "big_score.csv", b"y_true,score\n" + rows


def csv_field_over_limit(chars=300_000):
    return "long_field.csv", b"y_true,y_pred\n" + b"1," + b"x" * chars + b"\n0,0\n"


def csv_single_long_line(n_bytes=50_000_000):
    return "one_line.csv", b"y_true," + b"a" * n_bytes


def csv_many_columns(columns=100_000):
    header = b",".join(b"c%d" % i for i in range(columns))
    return "wide.csv", header + b"\n" + b",".join(b"1" for _ in range(columns)) + b"\n"


def gzip_bomb(n_bytes=190_000_000):
    return "bomb.csv.gz", gzip.compress(b"y_true,y_pred\n" + b"0,1\n" * (n_bytes // 4), compresslevel=9)


def utf16_odd():
    return "odd.csv", "y_true,y_pred\n1,1\n0,1\n".encode("utf-16") + b"\x00"


def zero_weights():
    rows = b"".join(b"%d,%d,0.%d,0\n" % (i % 2, (i // 3) % 2, i % 10) for i in range(40))
    return "zero_weights.csv", b"y_true,y_pred,score,weight\n" + rows


#: Cells that Markdown, HTML, KaTeX or a spreadsheet would act on: a page must show each as the text it is.
MARKUP_CELLS = ("<b>bold</b>", "**strong** [click](https://evil.example)", "$x^2$ :smile:",
                '=HYPERLINK("https://evil.example","open")', "<script>alert(1)</script>")


def markup_cells():
    """A binary file whose id and feature cells are `MARKUP_CELLS` (each row's id one of them, numbered)."""
    n = 40
    frame = pd.DataFrame({"id": [f"{MARKUP_CELLS[i % 5]} #{i}" for i in range(n)], "y_true": [i % 2 for i in range(n)],
                          "score": [round(((i * 7) % 10) / 10, 1) for i in range(n)],
                          "note": [MARKUP_CELLS[(i + 2) % 5] for i in range(n)]})
    return "markup_cells.csv", frame.to_csv(index=False).encode()


READER_CASES = [zip_bad_crc, zip_encrypted, zip_unsupported_method, xlsx_truncated_sheet, xlsx_billion_laughs,
                parquet_nested, jsonl_deep, jsonl_long_integer, csv_field_over_limit, csv_many_columns, utf16_odd]


# --- decompression bombs written to disk (the command line's memory limit) -----------------------------------------
# GBs of repetitive CSV from a few MB, written without ever holding more than one 64 MB block: the block is
# compressed once and its compressed bytes repeated, so making a 4 GiB bomb takes a second, not a minute.

BOMB_HEADER = b"y_true,score\n"
BOMB_LINE = b"1,0.8125\n"   # 9 bytes: a short line, so many rows per GB
_BLOCK = BOMB_LINE * ((64 << 20) // len(BOMB_LINE))


def write_gzip_bomb(path, blocks: int) -> int:
    """A .csv.gz of ``blocks`` × 64 MB of `BOMB_LINE` rows under `BOMB_HEADER` (gzip members, concatenated: RFC 1952
    2.2, read as one stream by gzip readers); returns its unpacked size."""
    member = gzip.compress(_BLOCK, compresslevel=9)
    with open(path, "wb") as out:
        out.write(gzip.compress(BOMB_HEADER))
        for _ in range(blocks):
            out.write(member)
    return len(BOMB_HEADER) + blocks * len(_BLOCK)


def write_zip_bomb(path, blocks: int, member: str = "p.csv") -> int:
    """A .zip holding one deflated CSV of `BOMB_HEADER` and ``blocks`` × 64 MB of `BOMB_LINE` rows (under 4 GiB:
    no zip64); returns its unpacked size.

    The deflate stream is one full-flushed segment per block (a full flush forgets the history, RFC 1951 blocks
    never point back past it), repeated, then an empty final block; the zip headers are written by hand (APPNOTE
    4.3.7, 4.3.12, 4.3.16) since zipfile would compress every byte itself.
    """
    import zlib

    def segment(data):
        packer = zlib.compressobj(9, zlib.DEFLATED, -15)
        return packer.compress(data) + packer.flush(zlib.Z_FULL_FLUSH)

    head, body = segment(BOMB_HEADER), segment(_BLOCK)
    final = zlib.compressobj(9, zlib.DEFLATED, -15).flush()   # an empty final block
    size = len(BOMB_HEADER) + blocks * len(_BLOCK)
    assert size < 2**32
    crc = zlib.crc32(BOMB_HEADER)
    for _ in range(blocks):
        crc = zlib.crc32(_BLOCK, crc)
    packed = len(head) + blocks * len(body) + len(final)
    name = member.encode()
    common = struct.pack("<HHHHHIII", 20, 0, zipfile.ZIP_DEFLATED, 0, 0x21, crc, packed, size)
    with open(path, "wb") as out:
        out.write(b"PK\x03\x04" + common + struct.pack("<HH", len(name), 0) + name)
        out.write(head)
        for _ in range(blocks):
            out.write(body)
        out.write(final)
        directory = out.tell()
        central = (b"PK\x01\x02" + struct.pack("<H", 20) + common
                   + struct.pack("<HHHHHII", len(name), 0, 0, 0, 0, 0o644 << 16, 0) + name)
        out.write(central)
        out.write(b"PK\x05\x06" + struct.pack("<HHHHIIH", 0, 0, 1, 1, len(central), directory, 0))
    return size
