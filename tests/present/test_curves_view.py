"""The Curves page's computations (assess/present/curves_view.py) against scikit-learn and hand counts."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.present import curves_view as cv
from tests.conftest import ROOT

PATH = ROOT / "assets" / "samples" / "breast_cancer_binary.csv"


@pytest.fixture(scope="module")
def assessment():
    return describe(read_table(PATH))


def test_auc_interval_is_sklearns_auc(assessment):
    model = assessment.models[0]
    pred = assessment.predictions(model)
    positive = pred.y_true == assessment.classes.index(assessment.positive) if pred.y_true.dtype != bool \
        else pred.y_true
    r = cv.curves(assessment, (model,), "").auc_ci[model]
    assert r.value == pytest.approx(roc_auc_score(positive, pred.scores), abs=1e-12)
    assert r.low <= r.value <= r.high


def test_decile_table_counts_every_row_and_positive(assessment):
    scored = {m: cv.scored(assessment, m) for m in assessment.models}
    table = cv.decile_table(scored, 10)
    frame = pd.read_csv(PATH)
    for m, rows in frame.groupby("model"):
        mine = table[table.model == m]
        assert len(mine) == 10 and mine.rows.sum() == len(rows)
        positives = (rows.y_true.astype(str) == str(assessment.positive)).sum()
        assert mine.positives.sum() == pytest.approx(positives)
        assert mine.cumulative_gain.iloc[-1] == pytest.approx(1.0)


def test_threshold_rates_leave_out_the_counts():
    rates = cv.threshold_rates()
    assert {"precision", "recall", "f1"} <= set(rates) and not {"tp", "fp", "tn", "fn"} & set(rates)
    assert np.all([isinstance(v, str) for v in rates.values()])


def test_explorer_table_counts_the_rows_at_the_threshold(assessment):
    """TP/FP/TN/FN at a threshold against a hand count of score ≥ threshold in the file, and the range of the scores."""
    from sklearn.metrics import precision_score
    models = tuple(assessment.models)
    c = cv.curves(assessment, models, "")
    table, formats = cv.explorer_table(c, 0.5)
    frame = pd.read_csv(PATH)
    score = next(col for col in frame.columns if col.startswith(("score", "proba", "y_score")))
    assert c.low == pytest.approx(frame[score].min()) and c.high == pytest.approx(frame[score].max())
    for m, rows in frame.groupby("model"):
        row = table.set_index("model").loc[m]
        truth = rows.y_true.astype(str) == str(assessment.positive)
        flagged = rows[score] >= 0.5
        assert (row.tp, row.fp, row.fn) == ((truth & flagged).sum(), (~truth & flagged).sum(), (truth & ~flagged).sum())
        assert row.precision == pytest.approx(precision_score(truth, flagged))
    assert formats["tp"] is not formats["precision"]
