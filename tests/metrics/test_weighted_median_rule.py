"""The one weighted-median rule (assess.metrics.regression.sorted_weighted_median): the averaged inverted CDF that both
the in-memory `weighted_median` and the out-of-core medians (assess.engine.median) call.

Oracles: scikit-learn's ``_weighted_percentile(average=True)`` (>= 1.8) on the rows, zero weights, ties and exact
hits at W/2 included; a worked example (weights 1, 1, 2 on 1, 2, 3: C = 1, 2, 4, W/2 = 2 is hit exactly at 2, so
the median is (2 + 3) / 2 = 2.5); and, for the grouped form, each group's own scikit-learn median.
"""

from __future__ import annotations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sklearn.utils.stats import _weighted_percentile

from assess.metrics.regression import sorted_weighted_median, weighted_median

# small integer values and weights: ties and exact hits of W/2 are common, zero weights too
_rows = st.integers(1, 30).flatmap(lambda n: st.tuples(
    st.lists(st.integers(-5, 5), min_size=n, max_size=n).map(lambda v: np.array(v, dtype=np.float64)),
    st.lists(st.integers(0, 3), min_size=n, max_size=n).map(lambda w: np.array(w, dtype=np.float64))
    .filter(lambda w: w.sum() > 0)))


def test_worked_example_exact_hit_averages_with_the_next_value():
    values, cum = np.array([1.0, 2.0, 3.0]), np.cumsum([1.0, 1.0, 2.0])
    median, first, nxt = sorted_weighted_median(values, cum, np.array([2.0]), np.array([0]), np.array([3]),
                                                np.array([np.nan]))
    assert (median.tolist(), first.tolist(), nxt.tolist()) == ([2.5], [1], [3.0])
    assert weighted_median(values, np.array([1.0, 1.0, 2.0])) == 2.5


def test_no_next_value_means_no_average():
    """The last row hit exactly with nothing after it (``after`` NaN): the value itself."""
    median, _, _ = sorted_weighted_median(np.array([4.0]), np.array([0.0]), np.array([0.0]), np.array([0]),
                                          np.array([1]), np.array([np.nan]))
    assert median.tolist() == [4.0]


@settings(max_examples=300)
@given(_rows)
@example((np.array([1.0, 2.0, 3.0]), np.array([2.0, 2.0, 0.0])))   # the hit's next value has weight 0
@example((np.array([3.0, 1.0, 2.0, 5.0]), np.array([0.0, 1.0, 1.0, 0.0])))
def test_weighted_median_equals_scikit_learn(rows):
    values, weight = rows
    expected = float(_weighted_percentile(values, weight, 50, average=True))
    assert weighted_median(values, weight) == expected


@settings(max_examples=100)
@given(st.lists(_rows, min_size=1, max_size=5))
def test_grouped_rule_equals_each_groups_median(groups):
    """Several sorted tables at once (the engine's form): each group's median is scikit-learn's on its rows."""
    values, cums, targets, sizes = [], [], [], []
    for v, w in groups:
        keep = w > 0
        order = np.argsort(v[keep], kind="stable")
        vs, ws = v[keep][order], w[keep][order]
        values.append(vs)
        cums.append(np.cumsum(ws))
        targets.append(0.5 * ws.sum())
        sizes.append(vs.shape[0])
    ends = np.cumsum(sizes)
    median, _, _ = sorted_weighted_median(np.concatenate(values), np.concatenate(cums), np.array(targets),
                                          ends - np.array(sizes), ends, np.full(len(groups), np.nan))
    expected = [float(_weighted_percentile(v, w, 50, average=True)) for v, w in groups]
    # (scikit-learn averages an exact hit on the last positive row with the largest zero-weight value; the grouped
    # tables hold positive weights only, where that case needs W = 0)
    assert median.tolist() == expected
