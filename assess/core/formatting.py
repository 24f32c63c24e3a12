"""Words and numbers for people: counts, proportions, p-values, intervals, table headers and class names.

The one place for how the app writes a number or names a class — tables, sentences, chart legends and titles, the
report, the CLI — so a table never shows "170.7 rows" beside "1,176", a column header never reads
``predicted_positive_share`` and a sentence never reads "it finds about 1 in 3 1 cases". Rounding happens here, on
copies for display; computed values are never rounded (pingouin's rule, STYLE.md).

An undefined number (None, NaN; infinite where a finite value was due) is `UNDEFINED` wherever a number would stand
(a table cell, a legend, a title); a sentence says `UNDEFINED_IN_WORDS` ("undefined"), through `significant`,
`p_value` or `in_words`, never through a string of its own.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping

#: Decimals of a proportion or rate in a table (0.000–1.000): one fixed number, so a column's digits line up.
PROPORTION_DECIMALS = 3
#: A class name longer than this is cut with "…" inside a sentence (tables show it whole).
LONGEST_CLASS_IN_TEXT = 40
#: An undefined number where a number would stand: a table cell, a chart legend or title, a report cell.
UNDEFINED = "—"
#: An undefined number inside a sentence ("the difference is undefined").
UNDEFINED_IN_WORDS = "undefined"

#: Labels that name no class in words: numbers and booleans (1, 0, -1, 1.0, True, false); in a sentence they read
#: "positive (1)" rather than "1 cases".
def _not_a_word(text: str) -> bool:
    """A label a sentence cannot use as a noun: a boolean, or anything without a letter (1, -1, 0.5, ".", "")."""
    return text.strip().lower() in ("true", "false") or not any(ch.isalpha() for ch in text)


def _missing(value) -> bool:
    """None or NaN, of any float type (a float32 NaN from a Parquet column is not a Python float)."""
    if value is None:
        return True
    try:
        return math.isnan(value)
    except TypeError:          # text, or an array: not a number this module writes
        return False


def count(value) -> str:
    """A count as people write it: a whole number with thousands separators (weighted counts that are not whole keep
    one decimal); undefined as —.

    >>> count(1176.0), count(1910), count(12.25), count(float("nan"))
    ('1,176', '1,910', '12.2', '—')
    """
    if _missing(value) or math.isinf(float(value)):
        return UNDEFINED
    value = float(value)
    if abs(value - round(value)) < 1e-9:
        return f"{round(value):,}"
    return f"{value:,.1f}"


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """A whole count with its noun, singular for one: "1 blocking problem", "2,014 rows".

    >>> counted(1, "test"), counted(2014, "row"), counted(3, "match", "matches")
    ('1 test', '2,014 rows', '3 matches')
    """
    return f"{count(n)} {noun if n == 1 else plural or noun + 's'}"


def listing(items, shown: int = 5) -> str:
    """Items as a sentence's list, at most ``shown`` of them: "a", "a and b", "a, b and c", "a, b and 3 more".

    >>> listing(["a"]), listing(["a", "b", "c"]), listing(list("abcdefg"), 2)
    ('a', 'a, b and c', 'a, b and 5 more')
    """
    items = [str(i) for i in items]
    if len(items) > shown:
        return f"{', '.join(items[:shown])} and {len(items) - shown:,} more"
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def significant(x, digits: int = 3, *, cell: bool = False, trim: bool = False) -> str:
    """A number for reading: `digits` significant figures, thousands separators, no scientific notation
    between 1e-4 and 1e15; where it is not a number, in words in a sentence ("undefined") and `UNDEFINED` in a table
    ``cell``. ``trim``: without the trailing zeros of the fraction — a file's value as it was written ("0.0082", not
    "0.008200" beside "0.1234"), at most `digits` figures.

    >>> significant(0.01234), significant(12345.6), significant(float("nan")), significant(0.30000000000000004, 4)
    ('0.0123', '12,346', 'undefined', '0.3000')
    >>> significant(0.123456, 4, cell=True), significant(None, 4, cell=True)
    ('0.1235', '—')
    >>> significant(0.0082, 4, trim=True), significant(302.0, 4, trim=True), significant(0.00004, 4, trim=True)
    ('0.0082', '302', '4.000e-05')
    """
    text = _significant(x, digits, cell)
    return text.rstrip("0").rstrip(".") if trim and "." in text and "e" not in text else text


def _significant(x, digits: int, cell: bool) -> str:
    if _missing(x):
        return UNDEFINED if cell else UNDEFINED_IN_WORDS
    x = float(x)
    if math.isinf(x):
        return "infinity" if x > 0 else "minus infinity"
    if x == 0:
        return "0"
    mag = math.floor(math.log10(abs(x)))
    if abs(x) < 1e-4 or abs(x) >= 1e15:
        return f"{x:.{digits - 1}e}"
    decimals = max(0, digits - 1 - mag)
    return f"{x:,.{decimals}f}"


def number(value: float, *, count: bool = False) -> str:
    """A metric's value for reading: counts as integers, others with 3 decimals below 10 and fewer above; undefined
    as —.

    >>> number(0.98123), number(3.0, count=True), number(114.509), number(3009.2), number(float("nan"))
    ('0.981', '3', '114.5', '3,009', '—')
    """
    if _missing(value) or not math.isfinite(float(value)):
        return UNDEFINED
    if count:
        return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.2f}"
    return f"{value:,.{number_decimals(value)}f}"


def number_decimals(value: float) -> int:
    """The decimals `number` writes a (finite) metric's value with: 3 below 10, 2 below 100, 1 below 1,000, else 0.

    >>> number_decimals(0.98), number_decimals(-42.0), number_decimals(114.5), number_decimals(3009.2)
    (3, 2, 1, 0)
    """
    size = abs(float(value))
    return 0 if size >= 1000 else 1 if size >= 100 else 2 if size >= 10 else 3


def bounds(low: float, high: float) -> str:
    """A metric's interval for reading, its bounds as `number` writes them — with up to three more decimals when they
    would read the same although they differ (on 10^8 rows a recall's interval "0.750–0.750" is "0.7497–0.7503");
    "" when there is none (the caller then shows the value alone).

    >>> bounds(0.9661, 0.9894), bounds(0.74973, 0.75031), bounds(-0.62, -0.23), bounds(0.5, 0.5)
    ('0.966–0.989', '0.7497–0.7503', '-0.620 to -0.230', '0.500–0.500')
    >>> bounds(float("nan"), 1.0)
    ''
    """
    if _missing(low) or _missing(high) or not (math.isfinite(float(low)) and math.isfinite(float(high))):
        return ""
    a, b = number(low), number(high)
    if a == b and low < high and max(abs(low), abs(high)) < 1000:
        shown = len(a.split(".")[1]) if "." in a else 0
        for decimals in range(shown + 1, shown + 4):
            a, b = f"{low:.{decimals}f}", f"{high:.{decimals}f}"
            if a != b:
                break
    # "−0.62 to −0.23" reads; "-0.62–-0.23" does not
    return f"{a} to {b}" if low < 0 or high < 0 else f"{a}–{b}"


def proportion(value, decimals: int = PROPORTION_DECIMALS) -> str:
    """A proportion, a rate or an area under a curve with a fixed number of decimals, so "0" and "0.1714" never share
    a column and a chart legend reads "AUC 0.912" (and "AUC —" when it is undefined, so the model stays listed).

    >>> proportion(0), proportion(0.17142857), proportion(1.0), proportion(None), proportion(0.98765, 2)
    ('0.000', '0.171', '1.000', '—', '0.99')
    """
    if _missing(value) or math.isinf(float(value)):
        return UNDEFINED
    return f"{float(value):.{decimals}f}"


def percent(share, decimals: int = 1) -> str:
    """A share as a percentage with fixed decimals (a confusion-matrix cell's share of its row); undefined as —.

    >>> percent(0.125), percent(1.0), percent(2 / 3, 0), percent(float("nan"))
    ('12.5%', '100.0%', '67%', '—')
    """
    if _missing(share) or math.isinf(float(share)):
        return UNDEFINED
    return f"{float(share):.{decimals}%}"


def in_words(text: str) -> str:
    """A number formatted for a table (`count`, `number`, `proportion`…) made fit for a sentence: `UNDEFINED` there
    reads as the word.

    >>> in_words(proportion(float("nan"))), in_words(proportion(0.25))
    ('undefined', '0.250')
    """
    return UNDEFINED_IN_WORDS if text == UNDEFINED else text


def name_in_sentence(name: str) -> str:
    """A display name (a metric's) inside a sentence: an ordinary first word is lower-cased, an acronym or a name kept —
    the second letter decides, so "Accuracy" → "accuracy", "Mean absolute error" → "mean absolute error", "ROC AUC",
    "F1 score" and "R²" stay as they are.

    >>> name_in_sentence("Accuracy"), name_in_sentence("ROC AUC"), name_in_sentence("F1 score")
    ('accuracy', 'ROC AUC', 'F1 score')
    """
    return name[:1].lower() + name[1:] if name[1:2].islower() else name


def p_value(p, alpha: float = 0.05, *, cell: bool = False) -> str:
    """A p-value for reading: "p = 0.003", "p < 0.001" in a sentence, "0.003", "< 0.001" in a table ``cell``; two
    significant digits, more where two would round it across ``alpha`` (0.0499 reads "p = 0.0499", never
    "p = 0.05"); undefined as "p undefined" in a sentence and `UNDEFINED` in a cell.

    >>> p_value(0.0031), p_value(0.00031), p_value(0.41), p_value(0.0499), p_value(1.0), p_value(float("nan"))
    ('p = 0.0031', 'p < 0.001', 'p = 0.41', 'p = 0.0499', 'p = 1', 'p undefined')
    >>> p_value(0.12345, cell=True), p_value(0.0002, cell=True), p_value(None, cell=True)
    ('0.12', '< 0.001', '—')
    """
    if _missing(p):
        return UNDEFINED if cell else f"p {UNDEFINED_IN_WORDS}"
    p = float(p)
    if p < 0.001:
        return "< 0.001" if cell else "p < 0.001"
    for sig in (2, 3, 4, 5, 6):
        text = f"{p:.{sig}g}"
        shown = float(text)
        if (shown < alpha) == (p < alpha) and not (shown == alpha and p != alpha):
            break
    if "e" in text:
        text = f"{float(text):f}".rstrip("0")
    return text if cell else f"p = {text}"


def percent_level(fraction: float) -> str:
    """A confidence or significance level for reading, as many digits as it has: 0.95 → "95%", 0.975 → "97.5%".

    >>> percent_level(0.95), percent_level(0.05), percent_level(0.975)
    ('95%', '5%', '97.5%')
    """
    return f"{fraction * 100:g}%"


def confidence_interval(low: float, high: float, confidence_level: float, digits: int = 3) -> str:
    """An interval inside a sentence, its level named and its bounds as `significant` writes them; a one-sided
    interval (one infinite bound) reads as a bound; "" when both bounds are undefined.

    >>> confidence_interval(0.004, 0.0201, 0.95), confidence_interval(0.01, math.inf, 0.95)
    ('95% CI 0.00400 to 0.0201', '95% CI above 0.0100')
    >>> confidence_interval(-math.inf, 0.2, 0.9), confidence_interval(math.nan, math.nan, 0.95)
    ('90% CI below 0.200', '')
    """
    if _missing(low) and _missing(high):
        return ""
    level = percent_level(confidence_level)
    if math.isinf(high) and not math.isinf(low):
        return f"{level} CI above {significant(low, digits)}"
    if math.isinf(low) and not math.isinf(high):
        return f"{level} CI below {significant(high, digits)}"
    return f"{level} CI {significant(low, digits)} to {significant(high, digits)}"


def code_as_quotes(text: str) -> str:
    """One of our sentences for a place that shows text literally (a table cell, a plot): its inline code spans —
    a column or a value, as `assess.inputs.columns.quote` writes them for Markdown — in quotes instead of backticks.

    >>> code_as_quotes("`label` is a common name for the ground truth (canonical name: `y_true`)")
    '‘label’ is a common name for the ground truth (canonical name: ‘y_true’)'
    """
    return _CODE_SPAN.sub(r"‘\1’", str(text))


_CODE_SPAN = re.compile(r"`([^`]*)`")


def header(key: str, names: Mapping[str, str] | None = None) -> str:
    """A column header: the registry's display name when ``names`` has one, else the key in words.

    A key that starts with a symbol stays as it is: "χ² p" is a statistic's name, not a word to capitalise ("Χ² p"),
    and so is the p of "p-value" (the Over time table read "P-value" beside the Compare page's "p-value").

    >>> header("predicted_positive_share"), header("f1", {"f1": "F1 score"}), header("tp", {"tp": "TP"})
    ('Predicted positive share', 'F1 score', 'TP')
    >>> header("χ² p"), header("κ"), header("p-value")
    ('χ² p', 'κ', 'p-value')
    """
    if names and key in names:
        return names[key]
    words = str(key).replace("_", " ").strip()
    return words[:1].upper() + words[1:] if words[:1].isascii() and not words.startswith("p-value") else words


def headers(keys: Iterable[str], names: Mapping[str, str] | None = None) -> dict[str, str]:
    """``{key: header(key)}`` for ``DataFrame.rename(columns=...)``."""
    return {k: header(k, names) for k in keys}


def class_phrase(label, *, role: str | None = None) -> str:
    """A class name inside a sentence: a word stays as it is ("malignant", "two words"); a number or a boolean says
    what it stands for when the role is known ("positive (1)", "negative (False)"), else "class 1"; a very long name
    is cut with "…".

    >>> class_phrase("malignant"), class_phrase(1, role="positive"), class_phrase("True", role="positive")
    ('malignant', 'positive (1)', 'positive (True)')
    >>> class_phrase(3), class_phrase("yes", role="positive"), class_phrase(".", role="positive")
    ('class 3', 'yes', 'positive (.)')
    """
    text = str(label)
    if _not_a_word(text):
        return f"{role} ({text.strip()})" if role else f"class {text.strip()}"
    if len(text) > LONGEST_CLASS_IN_TEXT:
        text = text[:LONGEST_CLASS_IN_TEXT - 1].rstrip() + "…"
    return text
