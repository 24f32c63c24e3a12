"""`assess.inputs.footprint`: a file's unpacked size and shape counted by streaming its decompression
(`assess.inputs.read.scan_unpacked`), without keeping it, and stopped as soon as the memory needed is over budget."""

from __future__ import annotations

import gzip
import json
import tracemalloc
import zipfile

import numpy as np
import pandas as pd
import pytest

from assess.core.errors import InputError
from assess.inputs.footprint import CELL_BYTES, JSON_CELL_BYTES, PARQUET_CELL_BYTES, footprint
from assess.inputs.read import read_table
from tests.hostile_files import BOMB_HEADER, BOMB_LINE, write_gzip_bomb

#: 30,000 rows × 3 columns, 417,790 bytes (counted by hand below from the text itself, not by the code)
TEXT = b"y_true,y_pred,score\n" + b"".join(b"%d,%d,0.%03d\n" % (i % 2, i % 3 % 2, i % 997) for i in range(30_000))


def test_a_csv_is_counted_whole_plain_gzipped_or_zipped(tmp_path):
    lines = TEXT.count(b"\n")
    assert lines == 30_001
    (tmp_path / "p.csv").write_bytes(TEXT)
    (tmp_path / "p.csv.gz").write_bytes(gzip.compress(TEXT))
    with zipfile.ZipFile(tmp_path / "p.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("inner.csv", TEXT)
    for name, compression in (("p.csv", None), ("p.csv.gz", "gzip"), ("p.zip", "zip")):
        found = footprint(tmp_path / name)
        assert found.unpacked.complete and not found.at_least and not found.extrapolated
        assert (found.format, found.n_bytes, found.rows, found.columns) == ("csv", len(TEXT), lines, 3)
        assert found.unpacked.compression == compression
        assert found.need == len(TEXT) + CELL_BYTES * lines * 3


def test_json_lines_count_the_keys_of_the_first_record(tmp_path):
    text = b"".join(json.dumps({"y_true": i % 2, "score": i / 10, "model": "m"}).encode() + b"\n" for i in range(10))
    (tmp_path / "p.jsonl").write_bytes(text)
    found = footprint(tmp_path / "p.jsonl")
    assert (found.format, found.rows, found.columns) == ("jsonl", 10, 3)
    assert found.need == len(text) + JSON_CELL_BYTES * 10 * 3


def test_parquet_is_sized_from_its_footer(tmp_path):
    frame = pd.DataFrame({"y_true": [0, 1] * 5_000, "score": [0.5] * 10_000, "model": ["a"] * 10_000})
    frame.to_parquet(tmp_path / "p.parquet")
    found = footprint(tmp_path / "p.parquet")
    assert (found.format, found.rows, found.columns) == ("parquet", 10_000, 3)
    assert found.need == PARQUET_CELL_BYTES * 10_000 * 3


def test_a_gzip_bomb_is_measured_in_one_step_of_memory_and_stopped_at_the_budget(tmp_path):
    bomb = tmp_path / "b.csv.gz"
    write_gzip_bomb(bomb, blocks=16)                          # 1 GiB of 9-byte lines
    budget = 256 * 2**20
    tracemalloc.start()
    try:
        found = footprint(bomb, budget=budget)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 * 2**20, peak                            # never the bomb, only a few 1 MB steps
    # by hand: each line costs 9 + 2 × 56 = 121 bytes, so 256 MB is passed after about 2.2 million lines (20 MB);
    # the scan stops on the first 1 MB step past it, and a gzip's figures are then lower bounds
    per_line = len(BOMB_LINE) + 2 * CELL_BYTES
    assert found.at_least and not found.unpacked.complete and found.need > budget
    assert budget / per_line <= found.rows <= budget / per_line + 2**20 / len(BOMB_LINE) + 1
    assert found.n_bytes <= (budget / per_line) * len(BOMB_LINE) + len(BOMB_HEADER) + 2**20


def test_a_damaged_gzip_is_refused_by_the_scan_as_by_the_reader(tmp_path):
    raw = gzip.compress(TEXT)
    (tmp_path / "cut.csv.gz").write_bytes(raw[: len(raw) // 2])
    with pytest.raises(InputError, match="^cut.csv.gz: is a damaged gzip file"):
        footprint(tmp_path / "cut.csv.gz")
    with pytest.raises(InputError, match="^cut.csv.gz: is a damaged gzip file"):
        read_table(tmp_path / "cut.csv.gz")


@pytest.mark.parametrize("name, text", [
    ("p.csv", TEXT),
    ("p.jsonl", b"".join(b'{"y_true": %d, "score": 0.5}\n' % (i % 2) for i in range(200_000))),
])
def test_read_table_says_how_far_it_has_parsed(name, text):
    seen = []
    table = read_table(text, name=name, progress=seen.append)
    assert len(table.frame) == text.count(b"\n") - (name == "p.csv")
    assert seen and seen == sorted(seen) and seen[-1] == pytest.approx(1.0, abs=0.35) and seen[-1] <= 1.0


def test_a_workbook_larger_than_the_head_is_sized_from_its_unpacked_xml(tmp_path):
    # the first MB of an .xlsx is not a readable zip: the format is not sniffed from it (it was: "a zip archive
    # inside an archive", so the command line refused every workbook over 1 MB)
    scores = np.random.default_rng(0).random(60_000)       # 17 digits each: a workbook of about 2 MB
    frame = pd.DataFrame({"y_true": [i % 2 for i in range(60_000)], "score": scores, "note": [f"row {i}" for i in
                                                                                              range(60_000)]})
    frame.to_excel(tmp_path / "big.xlsx", index=False)
    assert (tmp_path / "big.xlsx").stat().st_size > 2**20
    with zipfile.ZipFile(tmp_path / "big.xlsx") as book:
        xml = sum(member.file_size for member in book.infolist())
    found = footprint(tmp_path / "big.xlsx")
    assert (found.format, found.n_bytes) == ("xlsx", xml)
