"""Labels as integer codes (assess.inputs.columns.label_codes, label_mask, rows_by_value) and the inverted-score AUC from one
sort: the fast paths of large in-memory files give what the per-row strings gave.

Oracles: a per-row Python reading of each column (``str`` of every value, ``.0`` dropped where the column is
integral, as `assess.inputs.columns.label_strings` documents), pandas' groupby for the rows of each label, and
scikit-learn's ``roc_auc_score`` (plus SciPy's ``rankdata`` Mann–Whitney form) for the AUC with ties.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from scipy.stats import rankdata
from sklearn.metrics import roc_auc_score

from assess.inputs.columns import label_codes, label_mask, label_strings, rows_by_value
from assess.inputs.score_direction import roc_auc_by_ranks

MIXED = st.one_of(st.none(), st.integers(-3, 3), st.sampled_from(["a", " a", "b ", "B", "1", "1.0", "NA"]),
                  st.sampled_from([0.0, 1.0, 2.5, float("nan")]))


def _reference(values: list) -> list:
    """Each cell read on its own: missing stays None, integral floats and ints print without ``.0``, text stripped."""
    out = []
    for v in values:
        if v is None or (isinstance(v, float) and np.isnan(v)):
            out.append(None)
        elif isinstance(v, float) and v.is_integer():
            out.append(str(int(v)))
        else:
            out.append(str(v).strip())
    return out


@given(values=st.lists(MIXED, min_size=0, max_size=40))
@example(values=[1, 1.0, " a", "a", None])              # two values, one label each: their codes merge
def test_codes_name_the_same_labels_as_the_strings(values):
    col = pd.Series(values, dtype=object)
    codes, labels = label_codes(col)
    strings = label_strings(col).tolist()
    assert strings == _reference(values)
    assert len(set(labels)) == len(labels)                              # distinct labels
    assert [labels[c] if c >= 0 else None for c in codes] == strings
    assert list(labels) == list(dict.fromkeys(s for s in strings if s is not None))   # first-appearance order
    for label in labels:
        assert (label_mask(col, label) == np.array([s == label for s in strings], dtype=bool)).all()


@pytest.mark.parametrize("dtype", ["float64", "int64", "str", "object"])
def test_typed_columns(dtype):
    values = [3, 1, 2, 1, 3] if dtype != "float64" else [3.0, 1.0, np.nan, 1.0, 3.0]
    col = pd.Series(values).astype(dtype)
    codes, labels = label_codes(col)
    expected = _reference(list(pd.Series(values, dtype=object).where(pd.notna(pd.Series(values)), None)))
    assert [labels[c] if c >= 0 else None for c in codes] == expected == label_strings(col).tolist()


@pytest.mark.parametrize("k", [3, 64, 65, 300])     # both sides of the pass-per-value / sort switch
def test_rows_by_value_partitions_the_rows(k):
    rng = np.random.default_rng(k)
    col = pd.Series(rng.integers(0, k, 5000).astype(float))
    col[rng.random(5000) < 0.05] = np.nan
    got = rows_by_value(col)
    strings = label_strings(col)
    want = {str(key): np.sort(idx) for key, idx in strings.dropna().groupby(strings.dropna()).indices.items()}
    assert list(got) == list(dict.fromkeys(strings.dropna()))        # first-appearance order
    assert got.keys() == want.keys()
    for key in want:
        assert np.array_equal(got[key], strings.dropna().index.to_numpy()[want[key]])


@given(n=st.integers(2, 60), levels=st.integers(1, 8), seed=st.integers(0, 2 ** 16))
@example(n=2, levels=1, seed=0)                        # every score tied
def test_auc_from_one_sort_equals_scikit_learn(n, levels, seed):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    y[:2] = [True, False]
    s = np.round(rng.integers(0, levels, n) / max(levels - 1, 1), 3)
    auc, se = roc_auc_by_ranks(y, s)
    assert auc == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    ranks = rankdata(s)
    n_pos = int(y.sum())
    mann_whitney = (ranks[y].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * (n - n_pos))
    assert auc == mann_whitney                                          # mid-ranks summed exactly
    assert np.isfinite(se) and se >= 0
