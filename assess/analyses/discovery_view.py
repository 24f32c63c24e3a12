"""What the Slices page's "Find weak slices" says of a `Discovery`: the sentence on what was searched and found, and
the table of the discovered slices. Values and sentences only; the page draws them."""

from __future__ import annotations

import numpy as np
import pandas as pd

from assess.analyses.discovery import Discovery
from assess.core.formatting import UNDEFINED, bounds, name_in_sentence, number, p_value


def _signed(v: float) -> str:
    return ("+" if v >= 0 else "") + number(v)


def found_sentence(found: Discovery) -> str:
    """What was searched, how the slices were tested and corrected, and how many were found."""
    alpha = round(1.0 - found.confidence_level, 12)
    k = len(found.discovered)
    conditions = "one condition" if found.max_conditions == 1 else f"up to {found.max_conditions} conditions"
    searched = (f"Searched {len(found.columns):,} column{'s' if len(found.columns) != 1 else ''} for slices of "
                f"{conditions} and at least {found.min_size:,} rows where model {found.model}'s "
                f"{name_in_sentence(found.name)} is worse than on the rest of the rows (all rows: "
                f"{number(found.overall)}); {found.looked_at:,} slices were looked at and tested together "
                f"(Benjamini–Hochberg, false discovery rate {alpha:g}). ")
    if not k:
        return searched + "None is worse than the rest beyond what chance explains across that many slices."
    return searched + ("1 slice is worse:" if k == 1 else f"{k:,} slices are worse, worst first:")


def found_table(found: Discovery) -> pd.DataFrame:
    """The discovered slices under the page's headers, formatted: no raw keys, counts with separators."""
    d = found.discovered
    alpha = 1.0 - found.confidence_level
    return pd.DataFrame({
        "Slice": d["label"], "Rows": d["n"].map("{:,}".format), found.name: d["value"].map(number),
        "Interval": [bounds(lo, hi) for lo, hi in zip(d["low"], d["high"])],
        "Rest of the rows": d["rest"].map(number), "Difference": d["difference"].map(_signed),
        "Interval of the difference": [bounds(lo, hi) for lo, hi in zip(d["difference_low"], d["difference_high"])],
        "Test": d["test"],
        "p": d["pvalue"].map(lambda p: p_value(p, alpha, cell=True) if np.isfinite(p) else UNDEFINED),
        "Adjusted p (BH)": d["p_adjusted"].map(lambda p: p_value(p, alpha, cell=True)),
    })
