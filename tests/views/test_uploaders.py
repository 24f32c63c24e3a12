"""Every uploader of a table accepts every extension `read_table` reads (`assess.inputs.read.ACCEPTED_EXTENSIONS`):
the Cost and Controls uploaders once had their own shorter lists, so a `.pq`, `.ndjson` or `.json` file the reader
reads could not be chosen there."""

import ast

import pandas as pd
import pytest

from assess.inputs.read import ACCEPTED_EXTENSIONS, read_table
from tests.conftest import ROOT, open_app

#: Every table uploader: the module calling it, the page showing it, how to make it show. The settings uploader
#: takes JSON settings, not a table.
TABLE_UPLOADERS = {
    "ui/data_source.py": ("views/data.py", lambda at: at.radio[0].set_value("Upload a file").run()),
    "views/compare.py": ("views/compare.py", lambda at: next(r for r in at.radio if r.label == "Compare models from")
                         .set_value("per-fold scores I upload").run()),
    # the default sample has no cost columns: the cost-table uploader shows
    "views/cost.py": ("views/cost.py", lambda at: at),
    "views/controls.py": ("views/controls.py", lambda at: at),
}
SETTINGS_MODULE = "ui/names.py"


def uploader_files() -> set[str]:
    """The modules of views/ and ui/ that call ``file_uploader``."""
    found = set()
    for path in [*(ROOT / "views").glob("*.py"), *(ROOT / "ui").glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "file_uploader":
                found.add(path.relative_to(ROOT).as_posix())
    return found


def test_every_uploader_is_checked_below():
    assert uploader_files() == {*TABLE_UPLOADERS, SETTINGS_MODULE}, "a new uploader: add it to TABLE_UPLOADERS"


@pytest.mark.parametrize("module", TABLE_UPLOADERS)
def test_the_uploader_accepts_every_extension_the_reader_reads(module):
    page, show = TABLE_UPLOADERS[module]
    at = open_app(page)
    show(at)
    assert not at.exception
    [uploader] = at.get("file_uploader")
    assert set(uploader.proto.type) >= {f".{ext}" for ext in ACCEPTED_EXTENSIONS}


@pytest.mark.parametrize("extension", [e for e in ACCEPTED_EXTENSIONS if e not in ("gz", "zip")])
def test_the_reader_reads_a_file_named_with_each_extension(extension, tmp_path):
    # Hand-made: the same two rows written in the format each extension names; the reader must give them back.
    frame = pd.DataFrame({"y_true": [1, 0], "y_pred": [1, 1]})
    path = tmp_path / f"rows.{extension}"
    kind = {"parquet": "parquet", "pq": "parquet", "xlsx": "xlsx", "jsonl": "jsonl",
            "ndjson": "jsonl", "json": "jsonl"}.get(extension, "csv")
    if kind == "parquet":
        frame.to_parquet(path)
    elif kind == "xlsx":
        frame.to_excel(path, index=False)
    elif kind == "jsonl":
        frame.to_json(path, orient="records", lines=True)
    else:
        frame.to_csv(path, index=False, sep="\t" if extension == "tsv" else ",")
    table = read_table(path)
    assert table.format == kind
    assert table.frame.astype(int).equals(frame)
