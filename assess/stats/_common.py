"""Shared validation, interval and wording helpers of the statistical tests (private: callers trust their input).

Numbers in their sentences are written by `assess.core.formatting`."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy import special

from assess.core.errors import AssessError
from assess.core.formatting import UNDEFINED_IN_WORDS, counted, name_in_sentence, p_value, percent_level
from assess.stats._result import ALTERNATIVES

# --------------------------------------------------------------------------------------------------- validation


def check_alternative(alternative: str, *, allowed: Sequence[str] = ALTERNATIVES) -> str:
    if alternative not in allowed:
        raise AssessError(f"`alternative` must be one of {', '.join(repr(a) for a in allowed)} "
                          f"(got {alternative!r})")
    return alternative


def check_confidence_level(confidence_level: float) -> float:
    try:
        value = float(confidence_level)
    except (TypeError, ValueError):
        raise AssessError(f"`confidence_level` must be a number in (0, 1) (got {confidence_level!r})") from None
    if not 0.0 < value < 1.0:
        raise AssessError(f"`confidence_level` must be in (0, 1) (got {confidence_level!r})")
    return value


def check_choice(name: str, value: object, allowed: Sequence[object]) -> None:
    if value not in allowed:
        raise AssessError(f"`{name}` must be one of {', '.join(repr(a) for a in allowed)} (got {value!r})")


def as_float_vector(x: object, name: str, *, min_size: int = 1) -> np.ndarray:
    """1-D float array with finite values, or AssessError naming `name` and the first bad value."""
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise AssessError(f"`{name}` must hold numbers (got {type(x).__name__})") from None
    if arr.ndim != 1:
        raise AssessError(f"`{name}` must be one-dimensional (got shape {arr.shape})")
    bad = ~np.isfinite(arr)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise AssessError(f"`{name}` has {plural(int(bad.sum()), 'non-finite value')} (first at index {i}: {arr[i]})")
    if arr.size < min_size:
        raise AssessError(f"`{name}` needs at least {min_size} values (got {arr.size})")
    return arr


def as_bool_vector(x: object, name: str) -> np.ndarray:
    """1-D boolean array from booleans or 0/1 numbers, or AssessError naming the first other value."""
    arr = np.asarray(x)
    if arr.ndim != 1:
        raise AssessError(f"`{name}` must be one-dimensional (got shape {arr.shape})")
    if arr.dtype == bool:
        return arr
    try:
        num = arr.astype(float)
    except (TypeError, ValueError):
        raise AssessError(f"`{name}` must hold booleans or 0/1 (got dtype {arr.dtype})") from None
    bad = ~np.isin(num, (0.0, 1.0))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise AssessError(f"`{name}` must hold booleans or 0/1; {plural(int(bad.sum()), 'value')} "
                          f"{'is' if bad.sum() == 1 else 'are'} not (first at index {i}: {shown(arr[i])})")
    return num.astype(bool)


def plural(n: int, word: str) -> str:
    """'1 value', '3 values' (`assess.core.formatting.counted`)."""
    return counted(n, word)


def shown(value: object) -> str:
    """A received value for a message: numpy scalars as plain Python values (2, not np.int64(2))."""
    if isinstance(value, np.generic):
        value = value.item()
    return repr(value)


def check_same_length(a: np.ndarray, b: np.ndarray, names: tuple[str, str]) -> None:
    if a.shape[0] != b.shape[0]:
        raise AssessError(f"`{names[0]}` and `{names[1]}` must be paired, one value per sample "
                          f"(got {a.shape[0]} and {b.shape[0]} values)")


def model_names(names: Sequence[str] | None, k: int) -> tuple[str, ...]:
    if names is None:
        return tuple(f"Model {chr(ord('A') + i)}" if k <= 26 else f"Model {i + 1}" for i in range(k))
    names = tuple(str(n) for n in names)
    if len(names) != k:
        raise AssessError(f"`names` must name the {k} models compared (got {len(names)}: {list(names)})")
    if len(set(names)) != k:
        raise AssessError(f"`names` must be distinct (got {list(names)})")
    return names


# ---------------------------------------------------------------------------------------- p-values and intervals


def pvalue(dist, stat: float, alternative: str) -> float:
    """p-value of `stat` under a continuous distribution `dist` symmetric about 0 (NaN stays NaN)."""
    if math.isnan(stat):
        return math.nan
    if alternative == "greater":
        return float(dist.sf(stat))
    if alternative == "less":
        return float(dist.cdf(stat))
    return float(min(1.0, 2.0 * dist.sf(abs(stat))))


def interval(center: float, se: float, dist, alternative: str, confidence_level: float) -> tuple[float, float]:
    """``center ± q·se`` with q from a symmetric `dist` at confidence c; one-sided alternatives give one infinite
    bound.

    ``"greater"`` (the effect is positive) gives ``(center − q_{c}·se, +inf)``; ``"less"`` the mirror image;
    two-sided uses ``q_{(1+c)/2}``. This inverts the matching test exactly.
    """
    if alternative == "two-sided":
        q = float(dist.ppf(0.5 + confidence_level / 2.0))
        return center - q * se, center + q * se
    q = float(dist.ppf(confidence_level))
    if alternative == "greater":
        return center - q * se, math.inf
    return -math.inf, center + q * se


class StandardNormal:
    """N(0, 1) with the three methods the tests use, on scipy.special ufuncs (a frozen scipy.stats distribution
    costs ~0.4 ms to build, which dominates the type-I simulations)."""

    @staticmethod
    def sf(x):
        return special.ndtr(-np.asarray(x, dtype=float))

    @staticmethod
    def cdf(x):
        return special.ndtr(x)

    @staticmethod
    def ppf(q):
        return special.ndtri(q)


class StudentT:
    """Student's t with `df` degrees of freedom (sf, cdf, ppf), on scipy.special ufuncs."""

    def __init__(self, df: float):
        self.df = float(df)

    def sf(self, x):
        return special.stdtr(self.df, -np.asarray(x, dtype=float))

    def cdf(self, x):
        return special.stdtr(self.df, x)

    def ppf(self, q):
        return special.stdtrit(self.df, q)


NORMAL = StandardNormal()

# ------------------------------------------------------------------------------------------------------ wording


def metric_words(name) -> str:
    """A metric inside a sentence: the registry's display name for a registry key ("f1" → "F1 score", "mae" → "mean
    absolute error", "roc_auc" → "ROC AUC"), lower-cased where it is an ordinary word; any other name (a column of an
    uploaded fold table) as given."""
    from assess.core.data import Task
    from assess.metrics import get
    for task in Task:
        try:
            words = get(task, str(name)).name
        except (ValueError, KeyError, AssessError):
            continue
        return name_in_sentence(words)
    return str(name)


def verdict(p: float, alpha: float, label: str, *, subject: str = "the difference") -> str:
    """'the difference is significant (McNemar exact p = 0.003)'."""
    if p is None or math.isnan(p):
        return f"{label} is {UNDEFINED_IN_WORDS} on these data"
    word = "is significant" if p < alpha else "is not significant"
    return f"{subject} {word} at the {percent_level(alpha)} level ({label} {p_value(p, alpha)})"


def alpha_of(confidence_level: float) -> float:
    """The significance level 1 − confidence_level, free of binary noise (0.95 → 0.05, not 0.050000000000000044)."""
    return round(1.0 - confidence_level, 12)


def warn_undefined(message: str) -> None:
    """Legal but degenerate data: the test's statistic is NaN, and this named warning says why (house style)."""
    import warnings

    from assess.core.warnings import UndefinedMetricWarning
    warnings.warn(message, UndefinedMetricWarning, stacklevel=3)
