"""The result types of the significance tests and comparisons, and their one JSON conversion.

Modelled on SciPy's result objects (``statistic``, ``pvalue``) and pingouin's tidy one-row tables: the numbers are
kept exactly as computed; rounding happens only in :attr:`TestResult.sentence` and in display code. Intervals are
:class:`assess.intervals.ConfidenceInterval` (the one interval type of the package); every ``to_dict`` goes through
:func:`jsonable`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from assess.core.errors import AssessError
from assess.intervals import ConfidenceInterval
from assess.stats.corrections import pvalue_matrix

ALTERNATIVES = ("two-sided", "less", "greater")
PAIRED, INDEPENDENT = "paired", "independent"
DESIGNS = (PAIRED, INDEPENDENT)
#: The name of the assumption every test for independent samples states; :func:`assess.stats.compare` fills in
#: whether the data meet it (it knows whether the models shared their samples).
INDEPENDENT_SAMPLES = "independent samples per model"


def no_interval(confidence_level: float) -> ConfidenceInterval:
    """The interval of an effect that has none (NaN bounds); its docstring says why."""
    return ConfidenceInterval(math.nan, math.nan, confidence_level, "none")


@dataclass(frozen=True)
class Effect:
    """An effect size (``value``, as defined by ``name``) with its confidence ``interval``.

    The interval's bounds are NaN when no interval is defined for the effect (the docstring of the test says why);
    for one-sided alternatives one bound is infinite, as in SciPy (``alternative="greater"`` gives ``(low, inf)``).
    """

    name: str
    value: float
    interval: ConfidenceInterval

    @property
    def is_difference(self) -> bool:
        """A difference between two models (``… difference (A - B)``), read as "A − B"."""
        return "difference" in self.name

    @property
    def no_effect(self) -> tuple[float, str] | None:
        """(value, words) of this effect when there is no difference or no association — the line a chart draws
        and the words beside it: 0 for differences and for association sizes (Cramér's V, η², Kendall's W, …), 1
        for an odds ratio, ½ for P(A > B); None for a quantity with no such value (an error rate)."""
        name = self.name.lower()
        if self.is_difference:
            return 0.0, "no difference"
        if name.startswith("odds ratio"):
            return 1.0, "no difference"
        if name.startswith("probability of superiority"):
            return 0.5, "no difference"
        if name.startswith(("cramér", "cohen's w", "kendall", "eta-squared", "epsilon-squared")):
            return 0.0, "no association"
        return None

    def to_dict(self) -> dict[str, Any]:
        ci = self.interval
        return jsonable({"name": self.name, "value": self.value, "low": ci.low, "high": ci.high,
                         "confidence_level": ci.confidence_level, "interval_method": ci.method})


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
class Design:
    """Whether the models were compared on the same samples (``"paired"``) or on different ones
    (``"independent"``), and why that was concluded from the data (``reason``, one sentence for people)."""

    kind: str
    reason: str

    def __post_init__(self) -> None:
        if self.kind not in DESIGNS:
            raise ValueError(f"`kind` must be one of {', '.join(DESIGNS)} (got {self.kind!r})")


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
    details : the extra numbers of this test, a frozen dataclass per test (``McNemarDetails``,
        ``FriedmanDetails`` …: see the test's function), or None.
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
    details: Any = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "assumptions", tuple(self.assumptions))
        object.__setattr__(self, "models", tuple(self.models))

    @property
    def assumptions_met(self) -> bool | None:
        """False if any checkable assumption fails, True if all checkable ones hold, None if none is checkable."""
        known = [a.met for a in self.assumptions if a.met is not None]
        if not known:
            return None
        return all(known)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict, the shape the CLI's ``compare`` prints.

        Keys: ``test, method, statistic, pvalue, df, alternative, effect {name, value, low, high, confidence_level,
        interval_method}, assumptions [{name, met, detail}], sentence, n, models, details`` (the fields of the
        test's details dataclass). NaN and ±inf become None (JSON has neither).
        """
        return jsonable({
            "test": self.test,
            "method": self.method,
            "statistic": self.statistic,
            "pvalue": self.pvalue,
            "df": self.df,
            "alternative": self.alternative,
            "effect": self.effect,
            "assumptions": self.assumptions,
            "sentence": self.sentence,
            "n": self.n,
            "models": self.models,
            "details": {} if self.details is None else self.details,
        })

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
            "effect_low": math.nan if eff is None else eff.interval.low,
            "effect_high": math.nan if eff is None else eff.interval.high,
            "confidence_level": math.nan if eff is None else eff.interval.confidence_level,
            "n": jsonable(self.n),
            "assumptions_met": self.assumptions_met,
            "sentence": self.sentence,
        }


FRAME_COLUMNS = ["test", "method", "models", "statistic", "df", "pvalue", "alternative", "effect", "effect_value",
                 "effect_low", "effect_high", "confidence_level", "n", "assumptions_met", "sentence"]


@dataclass(frozen=True)
class PairResult:
    """One pair's test within a comparison, with its p-value adjusted over all pairs."""

    model_a: str
    model_b: str
    result: TestResult
    pvalue_adjusted: float

    def to_dict(self) -> dict[str, Any]:
        """The pair's :meth:`TestResult.to_dict` plus ``model_a``, ``model_b`` and ``pvalue_adjusted``."""
        return {"model_a": self.model_a, "model_b": self.model_b, **self.result.to_dict(),
                "pvalue_adjusted": jsonable(self.pvalue_adjusted)}


@dataclass(frozen=True)
class Comparison:
    """The outcome of :func:`assess.stats.compare`.

    ``result``: the omnibus test over all models, or the single test when two models are compared pairwise;
    None for a pairwise test over three or more models. ``pairs``: every pair (A, B) in the order of
    ``models`` with p-values adjusted by ``correction`` (``"nemenyi"`` for Friedman's default post-hoc, whose
    p-values are family-wise already); empty when two models are compared. ``sentence``: the overall
    plain-language summary. ``design``: paired or independent samples, and why (None when not about samples).
    """

    test: str
    models: tuple[str, ...]
    result: TestResult | None
    pairs: tuple[PairResult, ...] = ()
    correction: str | None = None
    sentence: str = ""
    design: Design | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "models", tuple(self.models))
        object.__setattr__(self, "pairs", tuple(self.pairs))

    @property
    def checked(self) -> TestResult | None:
        """The result whose assumptions and effect stand for the comparison: the overall one, else the first pair's."""
        return self.result or (self.pairs[0].result if self.pairs else None)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict, what ``python -m assess compare`` prints.

        ``{"test", "method", "statistic", "pvalue", "df", "alternative", "effect": {"name", "value", "low", "high",
        "confidence_level", "interval_method"}, "assumptions": [{"name", "met", "detail"}], "sentence", "n",
        "models", "details", "correction", "pairs": [{"model_a", "model_b", <the same keys for the pair>,
        "pvalue_adjusted"}], "design", "design_reason"}``. The top-level test fields are those of ``result``; when
        there is none (a pairwise test over 3+ models) they are null and ``sentence`` summarises the pairs. NaN and
        ±inf are null.
        """
        if self.result is not None:
            out = self.result.to_dict()
        else:
            first = self.pairs[0].result if self.pairs else None
            out = {"test": self.test, "method": first.method if first else self.test,
                   "statistic": None, "pvalue": None, "df": None,
                   "alternative": first.alternative if first else None, "effect": None,
                   "assumptions": [], "sentence": "", "n": jsonable(first.n) if first else None,
                   "models": list(self.models), "details": {}}
        out["test"] = self.test
        out["models"] = list(self.models)
        out["sentence"] = self.sentence
        out["correction"] = self.correction
        out["pairs"] = [p.to_dict() for p in self.pairs]
        out["design"] = None if self.design is None else self.design.kind
        out["design_reason"] = None if self.design is None else self.design.reason
        return out

    def to_frame(self) -> pd.DataFrame:
        """One row for the overall result (when there is one) and one per pair, with fixed columns:
        ``model_a, model_b, pvalue_adjusted, correction`` then :data:`FRAME_COLUMNS` of TestResult."""
        rows = []
        if self.result is not None:
            rows.append({"model_a": None, "model_b": None, **self.result._row(), "pvalue_adjusted": math.nan,
                         "correction": None})
        for p in self.pairs:
            rows.append({"model_a": p.model_a, "model_b": p.model_b, **p.result._row(),
                         "pvalue_adjusted": p.pvalue_adjusted, "correction": self.correction})
        return pd.DataFrame(rows, columns=["model_a", "model_b", "pvalue_adjusted", "correction"] + FRAME_COLUMNS)

    def pvalue_matrix(self, *, adjusted: bool = True) -> pd.DataFrame:
        """k × k p-values of the pairs (adjusted by default), diagonal NaN; needs at least 3 models' pairs."""
        if not self.pairs:
            raise AssessError(f"the comparison of {len(self.models)} models with `{self.test}` has no pairs")
        raw = {(p.model_a, p.model_b): (p.pvalue_adjusted if adjusted else p.result.pvalue) for p in self.pairs}
        return pvalue_matrix(raw, models=self.models, correction=None)


@dataclass(frozen=True)
class ComparisonSet:
    """The outcome of :func:`assess.stats.compare_all`: one :class:`Comparison` per suitable test, the tests
    skipped with the reason, and the design the tests were chosen for."""

    comparisons: tuple
    suggestions: tuple
    skipped: Mapping[str, str] = dataclasses.field(default_factory=dict)
    design: Design | None = None
    metric: str | None = None         # the metric chosen for the metric tests when none was given …
    metric_reason: str | None = None  # … and why (None when the caller chose it)
    verdict: Any = None               # assess.stats.verdict.Verdict: the one answer, and where the tests disagree

    def __post_init__(self) -> None:
        object.__setattr__(self, "skipped", MappingProxyType(dict(self.skipped)))

    def to_dict(self) -> dict[str, Any]:
        """``{"tests": [Comparison.to_dict() + {"why"}, ...], "skipped": {test: reason}, "design",
        "design_reason", "verdict": {"test", "reason", "sentence", "disagreements": [{"models", "significant",
        "not_significant"}], "disagreement"}}``."""
        why = {s.test: s.why for s in self.suggestions}
        return {"tests": [{**c.to_dict(), "why": why.get(c.test)} for c in self.comparisons],
                "skipped": dict(self.skipped),
                "design": None if self.design is None else self.design.kind,
                "design_reason": None if self.design is None else self.design.reason,
                "verdict": None if self.verdict is None else self.verdict.to_dict(),
                **({"metric": self.metric, "metric_reason": self.metric_reason} if self.metric_reason else {})}

    def to_frame(self) -> pd.DataFrame:
        """Every test's :meth:`Comparison.to_frame` rows stacked, in the order the tests ran, under a first column
        ``comparison`` (the test run: Cochran's Q's rows hold its omnibus row and its McNemar pairs), with
        ``verdict`` True on the rows of the test the verdict follows; no rows, the same columns, when no test could
        run (``skipped`` says why)."""
        followed = self.verdict.test if self.verdict is not None else None
        frames = [c.to_frame().assign(comparison=c.test, verdict=c.test == followed) for c in self.comparisons]
        frame = pd.concat(frames or [Comparison("", (), None).to_frame().assign(comparison="", verdict=False)],
                          ignore_index=True)
        return frame[["comparison", *frame.columns.drop("comparison")]]


def jsonable(value: Any) -> Any:
    """The one JSON conversion of the stats results: numbers, arrays, Series, DataFrames, mappings, sequences and
    dataclasses (by their ``to_dict`` when they have one, else field by field) to JSON-ready Python values; NaN and
    ±inf become None."""
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
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    raise TypeError(f"cannot convert {type(value).__name__} to JSON")
