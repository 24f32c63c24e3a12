"""A score of the *predicted* label, as PyCaret's ``predict_model`` writes it, turned into per-class probabilities.

PyCaret writes ``prediction_label`` (the predicted class) and ``prediction_score`` — the probability of the predicted
class, not of the positive one. Read as a positive-class score it would rank every confident negative as a likely
positive, and its ROC AUC would be meaningless. With two classes the probabilities of both are known: the predicted
class has the score, the other one 1 − score. So at read time, here and nowhere else, ``prediction_score`` becomes
``prediction_score_<class>`` for each class — the names of PyCaret's own ``raw_score=True`` output, which role
detection (`assess.inputs.roles`) reads as per-class scores — with a note that says so. With more than two classes the
other classes' probabilities are not in the file: the column is left as it is (it gets no role, and the Data page
says how to name class probabilities).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from assess.inputs.columns import is_numeric, label_strings, sort_labels

__all__ = ["expand_label_confidence", "LABEL_COLUMN", "CONFIDENCE_COLUMN"]

#: PyCaret's column names (``predict_model``, PyCaret 3).
LABEL_COLUMN = "prediction_label"
CONFIDENCE_COLUMN = "prediction_score"


def expand_label_confidence(frame: pd.DataFrame) -> tuple[pd.DataFrame, tuple[str, ...]]:
    """``frame`` with PyCaret's ``prediction_score`` (the predicted class's probability) replaced by one probability
    column per class, when ``prediction_label`` holds two classes; else ``frame`` unchanged. Rows without a label or a
    score are empty in both columns.

    >>> f, notes = expand_label_confidence(pd.DataFrame({"y": [1, 0, 1], "prediction_label": [1, 0, 0],
    ...                                                  "prediction_score": [0.9, 0.8, 0.6]}))
    >>> list(f.columns), f["prediction_score_1"].round(3).tolist(), f["prediction_score_0"].round(3).tolist()
    (['y', 'prediction_label', 'prediction_score_0', 'prediction_score_1'], [0.9, 0.2, 0.4], [0.1, 0.8, 0.6])
    """
    if LABEL_COLUMN not in frame.columns or CONFIDENCE_COLUMN not in frame.columns:
        return frame, ()
    score = frame[CONFIDENCE_COLUMN]
    if not is_numeric(score):
        return frame, ()
    labels = label_strings(frame[LABEL_COLUMN])
    classes = sort_labels(labels.dropna().unique())
    values = score.to_numpy(np.float64)
    finite = values[np.isfinite(values)]
    if len(classes) != 2 or len(finite) == 0 or finite.min() < 0 or finite.max() > 1:
        return frame, ()
    names = [f"{CONFIDENCE_COLUMN}_{c}" for c in classes]
    if any(n in frame.columns for n in names):
        return frame, ()
    present = labels.notna().to_numpy()
    per_class = {}
    for c, n in zip(classes, names):
        predicted = (labels == c).to_numpy()
        per_class[n] = np.where(present, np.where(predicted, values, 1.0 - values), np.nan)
    at = list(frame.columns).index(CONFIDENCE_COLUMN)
    out = pd.concat([frame.iloc[:, :at], pd.DataFrame(per_class, index=frame.index), frame.iloc[:, at + 1:]], axis=1)
    note = (f"`{CONFIDENCE_COLUMN}` is the probability of the predicted class (`{LABEL_COLUMN}`, as PyCaret writes "
            f"it): read as `{names[0]}` and `{names[1]}`, each class's probability (1 − the score for the class not "
            "predicted)")
    return out, (note,)

