"""The out-of-core report names what it assessed: the input's SHA-256 and which checklist findings come from the
first rows only (assess.engine.digest, assess.engine.report).

Oracles: hashlib over the file's bytes (the digest the in-memory reader records, assess.inputs.read) and, for parts, the
stated rule written out independently here (path relative to the parts' folder, NUL, size as 8 big-endian bytes,
bytes, in sorted order).
"""

from __future__ import annotations

import hashlib

import pandas as pd

from assess.engine.digest import source_sha256
from assess.engine.source import resolve_source
from assess.inputs.read import read_table
from tests.engine.test_engine import SAMPLE, run_cli


def test_one_file_has_the_digest_of_its_bytes_as_in_memory():
    expected = hashlib.sha256(SAMPLE.read_bytes()).hexdigest()
    assert source_sha256(resolve_source(str(SAMPLE))) == expected
    assert read_table(SAMPLE).sha256 == expected


def _parts(tmp_path):
    frame = pd.read_csv(SAMPLE)
    folder = tmp_path / "parts"
    (folder / "b").mkdir(parents=True)
    frame.iloc[:900].to_parquet(folder / "a.parquet")
    frame.iloc[900:].to_parquet(folder / "b" / "c.parquet")
    return folder


def test_parts_are_hashed_by_the_stated_rule_and_a_rename_changes_the_digest(tmp_path):
    folder = _parts(tmp_path)
    h = hashlib.sha256()
    for rel in ("a.parquet", "b/c.parquet"):
        data = (folder / rel).read_bytes()
        h.update(rel.encode() + b"\0" + len(data).to_bytes(8, "big") + data)
    assert source_sha256(resolve_source(str(folder))) == h.hexdigest()
    assert source_sha256(resolve_source(str(folder / "**" / "*.parquet"))) == h.hexdigest()
    (folder / "a.parquet").rename(folder / "a2.parquet")
    assert source_sha256(resolve_source(str(folder))) != h.hexdigest()


def test_the_report_of_parts_shows_the_digest_and_marks_the_head_sample_findings(tmp_path, monkeypatch):
    folder = _parts(tmp_path)
    monkeypatch.setattr("assess.engine.reports.HEAD_ROWS", 300)
    out = tmp_path / "r.html"
    code, _, err = run_cli("report", folder, "--engine", "duckdb", "--out", out, "--tests", "mcnemar")
    assert code == 0, err
    html = out.read_text(encoding="utf-8")
    assert source_sha256(resolve_source(str(folder))) in html
    assert "covers the 2 parts in sorted path order" in html
    assert "From the first 300 rows only (the metrics cover all 1,707)" in html
    assert "Not computed out of core: the ISO 5.3.13 baselines need the rows" in html
