"""Undefined is NaN with a reason that reaches the caller; the report API; boundary validation messages."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from assess.core.data import Predictions, Task
from assess.core.decision import Decision
from assess.core.warnings import UndefinedMetricWarning
from assess.metrics import binary as binary_metrics
from assess.metrics import evaluate

pytestmark = pytest.mark.filterwarnings("ignore")


def binary(y, yp=None, s=None, w=None):
    return Predictions(Task.BINARY, ("neg", "pos"), np.asarray(y, np.int8),
                       None if yp is None else np.asarray(yp, np.int8),
                       None if s is None else np.asarray(s, float), weight=w)


def test_no_predicted_positive_at_threshold_gives_nan_and_the_reason():
    r = evaluate(binary([0, 1, 1, 0], s=[0.1, 0.8, 0.7, 0.2]), decision=Decision.from_scores(0.9))
    assert math.isnan(r["precision"].value)
    assert r.reasons["precision"] == "no predicted positives at threshold 0.9"
    assert r.reasons["fdr"] == "no predicted positives at threshold 0.9"
    assert r.to_dict()["precision"] is None
    assert r["recall"].value == 0.0 and "recall" not in r.reasons       # defined: 0 of 2 found


def test_auc_with_one_class_is_nan_with_reason():
    r = evaluate(binary([1, 1, 1], s=[0.2, 0.5, 0.9]))
    for key in ("roc_auc", "ks_statistic"):
        assert math.isnan(r[key].value)
        assert "only one class" in r.reasons[key]
    assert r["average_precision"].value == 1.0            # defined with positives only, as scikit-learn


def test_likelihood_ratios_and_odds_ratio_reasons():
    r = evaluate(binary([1, 1, 0, 0, 1], yp=[1, 0, 0, 0, 1]))          # FP = 0
    assert math.isnan(r["lr_plus"].value)
    assert r.reasons["lr_plus"].startswith("FPR is 0 (no false positives in y_pred)")
    assert math.isnan(r["diagnostic_odds_ratio"].value)
    assert "zero cell: FP = 0, FN = 1" in r.reasons["diagnostic_odds_ratio"]
    assert r["lr_minus"].value == pytest.approx((1 / 3) / 1.0)
    r = evaluate(binary([1, 1, 0, 0], yp=[1, 1, 1, 1]))                 # TN = 0
    assert r.reasons["lr_minus"].startswith("specificity is 0")


def test_mcc_and_kappa_with_a_constant_prediction():
    r = evaluate(binary([0, 1, 1, 0], yp=[1, 1, 1, 1]))
    assert math.isnan(r["mcc"].value)
    assert "a row or column of the confusion matrix is empty" in r.reasons["mcc"]
    assert r["cohen_kappa"].value == 0.0
    r = evaluate(binary([1, 1, 1], yp=[1, 1, 1]))
    assert "chance agreement is 1" in r.reasons["cohen_kappa"]


def test_kl_divergence_infinite_is_nan_with_the_missing_class():
    r = evaluate(binary([0, 1, 1, 0], yp=[0, 0, 0, 0]))
    assert math.isnan(r["kl_divergence"].value)
    assert r.reasons["kl_divergence"] == ("class 'positive' occurs in y_true but is never predicted in y_pred: "
                                          "D(P_true || P_pred) is infinite")


def test_kl_divergence_value_in_nats_by_hand():
    # P = (1/2, 1/2) true, Q = (1/4, 3/4) predicted: 0.5 ln 2 + 0.5 ln(2/3)
    r = evaluate(binary([1, 1, 0, 0], yp=[1, 0, 0, 0]), keys=["kl_divergence"])
    assert r["kl_divergence"].value == pytest.approx(0.5 * np.log(2) + 0.5 * np.log(2 / 3))


def test_probability_metrics_need_probabilities_and_scores():
    r = evaluate(binary([0, 1], s=[-1.0, 2.0]))
    assert math.isnan(r["log_loss"].value)
    assert r.reasons["log_loss"] == ("the score column has 2 values outside [0, 1] (first at row 1: `-1.0`): the "
                                     "scores are not probabilities")
    assert r["roc_auc"].value == 1.0
    r = evaluate(binary([0, 1], yp=[0, 1]), keys=["roc_auc", "accuracy"])
    assert r.reasons == {"roc_auc": "ROC AUC needs scores and none were given"}
    assert "roc_auc" not in evaluate(binary([0, 1], yp=[0, 1])).keys      # default: only what the data support


def test_multiclass_macro_average_leaves_undefined_classes_out_with_a_note():
    y = np.array([0, 1, 2, 2])
    yp = np.array([0, 1, 1, 1])              # class 2 never predicted
    r = evaluate(Predictions(Task.MULTICLASS, ("a", "b", "c"), y, yp))
    assert r["precision_macro"].value == pytest.approx((1 + 1 / 3) / 2)
    assert r.notes["precision_macro"] == ("precision is undefined for class 'c' (never predicted in y_pred); the "
                                          "macro average leaves it out")
    assert math.isnan(r.table.loc["c", "precision"])
    assert math.isnan(r["kl_divergence"].value) and "'c'" in r.reasons["kl_divergence"]


def test_multiclass_rows_not_summing_to_one_get_a_note_not_a_silent_renormalisation():
    P = np.array([[0.7, 0.2, 0.3], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6]])
    r = evaluate(Predictions(Task.MULTICLASS, ("a", "b", "c"), np.array([0, 1, 2]), None, P), keys=["log_loss"])
    assert r["log_loss"].value == pytest.approx(-np.mean(np.log([0.7, 0.8, 0.6])))
    assert r.notes["log_loss"] == ("the score table has 1 row whose class probabilities do not sum to 1 (row 1: "
                                   "`sum 1.2`); the value uses them as given")


def test_formula_functions_warn_for_direct_callers():
    s = binary_metrics.BinaryState(tp=0.0, fp=0.0, tn=3.0, fn=2.0, labels_from="at threshold 0.7")
    with pytest.warns(UndefinedMetricWarning, match="no predicted positives at threshold 0.7"):
        assert math.isnan(binary_metrics.precision(s))
    batch = binary_metrics.BinaryState(tp=np.array([0.0, 1.0]), fp=np.array([0.0, 1.0]), tn=np.ones(2), fn=np.ones(2), batch=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = binary_metrics.precision(batch)
    assert math.isnan(out[0]) and out[1] == 0.5


# ----------------------------------------------------------------------------------------------------------------
# the report
# ----------------------------------------------------------------------------------------------------------------

def test_report_frame_dict_and_lookup():
    r = evaluate(binary([0, 1, 1, 0, 1], s=[0.2, 0.9, 0.4, 0.6, 0.7]), ci="wilson")
    f = r.to_frame()
    assert list(f.columns) == ["key", "name", "value", "low", "high", "method", "reason", "note",
                               "baseline_majority", "baseline_stratified", "baseline_uniform"]
    assert list(f["key"]) == list(r.keys)
    d = r.to_dict(with_ci=True)
    assert set(d["accuracy"]) == {"value", "low", "high"}
    assert d["tp"] == {"value": 2.0, "low": None, "high": None}
    assert r.task == Task.BINARY and r.n == 5 and r.params["decision"] == Decision() and r.ci == "wilson"
    assert r.table is None
    with pytest.raises(KeyError, match="'nope' is not in this report"):
        r["nope"]
    with pytest.raises(Exception):
        r.task = Task.MULTICLASS                          # frozen


def test_table_is_a_dataframe_indexed_by_class_name():
    P = np.array([[0.7, 0.3], [0.4, 0.6], [0.2, 0.8]])
    P3 = np.column_stack([P, np.zeros(3)])
    r = evaluate(Predictions(Task.MULTICLASS, ("x", "y", "z"), np.array([0, 1, 1]), None, P3))
    assert isinstance(r.table, pd.DataFrame) and list(r.table.index) == ["x", "y", "z"]
    assert r.table.index.name == "class"
    assert r.table.loc["y", "support"] == 2


# ----------------------------------------------------------------------------------------------------------------
# validation at the boundary
# ----------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kw, message", [
    (dict(beta=0), r"`beta` must be > 0 \(got 0\)"),
    (dict(k=0), r"`k` must be an integer >= 1 \(got 0\)"),
    (dict(ci="bca"), r"`ci` must be one of \[None, 'wilson'"),
    (dict(confidence_level=95), r"`confidence_level` must be in \(0, 1\) \(got 95\)"),
    (dict(n_resamples=0), r"`n_resamples` must be a positive integer \(got 0\)"),
    (dict(keys=["accuracy", "auc"]), r"unknown binary metric 'auc'; valid keys:"),
])
def test_bad_options_name_the_parameter_and_the_value(kw, message):
    with pytest.raises(ValueError, match=message):
        evaluate(binary([0, 1], s=[0.2, 0.8]), **kw)


def test_a_threshold_is_not_a_decision():
    with pytest.raises(TypeError, match=r"`decision` must be an assess.core.decision.Decision \(got float\)"):
        evaluate(binary([0, 1], s=[0.2, 0.8]), decision=0.5)
    with pytest.raises(ValueError, match=r"a threshold must be a finite number \(got nan\)"):
        Decision.from_scores(float("nan"))


def test_bad_predictions_are_rejected_with_the_row():
    with pytest.raises(ValueError, match=r"`y_true` must hold 0/1 codes for a binary task \(got 1 other values, "
                                         r"first at row 2: 2\)"):
        evaluate(Predictions(Task.BINARY, ("a", "b"), np.array([0, 1, 2]), np.array([0, 1, 1])))
    with pytest.raises(ValueError, match=r"`y_pred` must hold codes 0..2 for 3 classes \(got 1 other values, "
                                         r"first at row 1: 5\)"):
        evaluate(Predictions(Task.MULTICLASS, ("a", "b", "c"), np.array([0, 1]), np.array([0, 5])))
    with pytest.raises(ValueError, match=r"`scores` must have shape \(2, 3\) \(got \(2, 2\)\)"):
        evaluate(Predictions(Task.MULTICLASS, ("a", "b", "c"), np.array([0, 1]), None, np.ones((2, 2))))
    with pytest.raises(ValueError, match=r"`pred.y_true` is empty"):
        evaluate(Predictions(Task.BINARY, ("a", "b"), np.array([], np.int8), np.array([], np.int8)))
    with pytest.raises(ValueError, match="neither `y_pred` nor `scores`"):
        evaluate(Predictions(Task.BINARY, ("a", "b"), np.array([0, 1], np.int8)))
    with pytest.raises(ValueError, match=r"`y_pred` has 1 row without a cluster \(first at row 1\)"):
        evaluate(Predictions(Task.CLUSTERING, (), None, np.array([0, -1])))
