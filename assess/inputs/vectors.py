"""Vector cells, as Spark MLlib, pandas and JSON writers store per-class probabilities, expanded into plain columns.

Spark MLlib writes a classifier's ``probability`` (and ``rawPrediction``) as one vector per row: ``"[0.78,0.22]"``
when the vector was cast to text (CSV, Excel), ``"(2,[0],[0.78])"`` for a sparse one, a struct ``{type, size,
indices, values}`` in Parquet and JSON (Spark's ``VectorUDT``), or a plain list once ``vector_to_array`` ran. pandas
writes a column of lists as a Parquet list column, as JSON arrays, or as their text ``"[0.78, 0.22]"`` (``"[0.78
0.22]"`` for numpy arrays). This module turns each such column into one numeric column per element, named
``<column>_<i>`` (``probability`` → ``probability_0``, ``probability_1``), in one place, at read time, with a note
that says so: role detection (`assess.inputs.roles`) then sees per-class score columns, whose element *i* is the score of
class *i* (Spark's label index; scikit-learn's ``classes_`` order).

A list of strings (a Parquet ``list<string>``, a JSON array of strings) is a label set: it becomes the ``a|b`` text
the multi-label task reads. Any other nested value (maps, other structs, lists of lists) is refused with the column
and the first row.
"""

from __future__ import annotations

import io
import re

import numpy as np
import pandas as pd

from assess.core.errors import InputError, shorten

__all__ = ["expand_arrow_lists", "expand_vectors", "vector_type_supported"]

#: ``[0.78,0.22]``, ``[0.78, 0.22]`` or numpy's ``[0.78 0.22]``: a dense vector written as text.
_DENSE = re.compile(r"^\s*\[\s*([^\[\]]*?)\s*\]\s*$")
#: ``(2,[0],[0.78])``: Spark's text form of a sparse vector (size, indices, values).
_SPARSE = re.compile(r"^\s*\(\s*(\d+)\s*,\s*\[([^\[\]]*)\]\s*,\s*\[([^\[\]]*)\]\s*\)\s*$")
_SEPARATOR = r"\s*,\s*|\s+"
#: Over a block of lines (one vector's inside per line): blanks at a line's ends, then separators inside it.
_EDGES = re.compile(r"^[ \t]+|[ \t]+$", re.MULTILINE)
_BLANKS = re.compile(r"[ \t]*,[ \t]*|[ \t]+")
_NOT_NUMERIC = re.compile(r"[^0-9e+\-.,\s]")
#: Most elements a vector cell may expand into: the class count a classification assessment handles.
MAX_ELEMENTS = 2_000


def vector_type_supported(arrow_type) -> bool:
    """Whether a nested Parquet (Arrow) type is one `expand_vectors` reads: a list of numbers or strings, or Spark's
    vector struct (``type``, ``size``, ``indices``, ``values``)."""
    import pyarrow as pa

    t = arrow_type
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        v = t.value_type
        return pa.types.is_integer(v) or pa.types.is_floating(v) or pa.types.is_string(v) or \
            pa.types.is_large_string(v)
    if pa.types.is_struct(t):
        return {t.field(i).name for i in range(t.num_fields)} == {"type", "size", "indices", "values"}
    return False


def expand_vectors(frame: pd.DataFrame, name: str, *, max_columns: int) -> tuple[pd.DataFrame, tuple[str, ...]]:
    """``frame`` with every vector column expanded into one float column per element, and one note per column.

    A column is a vector column when every non-empty cell is a vector: a list or array of numbers, Spark's vector
    struct (a dict with ``values``), or text of the forms above. Empty cells stay empty in every element column.
    All vectors of a column must have the same length (a ragged column is an `InputError` naming the first row of
    another length). Text columns where some cell is not a numeric vector stay text.

    >>> f, notes = expand_vectors(pd.DataFrame({"label": [1.0, 0.0], "probability": ["[0.2,0.8]", "[0.9,0.1]"]}),
    ...                           "p.csv", max_columns=100)
    >>> list(f.columns), f["probability_1"].tolist()
    (['label', 'probability_0', 'probability_1'], [0.8, 0.1])
    """
    notes: list[str] = []
    pieces: list[tuple[str, pd.DataFrame | pd.Series]] = []
    changed = False
    for col in frame.columns:
        values = frame[col]
        expanded = None
        if values.dtype == object or isinstance(values.dtype, pd.StringDtype):
            first = _first_value(values)
            if isinstance(first, str):
                expanded = _from_text(values, first, col, name)
            elif isinstance(first, (list, tuple, np.ndarray, dict)):
                expanded = _from_objects(values, col, name)
            elif first is not None and values.map(lambda v: isinstance(v, (list, tuple, np.ndarray, dict))).any():
                expanded = _from_objects(values, col, name)  # a JSON column mixing numbers and arrays: refused
        if expanded is None:
            pieces.append((col, values))
            continue
        changed = True
        if isinstance(expanded, pd.Series):  # a label set column
            pieces.append((col, expanded))
            notes.append(f"column `{shorten(col)}` holds a list of labels per row: read as label sets (a|b)")
            continue
        k = expanded.shape[1]
        names = [f"{col}_{i}" for i in range(k)]
        clash = [n for n in names if n in frame.columns]
        if clash:
            raise InputError(f"holds a vector per row, and its element column `{shorten(clash[0])}` would clash with "
                             f"the file's column of that name; rename one of them", file=name, column=str(col))
        expanded.columns = names
        pieces.append((col, expanded))
        notes.append(_note(col, names, expanded.iloc[_first_row(expanded)].to_numpy()))
    if not changed:
        return frame, ()
    out = pd.concat([p if isinstance(p, pd.DataFrame) else p.rename(c) for c, p in pieces], axis=1)
    if out.shape[1] > max_columns:
        raise InputError(f"has {out.shape[1]:,} columns once its vector columns are expanded, over the "
                         f"{max_columns:,} column limit (raise it with ASSESS_MAX_COLUMNS or --max-columns)",
                         file=name)
    return out, tuple(notes)


def _note(col, names: list[str], example_row: np.ndarray) -> str:
    k = len(names)
    example = ", ".join(f"{v:g}" for v in example_row[:4])
    listed = (" and ".join(f"`{shorten(n)}`" for n in names) if k <= 2 else
              f"`{shorten(names[0])}` … `{shorten(names[-1])}`")
    return (f"column `{shorten(col)}` holds a vector of {k} numbers per row (e.g. [{example}{', …' if k > 4 else ''}]):"
            f" expanded into the columns {listed}, element i read as the score of class i")


def expand_arrow_lists(table, name: str, *, max_columns: int):
    """The fast path of `expand_vectors` for Parquet: list columns of numbers whose rows all hold k ≥ 1 elements
    (and no empty row) become k float columns in Arrow itself, before pandas would make an array object per cell.
    Returns (table, notes); other nested columns are left for `expand_vectors`."""
    import pyarrow as pa
    import pyarrow.compute as pc

    notes = []
    for i in reversed(range(table.num_columns)):
        field, column = table.schema.field(i), table.column(i)
        t = field.type
        if not (pa.types.is_list(t) or pa.types.is_large_list(t)) or not (
                pa.types.is_integer(t.value_type) or pa.types.is_floating(t.value_type)):
            continue
        if column.null_count:
            continue
        lengths = pc.list_value_length(column).to_numpy(zero_copy_only=False)
        if lengths.size == 0 or lengths[0] < 1 or lengths[0] > MAX_ELEMENTS or np.any(lengths != lengths[0]):
            continue  # ragged or empty: `expand_vectors` names the row
        k = int(lengths[0])
        flat = pc.list_flatten(column).to_numpy(zero_copy_only=False).astype(float)
        if flat.size != k * len(lengths):  # null elements inside the lists: leave them to the general path
            continue
        matrix = flat.reshape(len(lengths), k)
        names = [f"{field.name}_{j}" for j in range(k)]
        if any(n in table.schema.names for n in names):
            continue
        table = table.remove_column(i)
        for j, n in enumerate(names):
            table = table.add_column(i + j, n, pa.array(matrix[:, j]))
        notes.append(_note(field.name, names, matrix[0]))
        if table.num_columns > max_columns:
            raise InputError(f"has {table.num_columns:,} columns once its vector columns are expanded, over the "
                             f"{max_columns:,} column limit (raise it with ASSESS_MAX_COLUMNS or --max-columns)",
                             file=name)
    return table, tuple(reversed(notes))


def _first_value(values: pd.Series):
    valid = values.first_valid_index()
    return None if valid is None else values.loc[valid]


def _first_row(expanded: pd.DataFrame) -> int:
    full = expanded.notna().all(axis=1).to_numpy()
    return int(full.argmax()) if full.any() else 0


# --- text: "[0.78,0.22]", "[0.78 0.22]", "(2,[0],[0.78])" ------------------------------------------------------------

def _from_text(values: pd.Series, first: str, col, name: str) -> pd.DataFrame | None:
    if not (_DENSE.match(first) or _SPARSE.match(first)):
        return None  # the common case, a text column of labels: one look at its first cell
    present = values.notna().to_numpy()
    text = values[present].astype(str).str.strip()
    if (text.str.startswith("[") & text.str.endswith("]")).all():
        return _dense_text(values, text.str.slice(1, -1), present, col, name)
    sparse = text.str.match(_SPARSE)
    if sparse.all():
        parsed = [_sparse_cell(v) for v in text]
        if any(p is None for p in parsed):
            return None
        return _assemble(values, present, parsed, col, name)
    return None


def _dense_text(values: pd.Series, inner: pd.Series, present: np.ndarray, col, name: str) -> pd.DataFrame | None:
    """Every cell's inside joined into one block of lines, its separators (commas, or numpy's spaces) made commas by
    one regular-expression pass over the block, then read by pandas' C CSV parser: a million vectors take a second or
    two, where a pass per cell took half a minute."""
    block = "\n".join(inner.tolist())
    if re.search(r"[\[\]\r\"]", block):
        return None  # a nested list, or text no parser should see as a row: not a vector column
    if _NOT_NUMERIC.search(block.lower().replace("nan", "").replace("inf", "")):
        return None  # a letter that is no exponent, NaN or infinity: a list of words, text rather than a vector
    if " " in block or "\t" in block:  # numpy's "[0.78 0.22]" or "[0.78, 0.22]"; Spark writes no blanks
        block = _BLANKS.sub(",", _EDGES.sub("", block))
    lines = pd.Series(block.split("\n"))
    if (lines == "").any():
        return None  # an empty list: no vector
    lengths = lines.str.count(",").to_numpy() + 1
    if lengths.max() > MAX_ELEMENTS:
        return None
    _check_lengths(lengths, np.flatnonzero(present), col, name)
    try:
        numbers = pd.read_csv(io.StringIO(block), header=None, dtype=float, names=range(int(lengths[0])),
                              na_filter=False, engine="c")
    except (ValueError, pd.errors.ParserError):
        return None  # some element is not a number (a list of words): text, not a vector
    out = np.full((len(values), int(lengths[0])), np.nan)
    out[present] = numbers.to_numpy(dtype=float)
    return pd.DataFrame(out, index=values.index)


def _sparse_cell(text: str):
    m = _SPARSE.match(text)
    size = int(m.group(1))
    try:
        indices = [int(t) for t in re.split(_SEPARATOR, m.group(2).strip()) if t]
        numbers = [float(t) for t in re.split(_SEPARATOR, m.group(3).strip()) if t]
    except ValueError:
        return None
    return _densify(size, indices, numbers)


def _densify(size, indices, numbers):
    if size > MAX_ELEMENTS or len(indices) != len(numbers) or any(not 0 <= i < size for i in indices):
        return None
    dense = np.zeros(size)
    dense[np.asarray(indices, dtype=int)] = numbers
    return dense


# --- objects: lists, numpy arrays (Parquet lists), dicts (Spark's vector struct) ---------------------------------------

def _from_objects(values: pd.Series, col, name: str):
    present = values.notna().to_numpy()  # an array cell is one value, present; None and NaN are missing
    rows, cells = np.flatnonzero(present), list(values[present])
    if cells and all(isinstance(v, (list, tuple, np.ndarray)) and all(isinstance(x, str) for x in v) for v in cells):
        out = pd.Series([None] * len(values), index=values.index, dtype=object)
        out[present] = ["|".join(v) for v in cells]
        return out
    fast = _rectangular(cells)
    if fast is not None:  # Parquet lists and JSON arrays of numbers, all of one length: one C-level conversion
        out = np.full((len(values), fast.shape[1]), np.nan)
        out[present] = fast
        return pd.DataFrame(out, index=values.index)
    nested = [isinstance(v, (dict, list, tuple, np.ndarray)) for v in cells]
    if not all(nested):
        _refuse(col, name, rows[nested.index(True)], "nested values among single values")
    parsed = []
    for row, v in zip(rows, cells):
        if isinstance(v, dict):
            vector = _spark_vector(v) if "values" in v else None
            what = "an object that is not a vector"
        elif isinstance(v, (list, tuple, np.ndarray)):
            try:
                vector = np.asarray(v, dtype=float) if np.ndim(v) == 1 else None
            except (TypeError, ValueError):
                vector = None
            what = "a list holding something other than numbers"
        if vector is None:
            _refuse(col, name, row, what)
        parsed.append(vector)
    return _assemble(values, present, parsed, col, name)


def _rectangular(cells: list) -> np.ndarray | None:
    """The cells as an (n, k) float matrix when every one is a numeric array (Parquet) or list (JSON) of the same
    length k ≥ 1; None otherwise (the cell-by-cell path then names what is wrong)."""
    if not cells:
        return None
    if all(type(c) is np.ndarray and c.ndim == 1 and c.dtype.kind in "iuf" for c in cells):
        lengths = np.fromiter((c.size for c in cells), dtype=np.int64, count=len(cells))
        if lengths[0] == 0 or lengths[0] > MAX_ELEMENTS or np.any(lengths != lengths[0]):
            return None
        return np.concatenate(cells).astype(float).reshape(len(cells), int(lengths[0]))
    if all(type(c) is list for c in cells):
        try:
            matrix = np.array(cells, dtype=float)
        except (TypeError, ValueError):  # ragged, or something other than numbers
            return None
        return matrix if matrix.ndim == 2 and 0 < matrix.shape[1] <= MAX_ELEMENTS else None
    return None


def _spark_vector(cell: dict):
    """Spark's ``VectorUDT`` as stored in Parquet and JSON: type 1 dense (``values``), type 0 sparse (``size``,
    ``indices``, ``values``)."""
    try:
        values = np.asarray(cell.get("values"), dtype=float).reshape(-1)
        if cell.get("type") in (0, "0"):
            return _densify(int(cell["size"]), list(np.asarray(cell["indices"], dtype=int)), list(values))
        return values
    except (TypeError, ValueError, KeyError):
        return None


def _assemble(values: pd.Series, present: np.ndarray, parsed: list[np.ndarray], col, name: str) -> pd.DataFrame:
    lengths = np.array([len(p) for p in parsed])
    if lengths.size == 0 or lengths[0] == 0 or lengths[0] > MAX_ELEMENTS:
        _refuse(col, name, int(np.flatnonzero(present)[0]) if present.any() else 0,
                "vectors of 0 or more than 2,000 elements")
    _check_lengths(lengths, np.flatnonzero(present), col, name)
    out = np.full((len(values), int(lengths[0])), np.nan)
    out[present] = np.vstack(parsed)
    return pd.DataFrame(out, index=values.index)


def _check_lengths(lengths: np.ndarray, rows: np.ndarray, col, name: str) -> None:
    other = np.flatnonzero(lengths != lengths[0])
    if other.size:
        raise InputError(f"holds vectors of different lengths: {int(lengths[0])} elements in row {rows[0] + 1:,}, "
                         f"{int(lengths[other[0]])} in row {rows[other[0]] + 1:,}; every row needs one score per "
                         f"class", file=name, column=str(col))


def _refuse(col, name: str, row: int, what: str):
    raise InputError(f"holds {what} (first at row {row + 1:,}); each value must be a number, a string, or a list "
                     f"of numbers (one per class)", file=name, column=str(col))
