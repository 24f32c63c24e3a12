"""The ``by_horizon`` / ``by_series`` part of a forecast's ``metrics`` JSON, shared by the in-memory command
(`assess.cli.metrics`) and the out-of-core one (`assess.cli.engine`) so both write the same layout."""

from __future__ import annotations

import numpy as np


def breakdown_section(frame, *, with_ci: bool) -> dict:
    """``by_horizon`` and ``by_series`` of a forecast's breakdown frame (`assess.metrics.reports.compute_breakdowns`
    or `assess.engine.forecast`); a grouping the file has no column for is null with its reason under
    ``undefined_breakdowns``, never an empty object that reads as "no metrics"."""
    doc, absent = {}, {}
    for by, column in (("horizon", "horizon"), ("series", "series")):
        rows = frame[frame["by"] == by]
        if rows.empty:
            doc[f"by_{by}"] = None
            absent[f"by_{by}"] = (f"the file has no {column} column (set one with --{column}-col); the pooled "
                                  "metrics under \"models\" cover every row")
        else:
            doc[f"by_{by}"] = _nested(rows, by, with_ci=with_ci)
    if absent:
        doc["undefined_breakdowns"] = absent
    return doc


def _nested(frame, level: str, *, with_ci: bool) -> dict:
    """{model: {group: {key: value}}} (``{value, low, high}`` with ``with_ci``; None for undefined) from a
    breakdown frame; a horizon is written as its whole number ("1")."""
    def number(v):
        return None if v is None or not np.isfinite(v) else float(v)

    out: dict = {}
    for row in frame.itertuples(index=False):
        group = f"{row.horizon:g}" if level == "horizon" else str(row.series)
        value = ({"value": number(row.value), "low": number(row.low), "high": number(row.high)} if with_ci
                 else number(row.value))
        out.setdefault(row.model, {}).setdefault(group, {})[row.key] = value
    return out
