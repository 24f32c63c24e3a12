"""`Progress`: a progress callback that a cache key does not see."""

from __future__ import annotations

from collections.abc import Callable


class Progress:
    """Report the fraction done (0 to 1) to ``report``, if any. Every `Progress` equals every other, so a result
    cached by its arguments (``ui.state.cached(compute_metrics, assessment, settings, progress=Progress(bar))``) is
    keyed by what it computes, never by where its progress is shown: another session asking for the same result gets
    the one computation, whichever bar it reports to."""

    __slots__ = ("_report",)

    def __init__(self, report: Callable[[float], object] | None = None) -> None:
        self._report = report

    def __call__(self, fraction: float) -> None:
        if self._report is not None:
            self._report(fraction)

    def __eq__(self, other) -> bool:
        return isinstance(other, Progress)

    def __hash__(self) -> int:
        return hash(Progress)

    def __repr__(self) -> str:
        return "Progress()"
