"""AppTest of the Data page on files real tools write: the recognition message, the inverted-score warning with its
one-click flip, and per-class score columns mapped by hand (the Streamlit script runs for real, in-process)."""

import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score

from tests.conftest import open_app
from tests.views.test_data import plain, upload, widget

RNG = np.random.default_rng(5)
N = 120
Y = RNG.integers(0, 2, N)
P = 1 / (1 + np.exp(-(2.5 * Y - 1.25 + RNG.normal(0, 1, N))))  # P(positive) of a decent model


def _vector(row) -> str:
    return "[" + ",".join(str(float(x)) for x in row) + "]"


def test_spark_vector_column_is_recognised_and_said():
    frame = pd.DataFrame({"label": Y.astype(float), "probability": [_vector((1 - p, p)) for p in P],
                          "prediction": (P >= 0.5).astype(float)})
    at = upload(open_app(), "spark.csv", frame.to_csv(index=False).encode())
    notes = [plain(i.value) for i in at.info]
    assert any(n.startswith("column `probability` holds a vector of 2 numbers per row") and
               "`probability_0` and `probability_1`" in n for n in notes)
    assert widget(at, "selectbox", "role_y_true_").value == "label"
    assert widget(at, "selectbox", "role_y_pred_").value == "prediction"
    assert any("one probability column per class" in plain(c.value) for c in at.caption)
    assert not at.error


def test_inverted_score_is_flipped_in_one_click():
    frame = pd.DataFrame({"y_true": Y, "score": 1 - P})
    at = upload(open_app(), "inverted.csv", frame.to_csv(index=False).encode())
    warnings = [plain(w.value) for w in at.warning if "looks inverted" in plain(w.value)]
    assert len(warnings) == 1 and f"is {roc_auc_score(Y, 1 - P):.2f}" in warnings[0]
    [flip] = [b for b in at.button if b.key == "flip_score"]
    flip.click().run()
    assert not at.exception
    assert not [w for w in at.warning if "looks inverted" in plain(w.value)]
    assert any("read as 1 − `score`" in plain(w.value) for w in at.warning)
    assessment = at.session_state["assessment"]
    assert roc_auc_score(assessment.predictions().y_true, assessment.predictions().scores) == \
        roc_auc_score(Y, P)


def test_class_score_columns_mapped_by_hand():
    frame = pd.DataFrame({"y_true": Y, "benign": 1 - P, "malignant": P})  # names that are not the classes 0/1
    at = upload(open_app(), "hand.csv", frame.to_csv(index=False).encode())
    widget(at, "selectbox", "class_score_0_").set_value("benign").run()
    widget(at, "selectbox", "class_score_1_").set_value("malignant").run()
    assert not at.exception
    assessment = at.session_state["assessment"]
    assert dict(assessment.roles.class_scores) == {"0": "benign", "1": "malignant"}
    assert roc_auc_score(assessment.predictions().y_true, assessment.predictions().scores) == roc_auc_score(Y, P)
