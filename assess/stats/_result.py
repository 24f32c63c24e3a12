"""The one result type every significance test returns, and its JSON/table views.

Modelled on SciPy's result objects (``statistic``, ``pvalue``) and pingouin's tidy one-row tables: the numbers are
kept exactly as computed; rounding happens only in :attr:`TestResult.sentence` and in display code.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

ALTERNATIVES = ("two-sided", "less", "greater")


@dataclass(frozen=True)
class Effect:
    """An effect size with its confidence interval.

    ``low``/``high`` are NaN when no interval is defined for the effect (the docstring of the test says why);
    for one-sided alternatives one bound is infinite, as in SciPy (``alternative="greater"`` gives ``(low, inf)``).
    """

    name: str
    value: float
    low: float = math.nan
    high: float = math.nan
    level: float = 0.95

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "value": jsonable(self.value), "low": jsonable(self.low),
                "high": jsonable(self.high), "level": jsonable(self.level)}


@dataclass(frozen=True)
class Assumption:
    """One assumption of a test and whether the data meet it.

    ``met`` is True or False when the data can tell, None when they cannot (e.g. independence of folds); ``detail``
    says what was checked and with which numbers ("Shapiro–Wilk on the 10 differences: p = 0.41").
    """

    name: str
    met: bool | None
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "met": self.met, "detail": self.detail}


@dataclass(frozen=True)
class TestResult:
    """Result of one significance test (or interval) in the manner of SciPy and pingouin.

    Attributes
    ----------
    test : the test key used by :func:`assess.stats.compare` and the CLI (``"mcnemar"``, ``"paired_t"`` …).
    method : the variant actually run, for people (``"McNemar exact (binomial)"``).
    statistic, pvalue : as computed (NaN when undefined, never rounded).
    df : degrees of freedom where the reference distribution has them: a float, a ``(df1, df2)`` pair for F,
        else None.
    alternative : ``"two-sided"``, ``"less"`` or ``"greater"`` (None for omnibus tests, which have one direction).
        ``"greater"`` always means the first model (A) is larger than the second (B) on the effect as defined.
    effect : the effect size with its confidence interval (None when the test has none).
    assumptions : what the test assumes and whether these data meet it.
    sentence : one plain-language sentence for a stakeholder; numbers are rounded here only.
    n : the number of paired samples, folds or observations the test used.
    models : the names of the models compared, in order (A, B, …).
    details : extra numbers specific to the test (discordant counts, average ranks, the critical difference …).
    """

    __test__ = False  # not a pytest test class despite the name

    test: str
    method: str
    statistic: float
    pvalue: float
    df: float | tuple[float, float] | None = None
    alternative: str | None = "two-sided"
    effect: Effect | None = None
    assumptions: tuple[Assumption, ...] = ()
    sentence: str = ""
    n: int | None = None
    models: tuple[str, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "assumptions", tuple(self.assumptions))
        object.__setattr__(self, "models", tuple(self.models))
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

    @property
    def assumptions_met(self) -> bool | None:
        """False if any checkable assumption fails, True if all checkable ones hold, None if none is checkable."""
        known = [a.met for a in self.assumptions if a.met is not None]
        if not known:
            return None
        return all(known)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict, the shape the CLI's ``compare`` prints.

        Keys: ``test, method, statistic, pvalue, df, alternative, effect {name, value, low, high, level},
        assumptions [{name, met, detail}], sentence, n, models, details``. NaN and ±inf become None (JSON has
        neither); numpy scalars and arrays become Python numbers and lists; DataFrames become nested dicts.
        """
        return {
            "test": self.test,
            "method": self.method,
            "statistic": jsonable(self.statistic),
            "pvalue": jsonable(self.pvalue),
            "df": jsonable(self.df),
            "alternative": self.alternative,
            "effect": None if self.effect is None else self.effect.to_dict(),
            "assumptions": [a.to_dict() for a in self.assumptions],
            "sentence": self.sentence,
            "n": jsonable(self.n),
            "models": list(self.models),
            "details": jsonable(dict(self.details)),
        }

    def to_frame(self) -> pd.DataFrame:
        """One-row table with fixed column names, for display and CSV export (numbers unrounded)."""
        return pd.DataFrame([self._row()], columns=FRAME_COLUMNS)

    def _row(self) -> dict[str, Any]:
        eff = self.effect
        df = self.df
        return {
            "test": self.test,
            "method": self.method,
            "models": " vs ".join(self.models),
            "statistic": self.statistic,
            "df": ", ".join(f"{d:g}" for d in df) if isinstance(df, tuple) else df,
            "pvalue": self.pvalue,
            "alternative": self.alternative,
            "effect": None if eff is None else eff.name,
            "effect_value": math.nan if eff is None else eff.value,
            "effect_low": math.nan if eff is None else eff.low,
            "effect_high": math.nan if eff is None else eff.high,
            "confidence_level": math.nan if eff is None else eff.level,
            "n": jsonable(self.n),
            "assumptions_met": self.assumptions_met,
            "sentence": self.sentence,
        }


FRAME_COLUMNS = ["test", "method", "models", "statistic", "df", "pvalue", "alternative", "effect", "effect_value",
                 "effect_low", "effect_high", "confidence_level", "n", "assumptions_met", "sentence"]


def jsonable(value: Any) -> Any:
    """Convert numbers, arrays, Series and DataFrames to JSON-ready Python values; NaN and ±inf become None."""
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, (np.bool_,)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        v = float(value)
        return v if math.isfinite(v) else None
    if isinstance(value, pd.DataFrame):
        return {str(col): jsonable(value[col]) for col in value.columns}
    if isinstance(value, pd.Series):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return [jsonable(v) for v in value.tolist()]
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if hasattr(value, "to_dict"):
        return value.to_dict()
    raise TypeError(f"cannot convert {type(value).__name__} to JSON")
