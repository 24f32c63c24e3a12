"""Progress of long computations on stderr, so a minute of bootstrap on a million rows is not a silent minute.

stdout holds the result (JSON, CSV or a table) and stays clean. On a terminal the line is rewritten in place; in a
pipe or a log each tenth of the work is one line.
"""

from __future__ import annotations

import sys
import time


class StderrProgress:
    """``progress(fraction)`` callback: ``what: 40 % (12 s)`` each time another tenth is done, then ``done``."""

    def __init__(self, what: str, stream=None):
        self.what = what
        self.stream = stream or sys.stderr
        self.started = time.monotonic()
        self.shown = -1  # the last tenth written
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, fraction: float) -> None:
        tenth = int(min(max(fraction, 0.0), 1.0) * 10 + 1e-9)
        if tenth <= self.shown:
            return
        self.shown = tenth
        elapsed = time.monotonic() - self.started
        line = f"{self.what}: {tenth * 10} % ({elapsed:,.0f} s)"
        if self.tty:
            self.stream.write("\r" + line + ("\n" if tenth == 10 else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
