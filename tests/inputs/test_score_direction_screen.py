"""The inverted-score check's histogram screen (assess.inputs.score_direction.auc_lower_bound): a true lower bound on the
ROC AUC, so a score it clears is never one the exact check would flag, and the check's verdicts are unchanged.

Oracle: scikit-learn's ``roc_auc_score`` (ties counted as half a pair).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

from assess.core.data import Task
from assess.inputs.roles import Roles
from assess.inputs.score_direction import MAX_AUC, auc_lower_bound, check_score_direction


@settings(max_examples=200)
@given(n=st.integers(2, 80), levels=st.integers(1, 12), spread=st.sampled_from([1.0, 1e-9, 1e300, 1e-310]),
       seed=st.integers(0, 2 ** 16), bins=st.sampled_from([1, 2, 7, 4096]))
@example(n=2, levels=1, spread=1.0, seed=0, bins=4096)           # every score tied: no proof at all
@example(n=30, levels=12, spread=1e300, seed=1, bins=4096)       # max − min overflows: no proof, no crash
def test_lower_bound_never_exceeds_the_auc(n, levels, spread, seed, bins):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    y[:2] = [True, False]
    s = (rng.integers(0, levels, n) - levels / 2) * spread       # ties, and ranges from subnormal to near overflow
    bound = auc_lower_bound(y, s, bins)
    assert 0.0 <= bound <= roc_auc_score(y, s) + 1e-12


def test_lower_bound_is_tight_for_continuous_scores():
    rng = np.random.default_rng(3)
    y = rng.random(200_000) < 0.3
    s = np.clip(0.35 + 0.25 * y + 0.4 * (rng.random(y.size) - 0.5), 0, 1)
    auc = roc_auc_score(y, s)
    assert auc - 1e-3 < auc_lower_bound(y, s) <= auc


def test_lower_bound_is_nan_without_both_classes():
    assert np.isnan(auc_lower_bound(np.ones(5, dtype=bool), np.arange(5.0)))


@pytest.mark.parametrize("flip", [False, True])
def test_verdict_as_the_exact_check(flip):
    """A good score passes the screen and gets no warning; its complement is flagged, with the exact AUC."""
    rng = np.random.default_rng(11)
    y = (rng.random(5_000) < 0.4).astype(int)
    s = np.clip(0.3 + 0.4 * y + 0.5 * (rng.random(y.size) - 0.5), 0, 1)
    s = 1 - s if flip else s
    frame = pd.DataFrame({"y_true": y, "score": s})
    problems = check_score_direction(frame, Roles(y_true="y_true", score="score"), Task.BINARY, classes=("0", "1"),
                                     positive="1", models=("m",), model_rows={"m": np.arange(y.size)})
    auc = roc_auc_score(y, s)
    assert (auc < MAX_AUC) == flip
    assert [p.code for p in problems] == (["inverted_score"] if flip else [])
    if flip:
        assert f"{auc:.2f}" in problems[0].message
