"""Warnings the compute package emits; the pages collect them and show them beside the numbers."""

from __future__ import annotations


class UndefinedMetricWarning(UserWarning):
    """A metric or curve is undefined for this data (e.g. one class only) and is NaN; the message says why."""
