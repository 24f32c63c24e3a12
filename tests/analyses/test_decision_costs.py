"""assess.analyses.decision_costs: the one rule for a cost matrix and the one expected cost (the Confusion page's and
the report's). Oracles: scikit-learn's confusion_matrix (with sample weights) times the cost matrix; the hand-worked
example of the docstring; Elkan (2001) Theorem 1 for the row shift."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import confusion_matrix as sk_confusion_matrix

from assess.analyses.decision_costs import confusions, cost_matrix, expected_cost
from assess.core.decision import Decision
from assess.core.errors import AssessError
from assess.inputs.assessment import describe
from assess.inputs.read import read_table


def test_a_negative_cell_is_a_benefit_and_kept():
    np.testing.assert_array_equal(cost_matrix([[0, 1], [5, -2]], ["no", "yes"]), [[0, 1], [5, -2]])


@pytest.mark.parametrize("values, message", [
    ([[0, 1], [1, float("nan")]], r"1 cell that is not a finite number \(first: true `yes`, predicted `yes`: nan\)"),
    ([[0, float("inf")], [1, float("-inf")]],
     r"2 cells that are not a finite number \(first: true `no`, predicted `yes`"),
    ([[0, 1, 1], [1, 0, 1], [1, 1, 0]], r"the cost matrix is 3 × 3 but there are 2 classes \(`no`, `yes`\)"),
    ([1, 2], r"the cost matrix is 2 but there are 2 classes"),
])
def test_what_is_refused_names_the_cell_or_the_shape(values, message):
    with pytest.raises(AssessError, match=message):
        cost_matrix(values, ["no", "yes"])


def test_expected_cost_by_hand_and_undefined_without_samples():
    # 90 + 10 + 5 + 95 = 200 samples; cost 10·1 + 5·10 = 60 → 0.3 per sample
    assert expected_cost([[90, 10], [5, 95]], [[0, 1], [10, 0]]) == pytest.approx(0.3)
    assert np.isnan(expected_cost(np.zeros((2, 2)), [[0, 1], [1, 0]]))


def test_weighted_expected_cost_equals_scikit_learn_and_a_row_shift_moves_it_by_the_class_share(tmp_path):
    rng = np.random.default_rng(3)
    n, classes = 300, np.array(["a", "b", "c"])
    y = rng.integers(0, 3, n)
    p = np.where(rng.random(n) < 0.6, y, rng.integers(0, 3, n))
    w = rng.random(n) * 2
    path = tmp_path / "w.csv"
    pd.DataFrame({"y_true": classes[y], "y_pred": classes[p], "weight": w}).to_csv(path, index=False)
    a = describe(read_table(path))
    costs = np.array([[0.0, 2.0, 3.0], [1.0, -1.0, 4.0], [5.0, 1.0, 0.0]])
    found = confusions(a, list(a.models), decision=Decision(), costs=costs)
    cm = sk_confusion_matrix(y, p, labels=[0, 1, 2], sample_weight=w)
    (model,) = found.models
    np.testing.assert_allclose(model.matrix, cm, rtol=1e-12)
    assert model.expected == pytest.approx((cm * costs).sum() / cm.sum(), rel=1e-12)
    # Elkan 2001, Theorem 1: adding 7 to row b adds 7 × (share of weight whose truth is b), the same for every model
    shifted = confusions(a, list(a.models), costs=costs + 7.0 * (np.arange(3) == 1)[:, None]).models[0]
    assert shifted.expected - model.expected == pytest.approx(7.0 * w[y == 1].sum() / w.sum(), rel=1e-12)


def test_docstring_examples():
    import doctest

    from assess.analyses import decision_costs
    result = doctest.testmod(decision_costs)
    assert result.attempted > 0 and result.failed == 0
