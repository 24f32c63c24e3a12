"""Work shared by every session of the server: one bounded store of computed results, computed once per key.

Results (metric reports, curves, read files) are pure functions of the data and the settings, so they are kept once
for the whole server under a key that starts with the data's SHA-256: a session can only reach an entry by holding
the same bytes, so sharing leaks nothing. Eight sessions opening the same file wait for one computation instead of
running eight. Heavy work is admitted while the server's resident memory is under its budget
(``ASSESS_SERVER_MEMORY_MB``, default 6,144); above it a new job is refused with :class:`ServerBusy`, whose message
the page shows, rather than driving the machine into swap. Results unused for ``ASSESS_RESULTS_IDLE_S`` seconds
(default 600) are dropped and the freed memory handed back to the operating system, so a server returns to its idle
size after its users leave.

Results are also dropped as soon as no live session holds their data: each entry is tagged with the SHA-256 of the
file it was computed from, each session says which file it holds (`SharedResults.hold`, on every new table), and an
entry whose file no live session holds goes at once (a new upload) or at the next tidy-up (a closed tab, once
Streamlit has let its session go — `close_departed_sessions`).
"""

from __future__ import annotations

import ctypes
import gc
import os
import sys
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable

#: Entries kept across all sessions (least recently used evicted first).
SHARED_ENTRIES = 64
#: Light entries kept besides them (`SharedResults.get` with ``light=True``: a figure at one threshold, ~0.3 MB): a
#: threshold moved through many values evicts only its own kind, never a read file or a sort of a million scores.
LIGHT_ENTRIES = 96
DEFAULT_MEMORY_MB = 6144
DEFAULT_IDLE_S = 600.0


#: glibc malloc arenas the server's threads share (mallopt M_ARENA_MAX; default 8 per core). Each Streamlit script
#: thread otherwise gets an arena of its own, and the freed heap of a million-row run stays spread over them: measured
#: with bench/bench_sessions.py (8 sessions on one 1,000,000-row file), memory 60 s after the last tab closed came
#: back to 507 MB with the default and 267 MB with 2 arenas (warm floor 257 MB), at the same speed.
MALLOC_ARENAS = 2
_M_ARENA_MAX = -8   # glibc's <malloc.h>


def limit_malloc_arenas(arenas: int = MALLOC_ARENAS) -> bool:
    """Cap glibc's malloc arenas unless MALLOC_ARENA_MAX is set; True when the cap was set (False elsewhere)."""
    if os.environ.get("MALLOC_ARENA_MAX"):
        return False
    try:
        return bool(ctypes.CDLL("libc.so.6").mallopt(_M_ARENA_MAX, arenas))
    except (OSError, AttributeError):
        return False


#: How many `SharedResults.get` computations this thread is inside (for the log: a nested one's CPU is its caller's).
_computing_depth = threading.local()


class ServerBusy(RuntimeError):
    """The server is over its memory budget: a new heavy job must wait."""


def resident_mb() -> float:
    """This process's resident memory in MB (Linux /proc; 0 where it cannot be read)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return float(default)


def memory_budget_mb() -> float:
    return _env_float("ASSESS_SERVER_MEMORY_MB", DEFAULT_MEMORY_MB)


def idle_seconds() -> float:
    return _env_float("ASSESS_RESULTS_IDLE_S", DEFAULT_IDLE_S)


def release_memory() -> None:
    """Collect garbage, ask Arrow's memory pool (the Parquet reader's and pandas' Arrow-backed columns') and glibc
    to return their free pages to the system (each a no-op where it does not apply)."""
    gc.collect()
    arrow = sys.modules.get("pyarrow")   # only when something imported it: no import for its sake
    if arrow is not None:
        try:
            arrow.default_memory_pool().release_unused()
        except Exception:
            pass
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


class SharedResults:
    """A thread-safe LRU of results where each key is computed once, however many sessions ask at the same time.

    ``get(key, compute)`` returns the stored value, or runs ``compute()`` — while other callers of the same key wait
    for it (a failure is not stored: each waiter then tries itself and gets its own error). ``memory_mb`` and
    ``budget_mb`` say whether a new computation may start. Light entries have their own bound, ``max_light``.
    """

    def __init__(self, max_entries: int = SHARED_ENTRIES, *, memory_mb: Callable[[], float] = resident_mb,
                 budget_mb: Callable[[], float] = memory_budget_mb, clock: Callable[[], float] = time.monotonic,
                 max_light: int = LIGHT_ENTRIES) -> None:
        self.max_entries, self.max_light = max_entries, max_light
        self._light: set[Hashable] = set()          # the entries stored with light=True
        self._memory_mb, self._budget_mb, self._clock = memory_mb, budget_mb, clock
        self._store: OrderedDict[Hashable, object] = OrderedDict()
        self._used: dict[Hashable, float] = {}
        self._tags: dict[Hashable, str] = {}        # entry → the SHA-256 of the file it was computed from
        self._holders: dict[Hashable, str] = {}     # session → the SHA-256 of the file it holds
        self._lock = threading.Lock()
        self._computing: dict[Hashable, threading.Lock] = {}

    def __len__(self) -> int:
        return len(self._store)

    def _drop(self, key: Hashable) -> None:   # with self._lock held
        del self._store[key]
        self._used.pop(key, None)
        self._tags.pop(key, None)
        self._light.discard(key)

    def _evict(self) -> None:   # with self._lock held: the least recently used of each kind beyond its bound
        for light, bound in ((False, self.max_entries), (True, self.max_light)):
            kind = [key for key in self._store if (key in self._light) == light]
            for key in kind[:max(0, len(kind) - bound)]:
                self._drop(key)

    def _stored(self, key: Hashable) -> tuple[bool, object]:
        with self._lock:
            if key in self._store:
                self._store.move_to_end(key)
                self._used[key] = self._clock()
                stored = self._store[key]
            else:
                return False, None
        return True, _thawed(stored)   # outside the lock: rebuilding a figure takes milliseconds

    def get(self, key: Hashable, compute: Callable[[], object], *, tag: str | None = None,
            light: bool = False) -> object:
        """The value stored under ``key``, else ``compute()`` stored; ``tag``: the SHA-256 of the file it derives
        from, so the entry leaves when no session holds that file (untagged entries leave by the idle rule);
        ``light``: a small result of a setting that changes often, bounded apart (`LIGHT_ENTRIES`)."""
        found, value = self._stored(key)
        if found:
            return value
        with self._lock:
            key_lock = self._computing.setdefault(key, threading.Lock())
        with key_lock:
            found, value = self._stored(key)   # computed by the caller we waited for
            if found:
                return value
            used, budget = self._memory_mb(), self._budget_mb()
            if used > budget:
                raise ServerBusy(f"The server is busy: it holds {used:,.0f} MB of {budget:,.0f} MB for other "
                                 "assessments. Try again in a minute.")
            started, cpu_started = time.perf_counter(), time.thread_time()
            _computing_depth.value = getattr(_computing_depth, "value", 0) + 1
            try:
                value = compute()
            finally:
                _computing_depth.value -= 1
            if os.environ.get("ASSESS_SHARED_LOG"):
                # bench/bench_sessions.py counts the computations per kind and sums the CPU of the outermost ones
                # (this thread's CPU: the work done once for every session); a nested one is inside its caller's.
                # One write per line: print() writes the text and its newline apart, and lines of sessions computing
                # at once ran together (eight files counted as seven reads)
                nested = " nested" if _computing_depth.value else ""
                sys.stderr.write(f"assess.shared computed {_kind(key)} in {time.perf_counter() - started:.2f} s, "
                                 f"cpu {time.thread_time() - cpu_started:.3f} s{nested}\n")
                sys.stderr.flush()
            with self._lock:
                self._store[key] = _frozen(value)
                self._used[key] = self._clock()
                if tag is not None:
                    self._tags[key] = tag
                if light:
                    self._light.add(key)
                self._evict()
                self._computing.pop(key, None)
        return value

    def evict_idle(self, idle_s: float) -> int:
        """Drop the results nobody used for ``idle_s`` seconds; returns how many."""
        cutoff = self._clock() - idle_s
        with self._lock:
            stale = [key for key in self._store if self._used.get(key, cutoff) <= cutoff]
            for key in stale:
                self._drop(key)
        return len(stale)

    def hold(self, session: Hashable, sha256: str | None) -> int:
        """``session`` now holds the file ``sha256`` (None: no file) instead of its previous one: the results of a
        file no session holds any more are dropped at once. Returns how many."""
        with self._lock:
            if sha256 is None:
                self._holders.pop(session, None)
            else:
                self._holders[session] = sha256
            return self._drop_unheld()

    def keep_sessions(self, live: set) -> int:
        """Forget the sessions not in ``live`` (closed tabs) and drop the results of files only they held."""
        with self._lock:
            for session in [s for s in self._holders if s not in live]:
                del self._holders[session]
            return self._drop_unheld()

    def _drop_unheld(self) -> int:   # with self._lock held
        held = set(self._holders.values())
        unheld = [key for key, tag in self._tags.items() if tag not in held]
        for key in unheld:
            self._drop(key)
        return len(unheld)


class _FigureData:
    """A Plotly figure as stored: its plain dict (``Figure.to_dict()``, a deep copy, template included)."""

    __slots__ = ("data",)

    def __init__(self, data: dict) -> None:
        self.data = data


def _frozen(value):
    """What the store keeps of a result: a Plotly figure as its dict, since a figure object shared by sessions'
    threads races (two threads copying one figure at once, measured under load: "Invalid property specified for
    object of type Scatter: 'width'"); anything else as it is. Only a result that *is* a figure is converted: a
    figure inside a tuple or dict is refused, as it would be shared."""
    go = sys.modules.get("plotly.graph_objects")   # no figure can exist before plotly is imported
    if go is None:
        return value
    if isinstance(value, go.Figure):
        return _FigureData(value.to_dict())
    if isinstance(value, (tuple, list, dict)) and any(isinstance(v, go.Figure) for v in (
            value.values() if isinstance(value, dict) else value)):
        raise TypeError("a shared result holds a Plotly figure inside a container: return the figure itself "
                        "(stored as its dict) or the figure's to_dict(), never a figure object sessions would share")
    return value


def _thawed(stored):
    """A stored result for one caller: a figure rebuilt from its dict (each caller its own object)."""
    if isinstance(stored, _FigureData):
        import plotly.graph_objects as go
        return go.Figure(stored.data)
    return stored


def _kind(key: Hashable) -> str:
    """What a key computes, for the log: ``"read"``/``"describe"``, or the function `ui.state.cached` calls."""
    if isinstance(key, tuple) and key:
        return str(key[1] if isinstance(key[0], tuple) and len(key) > 1 else key[0])
    return str(key)


#: Seconds between two tidy-up rounds (dropping idle results, closing departed sessions, returning memory).
TIDY_EVERY_S = 5.0
#: Rounds between two unconditional returns of free memory (a full collection costs a little on a big heap).
RELEASE_EVERY_ROUNDS = 12
#: Rounds between two full garbage collections. Streamlit's own collection after every script run
#: (``runner.postScriptGC``) is off in .streamlit/config.toml: a full collection of the server's heap (1.9 million
#: objects once Plotly, pandas and SciPy are loaded) takes about 0.14 s, and every session ran one per rerun — the
#: largest part of a session's own server CPU in bench/bench_sessions.py's profile. One every 30 s for the whole
#: server frees the same cyclic garbage (Python's own collector runs in between) at a fixed cost — which is not
#: small: with the GIL-only profile (3 sessions on a 200,000-row file) a collection every 10 s took 8 of the
#: server's 28 s of CPU, hence 30 s (the unconditional release every `RELEASE_EVERY_ROUNDS` collects too).
COLLECT_EVERY_ROUNDS = 6


def _runtime():
    """Streamlit's runtime when a server runs in this process, else None (unit tests, the command line)."""
    from streamlit.runtime import Runtime

    return Runtime.instance() if Runtime.exists() else None


def live_sessions() -> dict[str, bool] | None:
    """Every session Streamlit keeps, by id: True when its tab is connected, False when it disconnected and may still
    come back (within ``server.disconnectedSessionTTL``). None when the sessions cannot be listed — no server in this
    process, or a Streamlit whose session manager changed — so callers fall back to the idle rule."""
    try:
        runtime = _runtime()
        if runtime is None:
            return None
        return {info.session.id: info.client is not None for info in runtime._session_mgr.list_sessions()}
    except Exception:   # a private API: any change in it must only switch this tidy-up off
        return None


def session_ttl_s() -> float:
    """Streamlit's ``server.disconnectedSessionTTL`` (seconds a closed tab's session may still come back)."""
    try:
        from streamlit import config

        return float(config.get_option("server.disconnectedSessionTTL"))
    except Exception:
        return 120.0


def close_departed_sessions(away_since: dict, sessions: dict[str, bool] | None, *, after_s: float,
                            clock: Callable[[], float] = time.monotonic, closing: dict | None = None) -> int:
    """Shut down the sessions whose tab has been gone for ``after_s`` seconds; returns how many were asked to close.

    Streamlit keeps a disconnected session for its TTL and then only hides it: the session, its state (a table and
    an assessment of a million rows) and its uploaded file stay in memory until some other session disconnects, and
    its uploaded file until the server stops. Closing it through the runtime just before the TTL frees all three.
    ``away_since`` (session id → when it was first seen disconnected) persists between calls; the close runs on the
    server's event loop (Streamlit's rule) and only if the session has not come back meanwhile. ``closing`` (session
    id → a weak reference to the closed session) collects them for `forget_closed_sessions`: a page still running
    when its tab closed goes on until its next Streamlit call and fills the emptied state again.
    """
    if sessions is None:
        return 0
    now = clock()
    for sid in [sid for sid in away_since if sessions.get(sid, True)]:
        del away_since[sid]    # reconnected, or already gone
    for sid, connected in sessions.items():
        if not connected:
            away_since.setdefault(sid, now)
    due = [sid for sid, since in away_since.items() if now - since >= after_s]
    if not due:
        return 0
    try:
        runtime = _runtime()
        loop = runtime._get_async_objs().eventloop
        manager = runtime._session_mgr

        def close_if_still_away(sid: str) -> None:
            if manager.get_active_session_info(sid) is None:
                info = manager.get_session_info(sid)
                if info is not None:
                    forget_state(info.session)
                    if closing is not None:
                        closing[sid] = weakref.ref(info.session)
                runtime.close_session(sid)

        for sid in due:
            loop.call_soon_threadsafe(close_if_still_away, sid)
            del away_since[sid]
    except Exception:   # a private API: without it, Streamlit's own TTL remains
        return 0
    return len(due)


def forget_closed_sessions(closing: dict) -> int:
    """Empty the state of the sessions `close_departed_sessions` closed once more, and let go of those whose script
    has stopped (its last run may have drawn widgets and fragments after the first emptying — measured: a Curves
    page still running at the close kept its page's assessment in a fragment and the Metrics page's in a widget
    callback). Runs on the server's event loop, as the close did; returns how many are still stopping."""
    def forget_all() -> None:
        for sid, ref in list(closing.items()):
            session = ref()
            if session is not None:
                forget_state(session)
            if session is None or getattr(session, "_scriptrunner", None) is None:
                del closing[sid]   # its script has stopped: nothing fills the state again

    if closing:
        try:
            _runtime()._get_async_objs().eventloop.call_soon_threadsafe(forget_all)
        except Exception:   # a private API: without it the first emptying stands
            closing.clear()
    return len(closing)


def forget_state(session) -> None:
    """Empty a departing session's state (its table, assessment and the uploaded file's bytes) and its stored
    fragments (a fragment keeps its page's globals: the Curves page's curves of every model). Streamlit 1.67 keeps a
    closed session object reachable from its finished websocket coroutine, and shutting it down clears neither:
    measured, each closed tab's 32 MB upload and the arrays of its last Curves page stayed in memory."""
    session.session_state.clear()
    forget_widget_callbacks(session.session_state, keep=())
    fragments = getattr(session, "_fragment_storage", None)   # private: without it only the state is emptied
    if fragments is not None:
        fragments.clear()


def forget_widget_callbacks(state, keep=None) -> int:
    """Drop the widget records (callbacks, their arguments) of ``state`` (Streamlit's SessionState) for widgets
    not in ``keep`` (default: the widgets that still have a value); returns how many.

    Streamlit keeps a record of every widget a session ever drew, callback included, and removes only the widget's
    value when it goes stale (1.67, ``WStates.remove_stale_widgets``). A callback defined in a page script holds that
    run's page globals — measured with gc.get_referrers after a closed tab: the Data and Metrics pages' callbacks kept
    their run's assessment, its encoded arrays and table alive (the 30 MB of id strings of a 200,000-row upload),
    and in a live session every earlier upload's. A widget without a value is not on the page, so its record is
    never read again (Streamlit registers it anew when the widget is drawn again)."""
    widgets = getattr(state, "_new_widget_state", None)       # private: without it nothing is dropped
    records = getattr(widgets, "widget_metadata", None)
    if not isinstance(records, dict):
        return 0
    if keep is None:
        keep = set(widgets.states) | set(getattr(state, "_old_state", {}))
    stale = [wid for wid in list(records) if wid not in keep]
    for wid in stale:
        records.pop(wid, None)
    return len(stale)


def tidy(store: SharedResults, away_since: dict, closing: dict | None = None) -> int:
    """One tidy-up round: drop results idle too long, close sessions gone for nearly their TTL (and empty the state
    of those closed earlier whose script was still running), drop the results of files no live session holds.
    Returns how many entries and sessions were let go."""
    freed = store.evict_idle(idle_seconds())
    sessions = live_sessions()
    if closing:
        freed += forget_closed_sessions(closing)
    freed += close_departed_sessions(away_since, sessions, after_s=max(0.0, session_ttl_s() - 3 * TIDY_EVERY_S),
                                     closing=closing)
    if sessions is not None:
        freed += store.keep_sessions(set(sessions))
    return freed


def keep_tidy(store: SharedResults, *, every_s: float = TIDY_EVERY_S) -> threading.Thread:
    """A daemon thread that every ``every_s`` seconds runs `tidy` and hands free memory back to the system when
    something was let go (in that round or the one before, as sessions close on the event loop in between), and
    every `RELEASE_EVERY_ROUNDS` rounds anyway; in between, a full garbage collection every `COLLECT_EVERY_ROUNDS`
    rounds (instead of Streamlit's after every script run)."""
    def loop() -> None:
        away_since: dict = {}
        closing: dict = {}
        pending, rounds = False, 0
        while True:
            time.sleep(every_s)
            rounds += 1
            try:
                freed = tidy(store, away_since, closing)
                if freed or pending or rounds % RELEASE_EVERY_ROUNDS == 0:
                    release_memory()
                elif rounds % COLLECT_EVERY_ROUNDS == 0:
                    gc.collect()
                pending = bool(freed)
            except Exception:   # the tidy-up must never stop; a failed round is retried by the next
                pass

    limit_malloc_arenas()   # once per server, before the sessions' script threads allocate much
    thread = threading.Thread(target=loop, name="assess-shared-results", daemon=True)
    thread.start()
    return thread
