"""Multiple-comparison corrections and pairwise p-value matrices (assess.stats.corrections)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.multitest import multipletests

from assess.core.errors import AssessError
from assess.stats import CORRECTIONS, adjust_pvalues, pvalue_matrix

# Benjamini & Hochberg (1995), JRSS B 57:289-300, section 4: the 15 p-values of the myocardial infarction study.
BH_1995 = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719,
           0.6528, 0.7590, 1.000]


def test_benjamini_hochberg_1995_example():
    # The paper: BH at q = 0.05 rejects the 4 smallest; Bonferroni at 0.05 rejects 3 (p <= 0.05/15).
    assert int(np.sum(adjust_pvalues(BH_1995, method="fdr_bh") <= 0.05)) == 4
    assert int(np.sum(adjust_pvalues(BH_1995, method="bonferroni") <= 0.05)) == 3


pvalue_lists = st.lists(st.one_of(st.floats(0, 1), st.sampled_from([0.0, 0.01, 0.05, 0.5, 1.0])), min_size=1,
                        max_size=30)


@settings(max_examples=60, deadline=None)
@given(pvalue_lists, st.sampled_from(CORRECTIONS))
def test_adjusted_pvalues_match_statsmodels(p, method):
    ours = adjust_pvalues(p, method=method)
    theirs = multipletests(p, method=method)[1]
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-15)
    assert (ours <= 1).all() and (ours >= np.asarray(p) - 1e-15).all()


def test_adjusted_pvalues_are_capped_at_one():
    assert adjust_pvalues([0.5, 0.6], method="bonferroni").tolist() == [1.0, 1.0]
    assert adjust_pvalues([0.9, 0.95, 0.99], method="fdr_by").max() == 1.0


def test_holm_by_hand():
    # sorted 0.01, 0.03, 0.04 -> 3*0.01 = 0.03, max(0.03, 2*0.03) = 0.06, max(0.06, 1*0.04) = 0.06
    assert adjust_pvalues([0.01, 0.04, 0.03], method="holm").tolist() == pytest.approx([0.03, 0.06, 0.06])


def test_nan_pvalues_stay_nan_and_do_not_count():
    adj = adjust_pvalues([0.01, float("nan"), 0.02], method="bonferroni")
    assert np.isnan(adj[1])
    assert adj[[0, 2]].tolist() == pytest.approx([0.02, 0.04])


def test_adjust_rejects_bad_input():
    with pytest.raises(AssessError, match=r"`method` must be one of 'bonferroni', 'holm', 'fdr_bh', 'fdr_by' "
                                          r"\(got 'sidak'\)"):
        adjust_pvalues([0.1], method="sidak")
    with pytest.raises(AssessError, match=r"`pvalues` must be in \[0, 1\]; 1 is not \(first at index 1: 1.5\)"):
        adjust_pvalues([0.1, 1.5])


def test_pvalue_matrix_is_symmetric_and_adjusted_together():
    raw = {("A", "B"): 0.01, ("A", "C"): 0.04, ("B", "C"): 0.03}
    mat = pvalue_matrix(raw, correction="holm")
    assert list(mat.index) == ["A", "B", "C"] and list(mat.columns) == ["A", "B", "C"]
    assert mat.loc["A", "B"] == pytest.approx(0.03) and mat.loc["B", "A"] == pytest.approx(0.03)
    assert mat.loc["C", "A"] == pytest.approx(0.06) and mat.loc["B", "C"] == pytest.approx(0.06)
    assert np.isnan(np.diag(mat.to_numpy())).all()
    assert pvalue_matrix(raw, correction=None).loc["A", "C"] == 0.04


def test_pvalue_matrix_rejects_unknown_models():
    with pytest.raises(AssessError, match=r"pair \('A', 'Z'\) names model 'Z', which is not in `models`"):
        pvalue_matrix({("A", "Z"): 0.1}, models=["A", "B"])
