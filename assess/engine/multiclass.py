r"""Multi-class label metrics out of core: one GROUP BY (model, true class, predicted class) gives the confusion
matrix :math:`C_{ij} = \sum_r w_r [y_r = i][\hat y_r = j]` (ISO/IEC TS 4213 6.2) and its squared-weight twin, from
which :class:`~assess.metrics.multiclass.MulticlassState` and every label metric of the registry follow exactly.
Score metrics of multi-class files (one-vs-rest curves, log loss, top-k) still need ``--engine memory``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from assess.columns import label_strings, sort_labels
from assess.errors import AssessError
from assess.metrics import multiclass


def confusion_table(backend, sources) -> pd.DataFrame:
    """Per model, raw true label and raw predicted label: rows, weight sum and squared-weight sum."""
    c0 = sources[0]
    if c0.y_pred is None:
        raise AssessError(f"{backend.source.name}: multi-class files need a predicted-label column out of core "
                          "(labels from the arg-max of per-class scores: use --engine memory)")
    weight = "CAST({c.weight} AS DOUBLE)" if c0.weight is not None else "CAST(1.0 AS DOUBLE)"
    rows = "\nUNION ALL\n".join(f"SELECT {c.model} AS model, {c.y_true} AS y, {c.y_pred} AS yp, "
                                f"{weight.format(c=c)} AS w FROM predictions" for c in sources)
    return backend.query(f"SELECT model, y, yp, count(*) AS n_rows, sum(w) AS w, sum(w * w) AS w2 "
                         f"FROM ({rows}) AS r GROUP BY 1, 2, 3")


def multiclass_states(table: pd.DataFrame, assessment, *, labels_from: str, beta: float, k: int, weighted: bool,
                      class_order) -> tuple[tuple[str, ...], dict[str, tuple[multiclass.MulticlassState, int]]]:
    """(classes, {model: (state, rows)}): the confusion matrix of each model from the grouped table."""
    name, r = assessment.table.name, assessment.roles
    for col, role in (("y", r.y_true), ("yp", r.y_pred)):
        empty = table[col].isna()
        if empty.any():
            raise AssessError(f"{name}: column {role!r} has {int(table.loc[empty, 'n_rows'].sum()):,} empty cells; "
                              "every row needs a label")
    y_labels = _labels(table["y"])
    yp_labels = _labels(table["yp"])
    found = set(y_labels) | set(yp_labels)
    if class_order:
        classes = tuple(class_order)
        unknown = sorted(found - set(classes))
        if unknown:
            raise AssessError(f"{name}: label {unknown[0]!r} is not in --class-order")
    else:
        classes = tuple(sort_labels(found))
    index = {c: i for i, c in enumerate(classes)}
    yi = np.array([index[v] for v in y_labels], dtype=np.intp)
    pi = np.array([index[v] for v in yp_labels], dtype=np.intp)
    kk = len(classes)
    out = {}
    for model, rows in table.groupby("model", sort=False).indices.items():
        cell = yi[rows] * kk + pi[rows]
        w = table["w"].to_numpy(dtype=np.float64)[rows]
        cm = np.bincount(cell, weights=w, minlength=kk * kk).reshape(kk, kk)
        cm_sq = cm if not weighted else np.bincount(
            cell, weights=table["w2"].to_numpy(dtype=np.float64)[rows], minlength=kk * kk).reshape(kk, kk)
        state = multiclass.MulticlassState(cm=cm, classes=classes, beta=beta, top_k=k, labels_from=labels_from,
                                           cm_sq=cm_sq)
        out[str(model)] = (state, int(table["n_rows"].to_numpy()[rows].sum()))
    return classes, out


def _labels(values: pd.Series) -> list[str]:
    """Label strings as the in-memory path makes them (`assess.columns.label_strings`, per distinct value)."""
    distinct = values.drop_duplicates().reset_index(drop=True)
    mapping = dict(zip(distinct, label_strings(distinct)))
    return [mapping[v] for v in values]
