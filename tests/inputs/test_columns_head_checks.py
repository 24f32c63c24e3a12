"""Whole-column checks that decide on the first rows when they can (assess.inputs.columns.is_continuous, the constant-score
warning): the same answers as their definitions over every row, also when the deciding value lies past the head.

Oracle: the definitions written out with numpy over all rows — "some value is not a whole number, or
``np.unique`` counts more than MAX_CLASSES values" for is_continuous; "every finite score of a model is equal" for
the constant-score warning; pandas' ``factorize`` for the label codes of integer columns.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from assess.core.data import Task
from assess.inputs.columns import HEAD_ROWS, MAX_CLASSES, is_continuous, label_codes
from assess.inputs.roles import Roles
from assess.inputs.validation import validate


def _definition(col: pd.Series) -> bool:
    v = col.dropna().to_numpy(dtype=float)
    return bool(v.size) and (bool(np.any(v != np.round(v))) or len(np.unique(v)) > MAX_CLASSES)


@given(values=st.lists(st.one_of(st.integers(-60, 60), st.sampled_from([0.5, -0.0, 0.0, float("nan"), 1e300])),
                       max_size=120),
       dtype=st.sampled_from(["float64", "int64", "int8", "Int64", "uint16"]))
@example(values=list(range(51)), dtype="int8")                       # 51 distinct: continuous
@example(values=list(range(50)), dtype="uint16")                     # 50 distinct: labels
@example(values=[0.0, -0.0] + list(range(1, 50)), dtype="float64")   # -0.0 and 0.0 are one value
def test_is_continuous_as_defined(values, dtype):
    col = pd.Series(values, dtype="float64")
    if dtype != "float64":
        col = col[np.isfinite(col) & (col.abs() < 100)].round()
        col = col[col >= 0] if dtype.startswith("u") else col
        col = col.astype(dtype)
    assert is_continuous(col) == _definition(col)


@pytest.mark.parametrize("tail, dtype", [([0.5], "float64"),                       # a decimal only past the head
                                         (list(range(2, 60)), "float64"),           # many values only past the head
                                         (list(range(2, 60)), "int64"),
                                         ([1], "int64")])                           # labels to the end
def test_is_continuous_looks_past_the_head(tail, dtype):
    col = pd.Series(np.r_[np.zeros(HEAD_ROWS + 10), np.ones(10), tail]).astype(dtype)
    assert is_continuous(col) == _definition(col)


@pytest.mark.parametrize("different_at", [None, 5, HEAD_ROWS + 3])
def test_constant_score_warning_past_the_head(different_at):
    n = HEAD_ROWS + 100
    score = np.full(n, 0.25)
    score[::7] = np.nan                                      # missing scores do not count
    if different_at is not None:
        score[different_at] = 0.75
    frame = pd.DataFrame({"y_true": np.arange(n) % 2, "score": score})
    problems = validate(frame, Roles(y_true="y_true", score="score"), Task.BINARY, classes=("0", "1"), positive="1",
                        models=("m",), model_rows={"m": np.arange(n)})
    finite = score[np.isfinite(score)]
    constant = bool(np.all(finite == finite[0]))
    assert ("constant_score" in [p.code for p in problems]) == constant == (different_at is None)


def _late(n: int, value, dtype) -> pd.Series:
    v = np.zeros(n, dtype=dtype)
    v[-1] = value
    return pd.Series(v)


@pytest.mark.parametrize("col", [
    pd.Series(np.random.default_rng(0).integers(0, 2, HEAD_ROWS * 3), dtype="int8"),       # 0/1 labels
    pd.Series(np.random.default_rng(1).integers(-128, 128, HEAD_ROWS + 1), dtype="int8"),  # the whole int8 range
    pd.Series(np.random.default_rng(2).integers(5, 9, HEAD_ROWS * 2), dtype="uint64"),
    _late(HEAD_ROWS * 20 + 7, 3, "int16"),                       # a value first seen in the last row
    _late(HEAD_ROWS + 3, 1, "uint8"),                            # 0 then 1: codes are the values themselves
    pd.Series(np.r_[[1], np.zeros(HEAD_ROWS, dtype=int)], dtype="int8"),   # 1 first: codes are 1 − value
    pd.Series(np.r_[[7], np.arange(HEAD_ROWS) % 3 + 5], dtype="int64"),    # 5, 6, 7 in the head, 7 first
    _late(HEAD_ROWS + 1, 2 ** 40, "int64"),                      # a wide range: pandas' hash table
    pd.Series(np.arange(HEAD_ROWS + 5) % 100, dtype="int32"),    # 100 distinct values: pandas' hash table
    pd.Series([3, 1, 3], dtype="int64"),                         # a short column: pandas
])
def test_label_codes_of_integers_as_pandas_factorize(col):
    before = col.copy()
    codes, labels = label_codes(col)
    want_codes, want_uniques = pd.factorize(col, use_na_sentinel=True)
    assert np.array_equal(codes, want_codes)
    with pytest.raises(ValueError):    # codes that share the column's memory cannot change it
        if np.shares_memory(codes, col.to_numpy()):
            codes[0] = 5
        else:
            raise ValueError
    assert col.equals(before)
    assert labels == tuple(str(int(u)) for u in want_uniques)


@pytest.mark.parametrize("col", [
    pd.Series(np.random.default_rng(3).integers(0, 2, HEAD_ROWS * 2), dtype="int8"),
    _late(HEAD_ROWS + 9, 4, "int64"),                              # a class first seen in the last row
    pd.Series(np.r_[np.arange(HEAD_ROWS + 1) % 70, [np.nan]]),      # floats with a missing value: pandas
    pd.Series(np.arange(HEAD_ROWS + 1) % 90, dtype="int16"),        # more values than are counted: pandas
])
def test_label_values_as_pandas_unique(col):
    from assess.inputs.columns import label_strings, label_values

    frame = pd.DataFrame({"y": col})
    want = {s for s in label_strings(pd.Series(pd.unique(col.dropna()))) if s is not None}
    assert label_values(frame, "y") == (set() if _definition(col) else want)
