"""How one column's values are read: labels as strings, numbers with missing-value words, label sets, names.

The leaf of the package: it imports no other `assess` module but `assess.core.errors`, and role detection, task
inference, validation and the encoding of an `assess.inputs.assessment.Assessment` all read columns through it, so a value
means the same thing everywhere (``1.0`` and ``1`` are one class; ``"n/a"`` is missing in a score column and a
label in a label column).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from assess.core.errors import shorten

#: Strings that count as missing in numeric roles (in label roles they stay labels), compared in lower case.
NUMERIC_NA = frozenset({"", "na", "n/a", "nan", "null", "none", "-", "?", "#n/a"})
#: Indicator values read as "set" (compared in lower case); anything else is "not set".
INDICATOR_TRUE = frozenset({"1", "true", "yes", "y", "t", "1.0"})
#: A numeric column with more distinct values than this (and not all integers) holds numbers, not class labels.
MAX_CLASSES = 50
MULTILABEL_SEPARATOR = "|"
#: Rows looked at first by the whole-column checks that can stop early (a score's first decimal, a model's first two
#: different scores): the answer is usually there, and the full pass runs only when it is not.
HEAD_ROWS = 65_536


def normalise_name(name: str) -> str:
    """Lower case, with spaces, dots and hyphens folded to underscores: ``"Predicted Label"`` → ``predicted_label``."""
    return re.sub(r"[\s.\-]+", "_", str(name).strip().lower())


def quote(value) -> str:
    """A file-derived value as an inline code span, safe inside Markdown: backticks cannot break out of it."""
    return f"`{shorten(value).replace('`', chr(39))}`"


# --- labels -----------------------------------------------------------------------------------------------------------

def label_strings(col: pd.Series) -> pd.Series:
    """Labels as strings, missing kept as None: integral floats lose ``.0`` so ``1.0`` and ``1`` are one class.

    Works on the distinct values (`label_codes`), so a million rows cost one hash pass, not a million Python calls.

    >>> label_strings(pd.Series([1.0, None, 0.0])).tolist()
    ['1', None, '0']
    """
    codes, labels = label_codes(col)
    lookup = np.array(list(labels) + [None], dtype=object)
    return pd.Series(lookup[codes], index=col.index, dtype=object)


def label_codes(col: pd.Series) -> tuple[np.ndarray, tuple[str, ...]]:
    """(codes, labels): each row's position in ``labels`` (-1 where missing) and the distinct label strings (as
    `label_strings` writes them) in order of first appearance — the labels of a column without a Python object per
    row, for the checks and encodings of large files (compare, count and group the integer codes).

    >>> label_codes(pd.Series([1.0, None, 0.0, 1]))
    (array([ 0, -1,  1,  0]), ('1', '0'))
    """
    codes, uniques = _factorize(col)
    first = list(uniques[:50])
    if pd.api.types.is_bool_dtype(col) or all(isinstance(v, (bool, np.bool_)) for v in first) and first:
        names = [str(bool(v)) for v in uniques]
    elif pd.api.types.is_float_dtype(col):
        v = np.asarray(uniques, dtype=float)
        integral = bool(np.all(v[np.isfinite(v)] == np.round(v[np.isfinite(v)])))
        names = [str(int(x)) if integral and np.isfinite(x) else repr(float(x)) for x in v]
    elif pd.api.types.is_integer_dtype(col):
        # numpy writes integers as str(int(x)) does, in C (an id column has a million distinct values)
        names = np.asarray(uniques).astype(str).tolist()
    else:
        names = [_label_text(x) for x in uniques]
    return _merged(codes, names)


def _merged(codes: np.ndarray, names: list[str]) -> tuple[np.ndarray, tuple[str, ...]]:
    """(codes, labels) with the codes of distinct values that share a label (1.0 and 1 in a mixed column, " a" and
    "a") merged; ``names`` is the label of each code."""
    merged, labels = pd.factorize(np.array(names, dtype=object))
    codes = np.asarray(codes)
    if len(labels) < len(names):
        codes = np.where(codes >= 0, np.asarray(merged, dtype=np.intp)[np.maximum(codes, 0)], -1)
    return codes, tuple(str(x) for x in labels)


#: Integer columns spanning at most this many values are factorised by counting (`_factorize`), not by hashing.
_COUNTED_SPAN = 1 << 16
#: Most distinct values `_factorize` counts; more go to pandas' hash table.
_COUNTED_VALUES = 64


def _factorize(col: pd.Series) -> tuple[np.ndarray, object]:
    """``pd.factorize(col, use_na_sentinel=True)``: codes in order of first appearance and the distinct values.

    A label column of a large file is usually integers of a small range (0/1, class numbers), which counting
    factorises in a few passes where pandas hashes every value (several times slower at 1e7 rows): the distinct
    values and their order of first appearance come from the first rows when every value of the range is there
    (`_appearance`), and each row's code is its value when the values 0, 1, … appear in that order (0/1 labels with a
    0 first: the column itself, read-only, no pass at all), else a lookup in a table of the smallest integer type.
    The codes' type is then that small type, not ``intp``: they index and compare alike. Other columns go to pandas.
    """
    dtype = col.dtype
    if not (isinstance(dtype, np.dtype) and dtype.kind in "iu" and len(col) > HEAD_ROWS):
        return pd.factorize(col, use_na_sentinel=True)
    values = col.to_numpy()
    low, high = int(values.min()), int(values.max())
    span = high - low + 1
    order = _appearance(values, low, span) if span <= _COUNTED_SPAN else None
    if order is None:
        return pd.factorize(col, use_na_sentinel=True)
    uniques = (order + low).astype(dtype)
    if low == 0 and order.size == span and np.array_equal(order, np.arange(span)):
        codes = values.view()          # value v has code v
        codes.flags.writeable = False  # the column's own memory: nobody may change it through the codes
        return codes, uniques
    lookup = np.full(span, -1, dtype=small_int_type(order.size))
    lookup[order] = np.arange(order.size)
    return lookup[np.subtract(values, low, dtype=np.intp)], uniques


def _appearance(values: np.ndarray, low: int, span: int) -> np.ndarray | None:
    """The distinct values of integer ``values`` (within [low, low + span)) as offsets from ``low``, in order of
    first appearance; None for more than `_COUNTED_VALUES` of them. When the first `HEAD_ROWS` rows hold every value
    of the range, they alone decide (a 0/1 column: no pass over the rest); else a bincount finds the values and
    doubling prefixes their first rows."""
    seen, at = np.unique(values[:HEAD_ROWS], return_index=True)
    if seen.size == span:                    # the range holds no other value
        return (seen.astype(np.int64) - low)[np.argsort(at, kind="stable")]
    offset = np.subtract(values, low, dtype=np.intp)
    present = np.flatnonzero(np.bincount(offset, minlength=span))
    if present.size > _COUNTED_VALUES:
        return None
    first = np.full(span, -1, dtype=np.intp)       # first row of each value, -1 while not yet seen
    start, size = 0, HEAD_ROWS
    while np.any(first[present] < 0):
        seen, at = np.unique(offset[start:start + size], return_index=True)
        new = first[seen] < 0
        first[seen[new]] = at[new] + start
        start, size = start + size, size * 4
    return present[np.argsort(first[present], kind="stable")]


def small_int_type(n: int) -> type:
    """The smallest signed integer type holding the codes -1 … n − 1 (of n labels)."""
    return next(t for t in (np.int8, np.int16, np.int32, np.int64) if n <= np.iinfo(t).max)


def label_mask(col: pd.Series, label: str) -> np.ndarray:
    """Rows whose label (as `label_strings` writes it) is ``label``: a boolean array, False where missing."""
    return codes_mask(*label_codes(col), label)


def dictionary_label_codes(indices: np.ndarray, dictionary: list) -> tuple[np.ndarray, tuple[str, ...]]:
    """`label_codes` of a text column held as a dictionary (Parquet's encoding of repeated text): ``indices`` the
    row's entry in ``dictionary`` (-1 where missing), ``dictionary`` the distinct strings. The same codes and labels
    as `label_codes` of the decoded column, from the integers alone: no string is hashed per row."""
    codes, entries = _factorize(pd.Series(indices))      # entries in order of first appearance, -1 among them
    entries = np.asarray(entries)
    present = entries >= 0
    merged, labels = pd.factorize(np.array([_label_text(dictionary[e]) for e in entries[present]], dtype=object))
    # each code's label at once (missing, renumbered past the missing entry, merged texts): one pass over the rows
    label_of = np.full(entries.size, -1, dtype=small_int_type(len(labels)))
    label_of[present] = merged
    if not np.array_equal(label_of, np.arange(entries.size)):
        codes = label_of[codes]
    return codes, tuple(str(x) for x in labels)


def codes_mask(codes: np.ndarray, labels, label: str) -> np.ndarray:
    """`label_mask` from a column's `label_codes` already at hand."""
    hit = np.array([x == label for x in labels] + [False], dtype=bool)
    return hit[codes]


def _label_text(value) -> str:
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return str(int(value))
    return str(value).strip()


def label_values(frame: pd.DataFrame, column: str | None) -> set[str]:
    """The distinct labels of ``column`` as strings; empty for no column, or one holding continuous numbers."""
    if not column or column not in frame:
        return set()
    col = frame[column]
    if is_continuous(col):
        return set()
    # Every distinct value, however many: a capped count once turned 1,001 classes into "a single class ()" and
    # scored all-wrong predictions as accuracy 1.0. Too many classes to assess is validation's call, not a guess here.
    return {s for s in label_strings(pd.Series(_distinct(col.dropna()))) if s is not None}


def _distinct(col: pd.Series):
    """``pd.unique(col)`` (in some order): a large column of small-range integers from its first rows when they hold
    the whole range (`_appearance`), without hashing every row."""
    if isinstance(col.dtype, np.dtype) and col.dtype.kind in "iu" and len(col) > HEAD_ROWS:
        values = col.to_numpy()
        low, high = int(values.min()), int(values.max())
        order = _appearance(values, low, high - low + 1) if high - low < _COUNTED_SPAN else None
        if order is not None:
            return (order + low).astype(col.dtype)
    return pd.unique(col)


def sort_labels(labels) -> list[str]:
    """Numeric labels in numeric order, others in natural order (``c2`` before ``c10``)."""
    labels = list(labels)

    def as_number(s):
        try:
            return float(s)
        except ValueError:
            return None

    if labels and all(as_number(s) is not None for s in labels):
        return sorted(labels, key=as_number)
    return sorted(labels, key=lambda s: [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", s)])


def split_sets(col: pd.Series) -> pd.Series:
    """Multi-label sets ``a|b|c`` as frozensets; an empty cell or ``""`` is the empty set."""
    return col.map(lambda v: frozenset() if v is None or (isinstance(v, float) and np.isnan(v)) else
                   frozenset(t.strip() for t in str(v).split(MULTILABEL_SEPARATOR) if t.strip()))


def rows_by_value(col: pd.Series) -> dict[str, np.ndarray]:
    """Row positions of each distinct value of ``col`` (as a label string), in order of first appearance."""
    return rows_by_code(*label_codes(col))


def rows_by_code(codes: np.ndarray, labels) -> dict[str, np.ndarray]:
    """Row positions of each label from `label_codes`' (codes, labels)."""
    if len(labels) <= 64:   # a pass per value beats sorting ten million codes
        return {u: np.flatnonzero(codes == i) for i, u in enumerate(labels)}
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(labels) + 1))
    return {u: order[bounds[i]:bounds[i + 1]] for i, u in enumerate(labels)}


# --- numbers ----------------------------------------------------------------------------------------------------------

def is_numeric(col: pd.Series) -> bool:
    """A numeric dtype other than bool."""
    return pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col)


def is_continuous(col: pd.Series) -> bool:
    """Numbers that are not class labels: some non-integers, or more than MAX_CLASSES distinct values.

    Decided on the first `HEAD_ROWS` values when they suffice (a decimal, or too many distinct values, there);
    integers are whole by their type, and a range of at most MAX_CLASSES values holds at most that many.
    """
    if not is_numeric(col):
        return False
    present = col.dropna()
    if len(present) == 0:
        return False
    if isinstance(present.dtype, np.dtype) and present.dtype.kind in "iu":
        v = present.to_numpy()
        if int(v.max()) - int(v.min()) < MAX_CLASSES:
            return False
        return _distinct_count(v[:HEAD_ROWS]) > MAX_CLASSES or _distinct_count(v) > MAX_CLASSES
    v = present.to_numpy(dtype=float)
    head = v[:HEAD_ROWS]
    if np.any(head != np.round(head)) or _distinct_count(head) > MAX_CLASSES:
        return True
    if np.any(v != np.round(v)):
        return True
    return _distinct_count(v) > MAX_CLASSES


def _distinct_count(values: np.ndarray) -> int:
    """Distinct values as `np.unique` counts them (0.0 and -0.0 are one), hashed first: no sort of every row."""
    return len(np.unique(pd.unique(values)))


def numeric_column(frame: pd.DataFrame, column: str) -> np.ndarray:
    """A numeric role's values as float64; NA-like strings become NaN, other text too (`not_a_number` finds it)."""
    col = frame[column]
    if is_numeric(col):
        return col.to_numpy(dtype=float, na_value=np.nan)
    if pd.api.types.is_bool_dtype(col):
        return col.to_numpy(dtype=float, na_value=np.nan)
    text = col.astype(str).str.strip()
    text = text.where(~text.str.lower().isin(NUMERIC_NA) & col.notna(), None)
    return pd.to_numeric(text, errors="coerce").to_numpy(dtype=float)


def not_a_number(frame: pd.DataFrame, column: str, values: np.ndarray) -> np.ndarray:
    """Rows of a numeric role holding text that is neither a number nor a missing-value word (`NUMERIC_NA`).

    ``values`` is ``numeric_column(frame, column)``, passed in so a column is parsed once.
    """
    raw = frame[column]
    if is_numeric(raw) or pd.api.types.is_bool_dtype(raw):
        return np.zeros(len(raw), dtype=bool)
    text = raw.astype(str).str.strip().str.lower()
    return np.isnan(values) & raw.notna().to_numpy() & ~text.isin(NUMERIC_NA).to_numpy()


def indicator_column(frame: pd.DataFrame, column: str) -> np.ndarray:
    """0/1, true/false or yes/no indicator values as bool."""
    col = frame[column]
    if is_numeric(col) or pd.api.types.is_bool_dtype(col):
        return col.fillna(0).to_numpy(dtype=float) > 0.5
    return col.astype(str).str.strip().str.lower().isin(INDICATOR_TRUE).to_numpy()



def time_values(values: pd.Series) -> pd.Series:
    """Time stamps as values that sort in time: numbers as they are, dates when every stamp parses as one, else the
    text (period labels such as ``2020-Q1`` sort as written)."""
    if pd.api.types.is_numeric_dtype(values):
        return values
    parsed = pd.to_datetime(values, errors="coerce", format="mixed")
    return parsed if parsed.notna().all() else values.astype(str)
