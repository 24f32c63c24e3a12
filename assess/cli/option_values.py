"""What the numeric options accept, checked by argparse as it reads them: a value outside it is a usage error (exit
2, naming the option and the value) before any file is read.

An option a settings file also sets (``--resamples``, ``--confidence-level``, ``--seed``, ``--beta``, ``--k``) takes
its range from there (`assess.present.settings.ranged`: one range for the file, the widgets and the flag); the
others (``--season``, ``--interval-level``, ``--exact-limit``, the size caps ``--max-mb`` …) are checked here. The package's own argument
checks (`evaluate`'s ``beta > 0``, the bootstrap's ``n_resamples >= 1`` …) stay plain ``ValueError``: they guard the
API, and reached from the command line they would be our bug (exit 70) — and the out-of-core engines do not pass
every option through them, so a ``--confidence-level 3`` used to run there without a word.
"""

from __future__ import annotations

import argparse
import math


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number (got {text!r})")
    return value


def positive(text: str) -> float:
    """A finite number > 0 (a size in MB)."""
    value = _number(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be > 0 (got {text!r})")
    return value


def level(text: str) -> float:
    """A probability strictly between 0 and 1 (a confidence level, a prediction interval's nominal level)."""
    value = _number(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, both excluded, e.g. 0.95 (got {text!r})")
    return value


def whole(minimum: int):
    """The type of a whole number ≥ ``minimum`` (a count of resamples, a season length, a seed, a limit)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be a whole number ≥ {minimum} (got {text!r})")
        return value

    parse.__name__ = f"whole number ≥ {minimum}"
    return parse
