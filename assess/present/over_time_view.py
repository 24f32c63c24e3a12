"""What the Over time page and the report show of :class:`assess.analyses.over_time.OverTime`, Streamlit-free: the
metrics a file can follow over time, the period and reference choices in words, the change table and the chart.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from assess.analyses.over_time import PERIODS, OverTime, Reference, time_column
from assess.core.formatting import UNDEFINED, bounds, number, p_value
from assess.inputs.assessment import Assessment
from assess.metrics.registry import get
from assess.present.charts.over_time import over_time_chart

#: The period choices in words → the `over_time` period (windows: a number chosen beside).
PERIOD_CHOICES = {"Day": "day", "Week (Monday to Sunday)": "week", "Month": "month", "Quarter": "quarter",
                  "Equal-size windows": "windows"}
FIRST, FIRST_K, RANGE = "The first period", "The first k periods", "A date range"
REFERENCE_CHOICES = (FIRST, FIRST_K, RANGE)
CHANGE_CAPTION = ("Each period is compared with the reference (its own rows left out of it): the two-proportion χ² "
                  "test (Fisher's exact test when an expected count is below 5) with Newcombe's interval of the "
                  "difference for proportions, DeLong's test for independent samples for the ROC AUC, a two-sample "
                  "bootstrap of the difference for other metrics. Adjusted p: Benjamini–Hochberg false discovery rate "
                  "across the periods (ISO/IEC TS 4213 7.10.3). Rows within a period are treated as independent.")


def reference_of(choice: str, k: int = 2, start=None, end=None) -> Reference:
    """The :class:`Reference` of the page's choice."""
    if choice == FIRST_K:
        return Reference(int(k))
    if choice == RANGE:
        return Reference(None, pd.Timestamp(start), pd.Timestamp(end))
    return Reference()


def period_name(period) -> str:
    """"month", "window" — for titles."""
    return period if isinstance(period, str) and period in PERIODS else "window"


def _one(frame: pd.DataFrame, model: str, metric: str | None = None) -> pd.DataFrame:
    pick = frame["model"] == model
    if metric is not None:
        pick &= frame["metric"] == metric
    return frame[pick]


def change_table(result: OverTime, model: str, metric: str, estimated: dict | None = None) -> pd.DataFrame:
    """One row per period: its rows (labelled), the value with its interval, the value estimated on its unlabelled
    rows when ``estimated`` ({period key: {value, low, high}}) has it, and — outside the reference — the difference
    from the reference with its interval, the test, p and the adjusted p; all as text for reading."""
    alpha = round(1.0 - result.confidence_level, 12)
    periods = _one(result.periods, model).set_index("period")
    values = _one(result.metrics, model, metric).set_index("period")
    changes = _one(result.changes, model, metric).set_index("period")
    rows = []
    for start, p in periods.iterrows():
        v = values.loc[start]
        c = changes.loc[start] if start in changes.index else None
        tested = c is not None and np.isfinite(c["pvalue"])
        rows.append({
            "Period": p["key"], "Rows": f"{int(p['n']):,}", "Labelled": f"{int(p['n_labelled']):,}",
            "Value": number(v["value"]) if np.isfinite(v["value"]) else UNDEFINED,
            "Interval": bounds(v["low"], v["high"]) or UNDEFINED,
            **({"Estimated (no labels yet)": _estimate_cell(estimated.get(p["key"]))} if estimated else {}),
            "Change": "reference" if p["reference"] else (number(c["difference"]) if tested else "not tested"),
            "Change interval": bounds(c["low"], c["high"]) or UNDEFINED if tested else UNDEFINED,
            "Test": c["test"] if tested else (c["reason"] if c is not None and c["reason"] else UNDEFINED),
            "p-value": p_value(c["pvalue"], alpha, cell=True) if tested else UNDEFINED,
            "Adjusted p": p_value(c["p_adjusted"], alpha, cell=True) if tested else UNDEFINED})
    return pd.DataFrame(rows)


def _estimate_cell(value: dict | None) -> str:
    if not value or value["value"] is None:
        return UNDEFINED
    interval = bounds(value["low"], value["high"])
    return f"{number(value['value'])} ({interval})" if interval else number(value["value"])


def chart(result: OverTime, model: str, metric: str, estimated: dict | None = None):
    """The over-time chart of one model and metric; ``estimated``: {period key: {value, low, high}} of the metric
    on periods with unlabelled rows (:func:`assess.analyses.over_time.period_estimate`)."""
    spec = get(result.task, metric)
    periods = _one(result.periods, model)
    guesses = None
    if estimated:
        start = dict(zip(periods["key"], periods["period"]))
        guesses = pd.DataFrame([{"period": start[k], **v} for k, v in estimated.items() if v["value"] is not None],
                               columns=["period", "value", "low", "high"])
    return over_time_chart(metrics=_one(result.metrics, model, metric), periods=periods,
                           changes=_one(result.changes, model, metric), metric=spec.name, model=model,
                           period_name=period_name(result.period), confidence_level=result.confidence_level,
                           estimated=guesses)


def date_span(assessment: Assessment) -> tuple:
    """The date range the page offers first: the first quarter of the time stamps' span, from the first day."""
    stamps = pd.to_datetime(assessment.frame[time_column(assessment)].astype(str), errors="coerce", format="mixed")
    first, last = stamps.min(), stamps.max()
    return first.date(), (first + (last - first) / 4).date()
