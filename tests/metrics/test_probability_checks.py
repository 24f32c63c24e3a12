"""One probability check (assess.inputs.probabilities) behind the input validation and the metrics: both name the
same cell with the same row number (from 1, as the file's data rows) and in the same words. Expected rows and values
are read off the hand-built files below."""

import numpy as np
import pandas as pd
import pytest

from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.metrics import evaluate


def assessment_of(frame: pd.DataFrame):
    return describe(read_table(frame.to_csv(index=False).encode(), name="p.csv"))


def test_a_score_outside_0_1_is_the_same_row_for_the_data_check_and_the_metric():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"y_true": rng.integers(0, 2, 40), "score": rng.random(40).round(3)})
    frame.loc[16, "score"] = 1.4                # the 17th data row
    frame.loc[30, "score"] = -0.5
    a = assessment_of(frame)
    (problem,) = [p for p in a.problems if p.code == "score_out_of_range"]
    sentence = "column `score` has 2 values outside [0, 1] (first at row 17: `1.4`)"
    assert problem.message.startswith(sentence) and problem.rows == (17, 31)
    reason = evaluate(a.predictions(), keys=["log_loss"]).reasons["log_loss"]
    assert reason == "the score column has 2 values outside [0, 1] (first at row 17: `1.4`): the scores are not " \
                     "probabilities"


def test_class_probabilities_name_the_class_column_and_the_row_from_1():
    rng = np.random.default_rng(1)
    proba = rng.dirichlet([1, 1, 1], size=40).round(6)
    proba[4] = [0.2, 1.3, -0.5]                 # the 5th data row: outside [0, 1] in two columns, sums to 1
    proba[9] *= 0.8                             # the 10th: sums to 0.8
    frame = pd.DataFrame({"y_true": rng.choice(list("abc"), 40), "y_pred": rng.choice(list("abc"), 40),
                          **{f"proba_{k}": proba[:, i] for i, k in enumerate("abc")}})
    a = assessment_of(frame)
    outside = [p.message for p in a.problems if p.code == "score_out_of_range"]
    assert outside[0].startswith("column `proba_b` has 1 value outside [0, 1] (row 5: `1.3`)")
    (sums,) = [p for p in a.problems if p.code == "proba_not_normalised"]
    assert sums.message.startswith("the file has 1 row whose class probabilities do not sum to 1 (row 10: `sum 0.8`)")
    r = evaluate(a.predictions(), keys=["log_loss"])
    assert r.reasons["log_loss"] == ("the score column of class `b` has 2 values outside [0, 1] (first at row 5: "
                                     "`1.3`): the scores are not probabilities")


def test_the_shared_checks_in_metrics_common_are_gone():
    """The never-called copies in assess.metrics._common were a second home for the same check."""
    from assess.metrics import _common
    assert not hasattr(_common, "proba_problem") and not hasattr(_common, "row_sum_problem")


def test_docstring_examples():
    import doctest

    from assess.inputs import probabilities
    result = doctest.testmod(probabilities)
    assert result.attempted > 0 and result.failed == 0


def test_the_calibration_curve_and_the_brier_loss_use_the_one_check():
    """The calibration curve and the tests' per-sample Brier loss said "index 1" (from 0) and "scores from -0.5 to
    1.4"; they now say what validation and the metrics say: the count, the first row from 1, its value."""
    import numpy as np

    from assess.core.data import Predictions, Task
    from assess.core.errors import AssessError
    from assess.curves.calibration import calibration_curve
    from assess.stats.shaping import sample_losses

    scores = np.array([0.2, 1.4, 0.9, -0.5])
    with pytest.raises(ValueError, match=r"`score` has 2 values outside \[0, 1\] \(first at row 2: `1.4`\)"):
        calibration_curve([0, 1, 1, 0], scores)
    pred = Predictions(Task.BINARY, ("n", "p"), np.array([0, 1, 1, 0], dtype=np.int8), None, scores, model="A")
    with pytest.raises(AssessError, match=r"the scores of model `A` has 2 values outside \[0, 1\] \(first at row 2"):
        sample_losses(pred, loss="brier")


def test_a_row_just_off_one_shows_the_digits_that_are_off():
    """The wine sample's probabilities, written with 6 decimals, sum to 0.999999 on some rows: the log-loss note once
    read "do not sum to 1 (first at row 8: `sum 1`)". The hand-made row 2 below sums to 0.999999 (0.5 + 0.499999)."""
    from assess.inputs.probabilities import rows_not_summing_to_one
    scores = np.array([[0.5, 0.5], [0.5, 0.499999]])
    found = rows_not_summing_to_one(scores, "the score table", tolerance=1e-8)
    assert found.message == "the score table has 1 row whose class probabilities do not sum to 1 (row 2: " \
                            "`sum 0.999999`)"
