"""Progress of long computations on stderr, so a minute of bootstrap on a million rows is not a silent minute.

stdout holds the result (JSON, CSV or a table) and stays clean. Intervals that take less than
`SHOW_AFTER_SECONDS` show no progress (a 600-row file's printed ten lines); longer work, on a terminal, rewrites its line in place, and in a pipe or a log writes one line per tenth. Steps that cannot count their work (one library call, a metric
over 1,500 classes) are covered by the `Heartbeat`: whenever a command has written no progress for `QUIET_SECONDS`,
it says what it is doing and for how long.
"""

from __future__ import annotations

import sys
import threading
import time

#: Seconds a command may work without a progress line before the heartbeat writes one.
QUIET_SECONDS = 30.0

_state = {"said": time.monotonic(), "beat": None}   # when a progress line was last written; the running heartbeat


def _said() -> None:
    _state["said"] = time.monotonic()


def say(line: str, stream=None) -> None:
    """One progress line on stderr (``stream``), which counts as news for the heartbeat."""
    stream = stream or sys.stderr
    stream.write(line + "\n")
    stream.flush()
    _said()


def doing(stage: str) -> None:
    """Name the step now running, for the heartbeat's line (nothing when no heartbeat runs)."""
    if _state["beat"] is not None:
        _state["beat"].stage = stage


class Heartbeat:
    """While a command works: ``FILE: still working: STAGE (1 min 30 s)`` on stderr each time no progress line has
    been written for `QUIET_SECONDS`, from a thread, so no step, however it is computed, runs a minute unannounced."""

    def __init__(self, what: str, stream=None):
        self.what, self.stream, self.stage = what, stream, "starting"
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name="assess-heartbeat", daemon=True)

    def __enter__(self) -> Heartbeat:
        self.started = time.monotonic()
        _said()
        _state["beat"] = self
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        _state["beat"] = None

    def _beat(self) -> None:
        while not self._stop.wait(QUIET_SECONDS / 4):
            if time.monotonic() - _state["said"] >= QUIET_SECONDS:
                elapsed = _duration(time.monotonic() - self.started)
                say(f"{self.what}: still working: {self.stage} ({elapsed})", self.stream)


def _duration(seconds: float) -> str:
    minutes, seconds = divmod(round(seconds), 60)
    return f"{minutes} min {seconds} s" if minutes else f"{seconds} s"


#: Seconds of work before the progress of a computation is shown: a 600-row file's intervals take a fraction of a
#: second and print no progress; a bootstrap of a million rows shows its tenths after this.
SHOW_AFTER_SECONDS = 2.0


class StderrProgress:
    """``progress(fraction)`` callback: ``what: 40 % (12 s)`` each time another tenth is done, then ``done`` — from
    the first tenth reached after ``after`` seconds (`SHOW_AFTER_SECONDS` for work whose length is not known
    beforehand, the intervals of ``metrics``; 0 for work already known to be long), so short work that ends before
    then writes no line at all."""

    def __init__(self, what: str, stream=None, *, after: float = 0.0):
        self.what = what
        self.stream = stream or sys.stderr
        self.started = time.monotonic()
        self.after = after
        self.shown = -1  # the last tenth written
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, fraction: float) -> None:
        tenth = int(min(max(fraction, 0.0), 1.0) * 10 + 1e-9)
        if tenth <= self.shown:
            return
        elapsed = time.monotonic() - self.started
        if elapsed < self.after:
            return
        self.shown = tenth
        line = f"{self.what}: {tenth * 10} % ({elapsed:,.0f} s)"
        if self.tty:
            self.stream.write("\r" + line + ("\n" if tenth == 10 else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
        _said()
