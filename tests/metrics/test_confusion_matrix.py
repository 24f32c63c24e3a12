"""The one confusion matrix (assess.metrics.multiclass.confusion_matrix): scikit-learn's confusion_matrix is the
oracle, with and without sample weights; a code outside the classes is an error, never a dropped or misplaced count."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix as sk_confusion_matrix

from assess.metrics.multiclass import confusion_matrix


@settings(max_examples=60, deadline=None)
@given(k=st.integers(2, 6), n=st.integers(1, 200), seed=st.integers(0, 2**32 - 1), weighted=st.booleans())
def test_matches_scikit_learn(k, n, seed, weighted):
    rng = np.random.default_rng(seed)
    y, p = rng.integers(0, k, n), rng.integers(0, k, n)
    w = rng.random(n) * 3 if weighted else None
    np.testing.assert_allclose(confusion_matrix(y, p, k, w),
                               sk_confusion_matrix(y, p, labels=list(range(k)), sample_weight=w), rtol=1e-12)


@pytest.mark.parametrize("y_true, y_pred, name, row, code", [
    ([0, 1, 2, 1], [0, -1, 2, 1], "y_pred", 2, -1),      # a missing prediction: was silently dropped (explore)
    ([0, 1, 2, 1], [0, 1, 2, 3], "y_pred", 4, 3),        # a label the encoding does not know: was counted in (2, 0)
    ([0, -1, 2, 1], [0, 1, 2, 1], "y_true", 2, -1),
])
def test_a_code_outside_the_classes_is_an_error_naming_the_row(y_true, y_pred, name, row, code):
    with pytest.raises(ValueError, match=rf"`{name}` has 1 code outside the 3 classes \(0 to 2; first at row "
                                         rf"{row}: {code}\)"):
        confusion_matrix(np.array(y_true), np.array(y_pred), 3)


def test_is_the_only_confusion_matrix_of_the_package():
    """Pages, report and metrics import this one: the Confusion page's old copy in operating_points is gone."""
    import assess.analyses.operating_points as op
    assert not hasattr(op, "confusion_matrix")


def test_docstring_example():
    import doctest

    from assess.metrics import multiclass
    result = doctest.testmod(multiclass)
    assert result.attempted > 0 and result.failed == 0
