"""The Data page's data-directory source under attack (issue 31, item 1), through AppTest: what the page opens and what
its messages say. The engine side of each route is tested in tests/engine/test_data_dir.py; here, that the page uses
it: no model of a file outside the directory on the page or in the sidebar, no absolute path in an error box."""

from __future__ import annotations

import os
import re

import pandas as pd
import pytest

from assess.engine.data_dir import ENV
from tests.conftest import open_app

pytest.importorskip("duckdb")

DATA_DIR_SOURCE = "Open from the data directory"
SECRET = "OUTSIDE_SECRET"


def _predictions(model: str, n: int = 60) -> pd.DataFrame:
    y = [i % 2 for i in range(n)]
    return pd.DataFrame({"model": model, "y_true": y, "score": [0.2 + 0.5 * t + 0.001 * i for i, t in enumerate(y)]})


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    outside = tmp_path / "outside"
    outside.mkdir()
    _predictions(SECRET).to_parquet(outside / "secret.parquet", index=False)
    base = tmp_path / "data"
    for folder in ("parts", "g", "broken"):
        (base / folder).mkdir(parents=True)
    _predictions("inside").to_parquet(base / "parts" / "p0.parquet", index=False)
    os.symlink(outside / "secret.parquet", base / "parts" / "evil.parquet")        # a part that is a link out
    _predictions("literal").to_parquet(base / "g" / "x*.parquet", index=False)
    os.symlink(outside / "secret.parquet", base / "g" / "xevil.parquet")          # what x*.parquet would match
    (base / "broken" / "p0.parquet").write_bytes(b"PAR1 not a footer")
    monkeypatch.setenv(ENV, str(base))
    return base


def _open(choice: str):
    at = open_app()
    at.radio[0].set_value(DATA_DIR_SOURCE).run()
    assert choice in at.selectbox[0].options
    at.selectbox[0].set_value(choice).run()
    at.button[0].click().run()
    assert not at.exception
    return at


def _page_text(at) -> str:
    parts = [e.value for kind in ("markdown", "caption", "error", "info") for e in getattr(at, kind)]
    parts += [e.value for kind in ("markdown", "caption") for e in getattr(at.sidebar, kind)]
    return re.sub(r"\\(.)", r"\1", "\n".join(str(p) for p in parts))    # md() escapes punctuation


@pytest.mark.parametrize("choice, error", [
    ("parts/", "parts/evil.parquet: a symbolic link leading outside the data directory"),
    ("broken/", "broken/p0.parquet: not a readable Parquet file"),
])
def test_a_refused_choice_says_why_with_paths_relative_to_the_directory(data_dir, choice, error):
    at = _open(choice)
    text = _page_text(at)
    assert [error in re.sub(r"\\(.)", r"\1", e.value) for e in at.error] == [True]
    assert str(data_dir.parent) not in text and SECRET not in text


def test_a_file_named_with_glob_characters_opens_alone(data_dir):
    at = _open("g/x*.parquet")
    assert not at.error
    text = _page_text(at)
    assert "60 rows" in text and "`literal`" in text and SECRET not in text
