"""The app's data directory (``ASSESS_DATA_DIR``): paths stay inside it; the Data page opens its files out of core.

Path checks are tested on the compute side (`assess.engine.data_dir`) with real ``..``, absolute paths and
symbolic links; the pages with AppTest. Oracle for the numbers: the in-memory metrics of the same file.
"""

from __future__ import annotations

import os
import re
import shutil

import pandas as pd
import pytest

from assess.core.errors import AssessError
from assess.engine.data_dir import ENV, data_directory, list_sources, resolve_inside
from assess.inputs.roles import Overrides
from assess.metrics.reports import compute_reports
from tests.conftest import open_app
from tests.engine.test_engine import SAMPLE

pytest.importorskip("duckdb")

DATA_DIR_SOURCE = "Open from the data directory"


@pytest.fixture
def root(tmp_path):
    """A data directory: a CSV, a directory of Parquet parts, a text file, and links in and out of it."""
    base = tmp_path / "data"
    (base / "parts").mkdir(parents=True)
    shutil.copy(SAMPLE, base / "sample.csv")
    frame = pd.read_csv(SAMPLE)
    frame.iloc[:900].to_parquet(base / "parts" / "p0.parquet", index=False)
    frame.iloc[900:].to_parquet(base / "parts" / "p1.parquet", index=False)
    (base / "notes.md").write_text("not data")
    outside = tmp_path / "secret.csv"
    outside.write_text("y_true,score\n1,0.5\n")
    os.symlink(outside, base / "escape.csv")
    os.symlink(tmp_path, base / "up")
    os.symlink(base / "sample.csv", base / "alias.csv")
    return base


def test_the_setting_is_off_by_default_and_names_a_wrong_directory(monkeypatch, tmp_path):
    monkeypatch.delenv(ENV, raising=False)
    assert data_directory() is None
    monkeypatch.setenv(ENV, str(tmp_path / "missing"))
    with pytest.raises(AssessError, match="not a directory") as refused:
        data_directory()
    assert str(tmp_path) not in str(refused.value)      # the page shows it to every visitor: no server path


def test_the_listing_holds_the_data_files_and_part_directories_but_no_link_out(root):
    assert list_sources(root) == ["alias.csv", "parts/", "parts/p0.parquet", "parts/p1.parquet", "sample.csv"]


@pytest.mark.parametrize("path, message", [
    ("../secret.csv", "`..` is not allowed"),
    ("parts/../../secret.csv", "`..` is not allowed"),
    ("escape.csv", "leads outside the data directory"),
    ("up/secret.csv", "leads outside the data directory"),
    ("missing.csv", "no such file"),
    ("notes.md", "Parquet and CSV"),
    ("", "choose a file"),
])
def test_paths_that_leave_the_directory_or_name_nothing_are_refused(root, path, message):
    with pytest.raises(AssessError, match=message):
        resolve_inside(root, path)


def test_absolute_paths_are_refused_even_inside_the_directory(root):
    with pytest.raises(AssessError, match="not an absolute path"):
        resolve_inside(root, str(root / "sample.csv"))
    with pytest.raises(AssessError, match="not an absolute path"):
        resolve_inside(root, "/etc/passwd")


def test_paths_inside_resolve_including_a_link_that_stays_inside(root):
    assert resolve_inside(root, "sample.csv") == (root / "sample.csv").resolve()
    assert resolve_inside(root, "alias.csv") == (root / "sample.csv").resolve()
    assert resolve_inside(root, "parts/") == (root / "parts").resolve()


# --- the pages -----------------------------------------------------------------------------------------------------

def test_without_the_setting_the_data_page_offers_no_data_directory(monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    at = open_app()
    assert DATA_DIR_SOURCE not in at.radio[0].options


def test_a_directory_of_parts_opens_out_of_core_and_the_metrics_page_shows_it(monkeypatch, root):
    monkeypatch.setenv(ENV, str(root))
    at = open_app()
    at.radio[0].set_value(DATA_DIR_SOURCE).run()
    assert not at.exception
    assert at.selectbox[0].options == list_sources(root)
    at.selectbox[0].set_value("parts/").run()
    at.button[0].click().run()
    assert not at.exception and not at.error
    assert "1,707 rows · binary classification · 3 models · exact" in at.markdown[0].value
    at.switch_page("views/metrics.py").run()
    assert not at.exception
    table = at.dataframe[0].value
    # the models in the file's order (first appearance), as the in-memory path lists them
    assert "key" not in table.columns and list(table.columns[2:]) == ["logistic", "tree", "naive_bayes_3f"]
    # oracle: the in-memory metrics of the same rows
    from assess.inputs.assessment import describe
    from assess.inputs.read import read_table
    from assess.inputs.roles import Overrides

    memory = compute_reports(describe(read_table(SAMPLE), Overrides()), ci="auto")
    accuracy = table[table["metric"] == memory["logistic"]["accuracy"].name]["logistic"].iloc[0]
    assert accuracy.startswith(f"{memory['logistic']['accuracy'].value:.3f}")
    assert table[table["metric"] == "Rows"]["tree"].iloc[0].startswith("569")
    for page, title in (("views/curves.py", "Curves"), ("views/slices.py", "Slices"), ("views/report.py", "Report")):
        at.switch_page(page).run()     # each page under its own title, saying why it shows nothing more
        assert not at.exception and "needs the file's rows" in at.info[0].value
        assert [t.value for t in at.title] == [title]


def test_a_link_out_of_the_directory_is_never_listed_nor_opened(monkeypatch, root):
    monkeypatch.setenv(ENV, str(root))
    at = open_app()
    at.radio[0].set_value(DATA_DIR_SOURCE).run()
    assert "escape.csv" not in at.selectbox[0].options
    # a listed file replaced by a link out of the directory leaves the list (and `resolve_inside`, run again when a
    # file is opened, refuses it: test_paths_that_leave_the_directory_or_name_nothing_are_refused)
    os.remove(root / "sample.csv")
    os.symlink(root.parent / "secret.csv", root / "sample.csv")
    at.run()
    assert "sample.csv" not in at.selectbox[0].options and not at.exception


def test_choosing_a_sample_again_closes_the_out_of_core_file(monkeypatch, root):
    monkeypatch.setenv(ENV, str(root))
    at = open_app()
    at.radio[0].set_value(DATA_DIR_SOURCE).run()
    at.selectbox[0].set_value("sample.csv").run()
    at.button[0].click().run()
    at.radio[0].set_value(at.radio[0].options[0]).run()
    at.switch_page("views/metrics.py").run()
    assert not at.exception and at.title[0].value == "Metrics"
    assert "exact" not in (at.markdown[0].value if at.markdown else "")


def test_the_sidebar_names_the_file_opened_out_of_core(monkeypatch, root):
    # a forecast file (assess.engine.forecast) beside the binary parts: the sidebar says what is open, not "No data"
    shutil.copy(SAMPLE.with_name("monthly_forecasts.csv"), root / "forecasts.csv")
    monkeypatch.setenv(ENV, str(root))
    at = open_app()
    at.radio[0].set_value(DATA_DIR_SOURCE).run()
    at.selectbox[0].set_value("forecasts.csv").run()
    at.button[0].click().run()
    assert not at.exception and not at.error
    lines = [c.value.replace("\\", "") for c in at.sidebar.caption]     # md() escapes ":" and "("
    assert "No data loaded." not in lines
    assert "Active: `forecasts.csv` (out of core)" in lines
    assert "2,592 rows · time-series forecasting · 3 models: `naive`, `seasonal_naive`, `ets`" in lines
    at.switch_page("views/metrics.py").run()           # the engine's forecast metrics on the Metrics page
    assert not at.exception and "Active: `forecasts.csv` (out of core)" in [c.value.replace("\\", "") for c in
                                                                             at.sidebar.caption]
    assert "MASE (vs naive)" in at.dataframe[0].value["metric"].tolist()


# --- attacks on the data directory: every file that opens is inside it ---------------------------------------------

SECRET = "OUTSIDE_SECRET"


def _predictions(model: str, n: int = 60) -> pd.DataFrame:
    """A small binary file of one model: truth alternating, score rising with it."""
    y = [i % 2 for i in range(n)]
    return pd.DataFrame({"model": model, "y_true": y, "score": [0.2 + 0.5 * t + 0.001 * i for i, t in enumerate(y)]})


@pytest.fixture
def hostile(tmp_path):
    """A data directory laid with traps next to an outside directory whose files name the model `SECRET`."""
    outside = tmp_path / "outside"
    outside.mkdir()
    _predictions(SECRET).to_parquet(outside / "secret.parquet", index=False)
    base = tmp_path / "data"
    base.mkdir()
    _predictions("inside").to_parquet(base / "good.parquet", index=False)

    def parts(folder: str, *links: tuple[str, object]):
        (base / folder).mkdir()
        _predictions("inside").to_parquet(base / folder / "p0.parquet", index=False)
        for name, target in links:
            os.symlink(target, base / folder / name)

    parts("partlink", ("evil.parquet", outside / "secret.parquet"))          # a part that is a link out
    parts("dirlink", ("sub", outside))                                       # a sub-directory that is a link out
    os.symlink(outside, base / "outlink")                                    # the chosen directory is a link out
    parts("nested")
    (base / "nested" / "deeper").mkdir()
    os.symlink(outside / "secret.parquet", base / "nested" / "deeper" / "evil.parquet")
    parts("partloop", ("l1.parquet", "l2.parquet"), ("l2.parquet", "l1.parquet"))   # a loop of part links
    parts("dirloop", ("again", base / "dirloop"), ("up", base))              # links back up: not followed
    # glob characters in a real file's name, next to a link out that the pattern would match
    for folder, name, neighbour in (("g1", "x*.parquet", "xevil.parquet"), ("g2", "x[1].parquet", "x1.parquet"),
                                    ("g3", "x?.parquet", "xa.parquet")):
        (base / folder).mkdir()
        _predictions("literal").to_parquet(base / folder / name, index=False)
        os.symlink(outside / "secret.parquet", base / folder / neighbour)
    os.symlink("loop2.parquet", base / "loop1.parquet")
    os.symlink("loop1.parquet", base / "loop2.parquet")
    _predictions("backslash").to_parquet(base / "a\\b.parquet", index=False)    # listed, so it must open
    os.mkfifo(base / "fifo.csv")                     # a reader opening it would wait for a writer for ever
    parts("fifoparts")
    os.mkfifo(base / "fifoparts" / "p1.parquet")
    (base / "broken").mkdir()
    (base / "broken" / "p0.parquet").write_bytes(b"PAR1 not a footer")
    # a bad cell past the first rows (`assess.engine.reports.HEAD_ROWS`): DuckDB's own error, which names the file
    (base / "badcell.csv").write_text("y_true,score\n" + "1,0.5\n0,0.25\n" * 30_000 + "1,oops\n")
    return base


@pytest.mark.parametrize("relative, models, refused", [
    ("partlink/", None, "partlink/evil.parquet: a symbolic link leading outside"),
    ("dirlink/", None, "dirlink/sub: a symbolic link leading outside"),
    ("outlink/", None, "outlink/: leads outside the data directory"),
    ("nested/", None, "nested/deeper/evil.parquet: a symbolic link leading outside"),
    ("partloop/", None, "partloop/l1.parquet: a symbolic link that leads nowhere"),
    ("dirloop/", ["inside"], None),
    ("g1/x*.parquet", ["literal"], None),
    ("g2/x[1].parquet", ["literal"], None),
    ("g3/x?.parquet", ["literal"], None),
    ("a\\b.parquet", ["backslash"], None),
    ("..\\outside\\secret.parquet", None, "no such file"),      # one literal name on POSIX, not a climb
    ("good\0.parquet", None, "control character"),
    ("go\nod.parquet", None, "control character"),
    ("../outside/secret.parquet", None, "`..` is not allowed"),
    ("%2e%2e/outside/secret.parquet", None, "no such file"),
    ("loop1.parquet", None, "no such file"),
    ("fifo.csv", None, "not a regular file"),
    ("fifoparts/", None, r"^fifoparts/p1\.parquet: not a regular file"),
    ("broken/", None, r"^broken/p0\.parquet: not a readable Parquet file"),
    ("badcell.csv", None, r"^badcell\.csv: line 60,002 .*'oops' is not a number"),
])
def test_no_attack_opens_a_file_outside_the_data_directory(hostile, relative, models, refused):
    """Each route out of the directory the audit tried (issue 31, item 1), as the Data page opens a choice: either
    refused with a message naming the path relative to the directory, or opened reading the inside files alone."""
    from assess.engine.data_dir import open_source
    from assess.engine.reports import engine_reports

    try:
        run = engine_reports(open_source(hostile, relative), "duckdb", Overrides(), ci="wilson")
    except AssessError as exc:
        message = str(exc)
        assert refused is not None, message
        assert re.search(refused, message), message
        assert str(hostile.parent) not in message and SECRET not in message
        return
    assert refused is None, f"opened; expected {refused!r}"
    assert list(run.reports) == models and run.n_rows == 60


def test_a_file_named_with_a_backslash_is_listed_as_named(hostile):
    assert "a\\b.parquet" in list_sources(hostile)


def test_absolute_paths_are_refused_before_anything_opens(hostile):
    from assess.engine.data_dir import open_source

    with pytest.raises(AssessError, match="not an absolute path"):
        open_source(hostile, str(hostile.parent / "outside" / "secret.parquet"))
