"""The app's data directory: a deployment setting that lets the Data page open large files out of core.

Off by default. With ``ASSESS_DATA_DIR=/srv/predictions`` the Data page lists the Parquet and CSV files under that
ONE directory (and its sub-directories of Parquet parts, each read as one source) and assesses the chosen one with
the out-of-core engine (`assess.engine.reports.engine_reports`, DuckDB) — never an arbitrary path: the choice is a
path *relative to the directory*, resolved (symlinks followed) and refused unless the result is still inside it,
so ``../``, absolute paths and symbolic links pointing out of the directory never open anything. A directory's
parts are each resolved and checked the same way (`open_source`): a part, or a sub-directory, that is a link out of
the directory, a link that leads nowhere (broken, or a loop), or a pipe or device, refuses the whole source with its
name; links to sub-directories are not followed (as on the command line), so a loop cannot run away. The engine is
handed the resolved files themselves, never a pattern to expand. The check is made again when a file is opened, not
only when the list is drawn (the directory may change in between). Messages name paths relative to the directory,
never the server's absolute path.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from assess.core.errors import AssessError
from assess.engine.source import Source, file_format, make_source

ENV = "ASSESS_DATA_DIR"
#: Most entries the Data page lists (a directory with more is cut, with a note).
MAX_ENTRIES = 500


def data_directory() -> Path | None:
    """The configured directory (resolved), or None when the setting is off; a setting naming no directory is an
    error, said once on the page rather than silently ignored — without the value, a path on the server."""
    value = os.environ.get(ENV, "").strip()
    if not value:
        return None
    root = Path(value).expanduser()
    if not root.is_dir():
        raise AssessError(f"{ENV} is set to a path that is not a directory (the server's paths are not shown here); "
                          "set it to the directory holding the prediction files")
    return root.resolve()


def list_sources(root: Path, *, limit: int = MAX_ENTRIES) -> list[str]:
    """The sources under ``root`` as relative POSIX paths, sorted: every Parquet/CSV file, and every directory that
    holds Parquet parts directly (``name/`` — read as one source). Symbolic links out of ``root`` and anything but
    regular files (a FIFO would block the reader) are not listed; at most ``limit`` entries."""
    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        dirnames.sort()
        parts = False
        for name in sorted(filenames):
            path = here / name
            fmt = file_format(name)
            if fmt is None or _odd(name) or not _inside(root, path):
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
    if _odd(text):
        raise AssessError(f"{text!r}: the name holds a control character (a NUL byte or a line break); choose a file "
                          "of the data directory by its name")
    # the list names paths with "/"; a backslash is a separator only where the OS says so (on POSIX a file may be
    # named a\b.parquet, listed and opened as named, and "..\x" is one literal name inside the directory)
    pure = PurePosixPath(text if os.sep == "/" else text.replace(os.sep, "/"))
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
    if not (target.is_dir() or target.is_file()):
        raise AssessError(f"{text}: not a regular file (a pipe or a device); the data directory opens files")
    if not (target.is_dir() or file_format(target.name)):
        raise AssessError(f"{text}: the data directory opens Parquet and CSV files (and directories of Parquet "
                          "parts)")
    return target


def open_source(root: Path, relative: str) -> Source:
    """The `Source` of ``relative`` (checked by `resolve_inside`): the file, or every Parquet/CSV part under the
    directory, each resolved and checked to be inside ``root`` (module docstring); named relative to ``root``."""
    root = root.resolve()
    target = resolve_inside(root, relative)
    name = str(relative).strip()
    if not target.is_dir():
        return make_source(name, [str(target)], root=str(root))
    files = []
    for dirpath, dirnames, filenames in os.walk(target, followlinks=False):
        here = Path(dirpath)
        links = [d for d in dirnames if (here / d).is_symlink()]     # not followed; checked for where they lead
        for entry in sorted(links) + sorted(f for f in filenames if file_format(f)):
            path = _resolved_inside(root, here / entry)
            if entry not in links:
                files.append(str(path))
    if not files:
        raise AssessError(f"{name}: the directory holds no Parquet or CSV file")
    return make_source(name, sorted(files), root=str(root))


def _resolved_inside(root: Path, path: Path) -> Path:
    """``path`` (under ``root``) resolved, or an AssessError naming it relative to ``root`` when it leads nowhere or
    outside ``root``."""
    shown = path.relative_to(root).as_posix()
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):
        raise AssessError(f"{shown}: a symbolic link that leads nowhere (broken, or a loop); remove it, or the "
                          "directory cannot be read") from None
    if not target.is_relative_to(root):
        raise AssessError(f"{shown}: a symbolic link leading outside the data directory; only files inside it open, "
                          "so the directory is not read")
    if not (target.is_file() or target.is_dir()):
        raise AssessError(f"{shown}: not a regular file (a pipe or a device), so the directory is not read")
    return target


def _odd(name: str) -> bool:
    """A control character in a name (NUL, which no file name holds, or a line break): not listed, never opened."""
    return any(ord(ch) < 32 or ord(ch) == 127 for ch in name)


def _inside(root: Path, path: Path) -> bool:
    """``path`` resolves to a regular file inside ``root``."""
    try:
        target = path.resolve(strict=True)
        return target.is_relative_to(root.resolve()) and target.is_file()
    except (OSError, RuntimeError):
        return False
