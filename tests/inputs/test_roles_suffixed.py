"""Predictions named by a suffix, as notebooks write them (``gbm_proba``, ``logreg_pred``, ``cat_proba``): read as
wide models or per-class scores when no column is found by name or prefix; metrics checked against scikit-learn."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score, mean_absolute_error, roc_auc_score

from assess.core.data import Task
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.metrics.evaluate import evaluate


def described(frame: pd.DataFrame):
    return describe(read_table(frame.to_csv(index=False).encode(), name="notebook.csv"))


def churn(n=400, seed=3):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return y, np.clip(y * 0.35 + rng.random(n) * 0.65, 0, 1), np.clip(y * 0.2 + rng.random(n) * 0.8, 0, 1)


def test_model_suffixes_make_a_wide_table_with_sklearn_aucs():
    y, gbm, logreg = churn()
    label = np.where(y, "Customer churned within 90 days", "Stayed")
    a = described(pd.DataFrame({"label": label, "gbm_proba": gbm, "logreg_proba": logreg}))
    assert a.task is Task.BINARY and a.models == ("gbm", "logreg")
    assert "`<model>_pred`/`<model>_proba` for 2 models (`gbm`, `logreg`)" in a.roles.reason("wide_models")
    assert a.positive == "Customer churned within 90 days"
    for model, score in (("gbm", gbm), ("logreg", logreg)):
        auc = evaluate(a.predictions(model), ["roc_auc"]).values["roc_auc"]
        assert auc == pytest.approx(roc_auc_score(y, score), abs=1e-12)


def test_label_and_score_suffixes_pair_up_per_model():
    y, gbm, logreg = churn()
    a = described(pd.DataFrame({"y": y.astype(int), "gbm_pred": (gbm >= 0.5).astype(int), "gbm_proba": gbm,
                                "logreg_pred": (logreg >= 0.5).astype(int)}))
    assert a.models == ("gbm", "logreg")
    p = a.predictions("gbm")
    assert p.scores is not None and a.predictions("logreg").scores is None
    acc = evaluate(a.predictions("logreg"), ["accuracy"]).values["accuracy"]
    assert acc == pytest.approx(accuracy_score(y.astype(int), (logreg >= 0.5).astype(int)), abs=1e-12)


def test_class_suffixes_are_per_class_scores():
    rng = np.random.default_rng(0)
    p = rng.dirichlet([1, 1, 1], size=300)
    classes = np.array(["cat", "dog", "emu"])
    y = classes[rng.integers(0, 3, 300)]
    a = described(pd.DataFrame({"y_true": y, "cat_proba": p[:, 0], "dog_proba": p[:, 1], "emu_proba": p[:, 2]}))
    assert a.task is Task.MULTICLASS and len(a.models) == 1
    assert dict(a.roles.class_scores) == {"cat": "cat_proba", "dog": "dog_proba", "emu": "emu_proba"}
    auc = evaluate(a.predictions(a.models[0]), ["roc_auc_ovr"]).values["roc_auc_ovr"]
    assert auc == pytest.approx(roc_auc_score(y, p, multi_class="ovr", labels=classes), abs=1e-12)


def test_regression_models_by_suffix():
    rng = np.random.default_rng(1)
    y = rng.normal(size=200)
    ridge, lasso = y + rng.normal(scale=0.3, size=200), y + rng.normal(scale=0.5, size=200)
    a = described(pd.DataFrame({"y_true": y, "ridge_pred": ridge, "lasso_pred": lasso}))
    assert a.task is Task.REGRESSION and a.models == ("ridge", "lasso")
    mae = evaluate(a.predictions("lasso"), ["mae"]).values["mae"]
    assert mae == pytest.approx(mean_absolute_error(y, lasso), abs=1e-12)


def test_a_named_prediction_column_wins_over_suffixes():
    y, gbm, logreg = churn()
    a = described(pd.DataFrame({"y_true": y.astype(int), "score": gbm, "old_score": logreg}))
    assert a.roles.score == "score" and not a.roles.wide_models


def test_a_spreadsheet_with_a_title_and_a_class_named_probability(tmp_path):
    """Found on a user walk: an .xlsx exported for people — a title and a blank row above the table, and the score
    headed "Fraud probability" — ended in an internal error (two unnamed columns), and then had no score."""
    y, p, _ = churn(n=300, seed=8)
    path = tmp_path / "titled.xlsx"
    with pd.ExcelWriter(path) as writer:
        pd.DataFrame([["Model validation export, Q3"], [""]]).to_excel(writer, index=False, header=False)
        pd.DataFrame({"Actual": np.where(y, "fraud", "legit"), "Predicted": np.where(p >= 0.5, "fraud", "legit"),
                      "Fraud probability": p}).to_excel(writer, index=False, startrow=3)
    table = read_table(path)
    assert list(table.frame.columns) == ["Actual", "Predicted", "Fraud probability"] and len(table.frame) == 300
    assert any("rows 1–3 above the table (a title, not data) skipped; the header is row 4" in n for n in table.notes)
    a = describe(table)
    assert dict(a.roles.class_scores) == {"fraud": "Fraud probability"} and a.positive == "fraud"
    auc = evaluate(a.predictions(a.models[0]), ["roc_auc"]).values["roc_auc"]
    assert auc == pytest.approx(roc_auc_score(y, p), abs=1e-12)


def test_two_unnamed_header_cells_are_refused_by_position_not_a_crash(tmp_path):
    path = tmp_path / "blank.xlsx"
    pd.DataFrame([["y_true", None, None], [1, 0.5, 3], [0, 0.2, 4]]).to_excel(path, index=False, header=False)
    from assess.core.errors import InputError
    with pytest.raises(InputError, match="column 2 has no name in the header"):
        read_table(path)
