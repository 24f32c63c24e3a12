"""The app's data directory: a deployment setting that lets the Data page open large files out of core.

Off by default. With ``ASSESS_DATA_DIR=/srv/predictions`` the Data page lists the Parquet and CSV files under that
ONE directory (and its sub-directories of Parquet parts, each read as one source) and assesses the chosen one with
the out-of-core engine (`assess.engine.reports.engine_reports`, DuckDB) — never an arbitrary path: the choice is a
path *relative to the directory*, resolved (symlinks followed) and refused unless the result is still inside it,
so ``../``, absolute paths and symbolic links pointing out of the directory never open anything. The check is made
again when a file is opened, not only when the list is drawn (the directory may change in between).
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from assess.core.errors import AssessError
from assess.engine.source import file_format

ENV = "ASSESS_DATA_DIR"
#: Most entries the Data page lists (a directory with more is cut, with a note).
MAX_ENTRIES = 500


def data_directory() -> Path | None:
    """The configured directory (resolved), or None when the setting is off; a setting naming no directory is an
    error, said once on the page rather than silently ignored."""
    value = os.environ.get(ENV, "").strip()
    if not value:
        return None
    root = Path(value).expanduser()
    if not root.is_dir():
        raise AssessError(f"{ENV}={value}: not a directory; set it to the directory holding the prediction files")
    return root.resolve()


def list_sources(root: Path, *, limit: int = MAX_ENTRIES) -> list[str]:
    """The sources under ``root`` as relative POSIX paths, sorted: every Parquet/CSV file, and every directory that
    holds Parquet parts directly (``name/`` — read as one source). Symbolic links out of ``root`` are not listed;
    at most ``limit`` entries."""
    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        dirnames.sort()
        parts = False
        for name in sorted(filenames):
            path = here / name
            fmt = file_format(name)
            if fmt is None or not _inside(root, path):
                continue
            parts = parts or fmt == "parquet"
            out.append(path.relative_to(root).as_posix())
        if parts and here != root:
            out.append(here.relative_to(root).as_posix() + "/")
        if len(out) >= limit:
            break
    return sorted(out)[:limit]


def resolve_inside(root: Path, relative: str) -> Path:
    """``root / relative`` resolved, or an AssessError when ``relative`` is absolute, climbs out with ``..``, or
    resolves (through symbolic links) to somewhere outside ``root`` or to nothing."""
    text = str(relative).strip()
    if not text:
        raise AssessError("choose a file of the data directory")
    pure = PurePosixPath(text.replace("\\", "/"))
    if pure.is_absolute() or Path(text).is_absolute() or (len(text) > 1 and text[1] == ":"):
        raise AssessError(f"{text}: give a path inside the data directory, not an absolute path")
    if ".." in pure.parts:
        raise AssessError(f"{text}: `..` is not allowed; choose a file inside the data directory")
    root = root.resolve()
    try:
        target = (root / Path(*pure.parts)).resolve(strict=True)
    except (FileNotFoundError, RuntimeError, OSError):
        raise AssessError(f"{text}: no such file in the data directory") from None
    if not target.is_relative_to(root):
        raise AssessError(f"{text}: leads outside the data directory (a symbolic link?); only files inside it open")
    if not (target.is_dir() or file_format(target.name)):
        raise AssessError(f"{text}: the data directory opens Parquet and CSV files (and directories of Parquet "
                          "parts)")
    return target


def _inside(root: Path, path: Path) -> bool:
    try:
        return path.resolve(strict=True).is_relative_to(root.resolve())
    except (OSError, RuntimeError):
        return False
