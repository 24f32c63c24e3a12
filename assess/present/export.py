"""Files users download: charts as PDF/PNG/SVG (through kaleido and a headless Chromium), tables as CSV/JSON.

Charts
------
kaleido >= 1 renders a figure with plotly.js inside a Chromium driven by choreographer over a pipe. This module keeps
**one export browser per process**, started on first use (or by `start_export_browser`) and reused by every export,
so only the first export pays the ~2 s browser start. The browser runs in a private daemon thread with its own
asyncio loop; callers hand it coroutines with `asyncio.run_coroutine_threadsafe` and wait with a timeout.
Every call into it holds `_LOCK`, a module-level `threading.Lock`: kaleido's own sync server
(`kaleido.start_sync_server`) hands results back through one shared queue, so two threads exporting at once can
receive each other's figures, and when its browser fails to start every later call blocks forever. Owning the loop
avoids both, and the lock keeps one render at a time (Streamlit runs each session in its own thread).

Which browser: ``$BROWSER_PATH`` if set (choreographer's own variable), else Debian's ``/usr/bin/chromium``, else
whatever choreographer finds on ``PATH``. How it starts: headless, ``--no-sandbox`` (Chromium refuses to run as root
with its sandbox), no GPU, no extensions (choreographer's options ``headless``, ``enable_sandbox``, ``enable_gpu``,
``enable_extensions``) plus, through a `Chromium` subclass, ``--disable-background-networking`` and friends: the
browser must not phone home (the network may be closed; refused connections only cost time). MathJax is off (it
would come from a CDN); plotly.js comes from the installed plotly package.

Every figure is exported with the "assess" template pinned (see `assess.present.charts.style`): ``import streamlit`` makes
its own template the default, whose placeholder colours only Streamlit's browser code resolves (PDFs come out
near-black), so export never relies on the default template.

Tables
------
`to_csv_bytes` neutralises formula injection (OWASP "CSV Injection"): a text cell starting with ``=``, ``+``, ``-``,
``@``, tab or carriage return gets a leading single quote, so a spreadsheet shows it as text instead of running it.
Numbers are never touched: neither number values (``-3.2``) nor strings that are a plain number (a class ``"-1"``),
which a spreadsheet reads as that number and which cannot hold a formula. `to_json_bytes` writes every string as it
is: JSON is read by programs, not spreadsheets, and a quote added there would change the data (a class ``"-1"`` would
arrive as ``"'-1"``).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import csv
import dataclasses
import datetime as _dt
import enum
import io
import json
import math
import os
import re
import signal
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import kaleido
import numpy as np
import pandas as pd
import plotly.graph_objects as go
from choreographer.browsers import Chromium
from choreographer.errors import (BrowserClosedError, BrowserFailedError, ChannelClosedError,
                                  ChromeNotFoundError)
from kaleido.errors import JavascriptError, KaleidoError
from pypdf import PdfReader, PdfWriter

from assess.present.charts.style import EXPORT_WIDTH, HEIGHT, TEMPLATE

__all__ = [
    "ExportError", "figure_to_pdf", "figure_to_png", "figure_to_svg", "figures_to_pdf", "start_export_browser",
    "stop_export_browser", "to_csv_bytes", "to_json_bytes", "neutralise_cell",
]

DEBIAN_CHROMIUM = "/usr/bin/chromium"
#: Added to choreographer's own flags (which already include --headless, --no-sandbox, --disable-gpu,
#: --disable-extensions, --disable-component-update, --disable-sync, --no-first-run).
EXTRA_CHROMIUM_FLAGS: tuple[str, ...] = (
    "--disable-background-networking",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--disable-default-apps",
)
START_TIMEOUT_S = 60.0
RENDER_TIMEOUT_S = 60.0

_LOCK = threading.Lock()
# The export browser: guarded by _LOCK; (pid, loop, thread, Kaleido) or None when not running.
_server: tuple[int, asyncio.AbstractEventLoop, threading.Thread, kaleido.Kaleido] | None = None
# Failures of the browser itself (not of the figure): worth one restart.
_BROWSER_FAILURES = (BrowserClosedError, BrowserFailedError, ChannelClosedError, TimeoutError)


class ExportError(RuntimeError):
    """A chart could not be rendered to a file: the browser is missing or failed, or plotly.js rejected the figure."""


class _QuietChromium(Chromium):
    """choreographer's Chromium with background networking off (choreographer has no option for it)."""

    def get_cli(self):
        return [*super().get_cli(), *EXTRA_CHROMIUM_FLAGS]


def browser_path() -> str | None:
    """The Chromium the export browser runs: ``$BROWSER_PATH``, else Debian's, else None (choreographer searches)."""
    if path := os.environ.get("BROWSER_PATH"):
        return path
    return DEBIAN_CHROMIUM if Path(DEBIAN_CHROMIUM).is_file() else None


async def _open_kaleido() -> kaleido.Kaleido:
    k = kaleido.Kaleido(
        n=1, timeout=RENDER_TIMEOUT_S, mathjax=False,
        path=browser_path(), browser_cls=_QuietChromium,
        headless=True, enable_sandbox=False, enable_gpu=False, enable_extensions=False,
    )
    await k.open()
    return k


def _stop_locked() -> None:
    global _server
    if _server is None:
        return
    pid, loop, thread, k = _server
    _server = None
    if pid == os.getpid() and thread.is_alive():
        try:
            asyncio.run_coroutine_threadsafe(k.close(), loop).result(timeout=10)
        except (*_BROWSER_FAILURES, RuntimeError, OSError):
            pass  # the browser is gone or hung; a hung one is killed below
        process = getattr(k, "subprocess", None)  # the browser's own process group (started in a new session)
        if process is not None and process.poll() is None and hasattr(os, "killpg"):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=5)


def _start_locked() -> tuple[asyncio.AbstractEventLoop, kaleido.Kaleido]:
    global _server
    if _server is not None and _server[0] == os.getpid() and _server[2].is_alive():
        return _server[1], _server[3]
    _server = None  # a server inherited through fork() belongs to the parent: start our own
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="assess-export-browser", daemon=True)
    thread.start()
    try:
        k = asyncio.run_coroutine_threadsafe(_open_kaleido(), loop).result(timeout=START_TIMEOUT_S)
    except (ChromeNotFoundError, *_BROWSER_FAILURES, OSError) as e:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=5)
        raise ExportError(
            f"could not start the export browser (Chromium at {browser_path() or 'PATH'}): {e}; "
            "install Debian's `chromium` package or set BROWSER_PATH to a Chromium/Chrome executable"
        ) from e
    _server = (os.getpid(), loop, thread, k)
    return loop, k


def start_export_browser() -> None:
    """Start the export browser now (an app may call this at start-up so the first download is fast)."""
    with _LOCK:
        _start_locked()


def stop_export_browser() -> None:
    """Close the export browser; the next export starts a new one. Also runs at interpreter exit."""
    with _LOCK:
        _stop_locked()


atexit.register(stop_export_browser)


def _pinned(fig: go.Figure) -> go.Figure:
    if not isinstance(fig, go.Figure):
        raise TypeError(f"expected a plotly.graph_objects.Figure, got {type(fig).__name__}")
    pinned = go.Figure(fig)
    pinned.update_layout(template=TEMPLATE)
    return pinned


def _render(fig: go.Figure, fmt: str, *, scale: float = 1.0) -> bytes:
    pinned = _pinned(fig)
    opts = {"format": fmt, "scale": scale,
            "width": pinned.layout.width or EXPORT_WIDTH, "height": pinned.layout.height or HEIGHT}
    with _LOCK:
        try:
            return _render_locked(pinned, opts)
        except _BROWSER_FAILURES:
            _stop_locked()  # the browser died or hung: one fresh browser, one more try
        try:
            return _render_locked(pinned, opts)
        except _BROWSER_FAILURES as e:
            _stop_locked()
            raise ExportError(f"the export browser failed twice while rendering a {fmt}: {e!r}") from e


def _render_locked(fig: go.Figure, opts: dict[str, Any]) -> bytes:
    loop, k = _start_locked()
    future = asyncio.run_coroutine_threadsafe(k.calc_fig(fig, opts=opts), loop)
    try:
        return future.result(timeout=RENDER_TIMEOUT_S + 5)
    except (KaleidoError, JavascriptError) as e:
        raise ExportError(f"plotly.js could not render the figure as {opts['format']}: {e}") from e
    finally:
        future.cancel()  # no-op when done; stops a hung render from holding the tab


def figure_to_pdf(fig: go.Figure) -> bytes:
    """One-page vector PDF of ``fig`` (page size = figure size), text embedded in Liberation Sans."""
    return _render(fig, "pdf")


def figure_to_png(fig: go.Figure, *, scale: float = 2) -> bytes:
    """PNG of ``fig``; ``scale=2`` doubles the pixel density for slides."""
    if not scale > 0:
        raise ValueError(f"'scale' must be > 0 (got {scale})")
    return _render(fig, "png", scale=scale)


def figure_to_svg(fig: go.Figure) -> bytes:
    """SVG of ``fig`` (UTF-8 bytes)."""
    return _render(fig, "svg")


def figures_to_pdf(figs: Iterable[go.Figure]) -> bytes:
    """One multi-page PDF, a page per figure in order, each page the size of its figure."""
    writer = PdfWriter()
    count = 0
    for fig in figs:
        writer.append(PdfReader(io.BytesIO(figure_to_pdf(fig))))
        count += 1
    if count == 0:
        raise ValueError("figures_to_pdf needs at least one figure (got none)")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


# ---------------------------------------------------------------------------------------------------- tables --

_FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
#: A plain decimal number, as a spreadsheet reads it: a sign, digits, a point, an exponent; nothing to run.
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def neutralise_cell(value: Any) -> Any:
    """Prefix a formula-looking text with ``'`` so spreadsheets show it as text; other values pass unchanged.

    A string that is a plain number (``"-1"``, ``"+0.5"``, ``"-2e-3"``) is a number to a spreadsheet, not a formula,
    and stays as it is.

    >>> neutralise_cell("=HYPERLINK(\\"http://x\\")"), neutralise_cell("-1+1"), neutralise_cell("-1")
    ('\\'=HYPERLINK("http://x")', "'-1+1", '-1')
    """
    if isinstance(value, str) and value.startswith(_FORMULA_PREFIXES) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def _neutralise_label(label: Any) -> Any:
    if isinstance(label, tuple):
        return tuple(neutralise_cell(part) for part in label)
    return neutralise_cell(label)


def _neutralised_frame(df: pd.DataFrame, *, index: bool) -> pd.DataFrame:
    out = df.copy()
    for i in range(out.shape[1]):
        column = out.iloc[:, i]
        if not (pd.api.types.is_numeric_dtype(column.dtype) or pd.api.types.is_bool_dtype(column.dtype)
                or pd.api.types.is_datetime64_any_dtype(column.dtype)):
            out.isetitem(i, column.astype(object).map(neutralise_cell))
    out.columns = out.columns.map(_neutralise_label)
    out.columns.names = [neutralise_cell(n) for n in out.columns.names]
    if index:
        out.index = out.index.map(_neutralise_label)
        out.index.names = [neutralise_cell(n) for n in out.index.names]
    return out


def to_csv_bytes(df: pd.DataFrame, *, index: bool = False) -> bytes:
    """UTF-8 CSV of ``df`` with formula injection neutralised in cells, column names and (if written) the index.

    >>> to_csv_bytes(pd.DataFrame({"model": ["=1+1", "B"], "delta": [-0.5, 0.25]})).decode()
    "model,delta\\n'=1+1,-0.5\\nB,0.25\\n"
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"to_csv_bytes expects a pandas DataFrame, got {type(df).__name__}")
    out = _neutralised_frame(df, index=index)
    # The csv writer quotes a field only for the delimiter, the quote and the line terminator ("\n" here), so a bare
    # carriage return in a text cell would end the row for every reader and spreadsheet: quote all text then.
    quoting = csv.QUOTE_NONNUMERIC if _holds_carriage_return(out, index=index) else csv.QUOTE_MINIMAL
    return out.to_csv(index=index, lineterminator="\n", quoting=quoting).encode("utf-8")


def _holds_carriage_return(df: pd.DataFrame, *, index: bool) -> bool:
    texts = [*map(str, df.columns.to_flat_index()), *(map(str, df.index.to_flat_index()) if index else ())]
    for i in range(df.shape[1]):
        column = df.iloc[:, i]
        if column.dtype == object or isinstance(column.dtype, (pd.CategoricalDtype, pd.StringDtype)):
            texts.extend(v for v in column if isinstance(v, str))
    return any("\r" in text for text in texts)


def _jsonable(obj: Any) -> Any:  # noqa: C901, PLR0911 - one branch per type, flat on purpose
    if obj is None or isinstance(obj, (bool, np.bool_)):
        return None if obj is None else bool(obj)
    if isinstance(obj, enum.Enum):
        return _jsonable(obj.value)
    if isinstance(obj, str):
        return obj
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return float(obj) if math.isfinite(obj) else None  # JSON has no NaN/inf: undefined values become null
    if isinstance(obj, pd.DataFrame):
        frame = obj if isinstance(obj.index, pd.RangeIndex) else obj.reset_index()
        if not frame.columns.is_unique:
            raise ValueError(f"to_json_bytes needs unique column names (got {list(frame.columns)})")
        return [{_key(k): _jsonable(v) for k, v in zip(frame.columns, row)}
                for row in frame.itertuples(index=False, name=None)]
    if isinstance(obj, pd.Series):
        return {_key(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, np.ndarray):
        return _jsonable(obj.tolist())
    if isinstance(obj, Mapping):
        return {_key(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: _jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if obj is pd.NaT or obj is pd.NA:
        return None
    if isinstance(obj, (_dt.date, _dt.datetime, pd.Timestamp)):
        return obj.isoformat()
    raise TypeError(f"to_json_bytes cannot encode a {type(obj).__name__} ({obj!r:.60})")


def _key(key: Any) -> str:
    if isinstance(key, tuple):
        key = " / ".join(str(part) for part in key)
    return key if isinstance(key, str) else str(_jsonable(key))


def to_json_bytes(obj: Any) -> bytes:
    """UTF-8 JSON of ``obj``: strings exactly as given, numbers as numbers (a JSON reader runs no formula).

    Accepts dicts, lists, tuples, DataFrames (a list of row records; a non-default index becomes columns), Series,
    numpy arrays and scalars, dataclasses, enums and dates. NaN and infinities become ``null``.

    >>> to_json_bytes({"model": "@SUM(A1)", "class": "-1", "auc": 0.91, "delta": -0.02}).decode()
    '{"model": "@SUM(A1)", "class": "-1", "auc": 0.91, "delta": -0.02}'
    """
    return json.dumps(_jsonable(obj), ensure_ascii=False, allow_nan=False).encode("utf-8")
