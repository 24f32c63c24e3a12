"""Work shared by every session of the server: one bounded store of computed results, computed once per key.

Results (metric reports, curves, read files) are pure functions of the data and the settings, so they are kept once
for the whole server under a key that starts with the data's SHA-256: a session can only reach an entry by holding
the same bytes, so sharing leaks nothing. Eight sessions opening the same file wait for one computation instead of
running eight. Heavy work is admitted while the server's resident memory is under its budget
(``ASSESS_SERVER_MEMORY_MB``, default 6,144); above it a new job is refused with :class:`ServerBusy`, whose message
the page shows, rather than driving the machine into swap. Results unused for ``ASSESS_RESULTS_IDLE_S`` seconds
(default 600) are dropped and the freed memory handed back to the operating system, so a server returns to its idle
size after its users leave.
"""

from __future__ import annotations

import ctypes
import gc
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable

#: Entries kept across all sessions (least recently used evicted first).
SHARED_ENTRIES = 64
DEFAULT_MEMORY_MB = 6144
DEFAULT_IDLE_S = 600.0


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
    """Collect garbage and ask glibc to return free heap pages to the system (a no-op elsewhere)."""
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


class SharedResults:
    """A thread-safe LRU of results where each key is computed once, however many sessions ask at the same time.

    ``get(key, compute)`` returns the stored value, or runs ``compute()`` — while other callers of the same key wait
    for it (a failure is not stored: each waiter then tries itself and gets its own error). ``memory_mb`` and
    ``budget_mb`` say whether a new computation may start.
    """

    def __init__(self, max_entries: int = SHARED_ENTRIES, *, memory_mb: Callable[[], float] = resident_mb,
                 budget_mb: Callable[[], float] = memory_budget_mb, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.max_entries = max_entries
        self._memory_mb, self._budget_mb, self._clock = memory_mb, budget_mb, clock
        self._store: OrderedDict[Hashable, object] = OrderedDict()
        self._used: dict[Hashable, float] = {}
        self._lock = threading.Lock()
        self._computing: dict[Hashable, threading.Lock] = {}

    def __len__(self) -> int:
        return len(self._store)

    def _stored(self, key: Hashable) -> tuple[bool, object]:
        with self._lock:
            if key in self._store:
                self._store.move_to_end(key)
                self._used[key] = self._clock()
                return True, self._store[key]
            return False, None

    def get(self, key: Hashable, compute: Callable[[], object]) -> object:
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
            value = compute()
            with self._lock:
                self._store[key] = value
                self._used[key] = self._clock()
                while len(self._store) > self.max_entries:
                    self._used.pop(self._store.popitem(last=False)[0], None)
                self._computing.pop(key, None)
        return value

    def evict_idle(self, idle_s: float) -> int:
        """Drop the results nobody used for ``idle_s`` seconds; returns how many."""
        cutoff = self._clock() - idle_s
        with self._lock:
            stale = [key for key in self._store if self._used.get(key, cutoff) <= cutoff]
            for key in stale:
                del self._store[key]
                self._used.pop(key, None)
        return len(stale)


def keep_tidy(store: SharedResults, *, every_s: float = 30.0) -> threading.Thread:
    """A daemon thread that every ``every_s`` seconds drops idle results and hands free memory back."""
    def loop() -> None:
        while True:
            time.sleep(every_s)
            store.evict_idle(idle_seconds())
            release_memory()    # also what closed sessions left behind once Streamlit dropped their state

    thread = threading.Thread(target=loop, name="assess-shared-results", daemon=True)
    thread.start()
    return thread
