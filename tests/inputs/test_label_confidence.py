"""PyCaret's `prediction_score` (the probability of the *predicted* class) read as per-class probabilities
(`assess.inputs.label_confidence`). Oracle: scikit-learn's ROC AUC and log loss on the positive class's true probability,
from which the PyCaret-style file is written."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import log_loss, roc_auc_score

from assess.core.data import Task
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.metrics.evaluate import evaluate


def pycaret_frame(n=500, seed=4, labels=(0, 1)):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    p = np.clip(y * 0.3 + rng.random(n) * 0.7, 0.001, 0.999)        # probability of the positive class
    predicted = p >= 0.5
    truth = np.where(y, labels[1], labels[0])
    frame = pd.DataFrame({"age": rng.integers(18, 80, n), "Churn": truth,
                          "prediction_label": np.where(predicted, labels[1], labels[0]),
                          "prediction_score": np.where(predicted, p, 1 - p)})
    return frame, y, p


def described(frame):
    return describe(read_table(frame.to_csv(index=False).encode(), name="pycaret.csv"))


@pytest.mark.parametrize("labels", [(0, 1), ("No", "Yes")])
def test_pycaret_output_is_assessed_with_the_positive_class_probability(labels):
    frame, y, p = pycaret_frame(labels=labels)
    a = described(frame)
    assert a.task is Task.BINARY and a.roles.y_true == "Churn" and a.positive == str(labels[1])
    assert dict(a.roles.class_scores) == {str(labels[0]): f"prediction_score_{labels[0]}",
                                          str(labels[1]): f"prediction_score_{labels[1]}"}
    assert any("probability of the predicted class" in n for n in a.table.notes)
    values = evaluate(a.predictions(a.models[0]), ["roc_auc", "log_loss"]).values
    assert values["roc_auc"] == pytest.approx(roc_auc_score(y, p), abs=1e-12)
    assert values["log_loss"] == pytest.approx(log_loss(y, p), abs=1e-9)


def test_more_than_two_classes_leave_the_score_alone():
    frame = pd.DataFrame({"y_true": list("abcabc"), "prediction_label": list("abcbca"),
                          "prediction_score": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]})
    a = described(frame)
    assert "prediction_score" in a.table.frame.columns and not a.table.notes


def test_a_score_outside_0_1_or_a_missing_label_is_handled():
    frame, _, _ = pycaret_frame(n=40)
    frame.loc[3, "prediction_score"] = 1.5
    table = read_table(frame.to_csv(index=False).encode(), name="p.csv")
    assert "prediction_score" in table.frame.columns and not table.notes      # not a probability: left as it is
    frame, _, _ = pycaret_frame(n=40)
    frame.loc[5, "prediction_label"] = None
    out = read_table(frame.to_csv(index=False).encode(), name="p.csv").frame
    assert np.isnan(out.loc[5, "prediction_score_1"]) and np.isnan(out.loc[5, "prediction_score_0"])
