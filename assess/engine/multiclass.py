r"""Multi-class label metrics out of core: one GROUP BY (model, true class, predicted class) gives the confusion
matrix :math:`C_{ij} = \sum_r w_r [y_r = i][\hat y_r = j]` (ISO/IEC TS 4213 6.2) and its squared-weight twin, from
which :class:`~assess.metrics.multiclass.MulticlassState` and every label metric of the registry follow exactly.
Without a predicted-label column (or with ``--labels-from scores``) the predicted class is the arg-max of the
per-class score columns, computed in SQL with the in-memory tie rule (`argmax_sql`). Score metrics:
`assess.engine.multiclass_scores`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from assess.core.errors import AssessError
from assess.engine import expressions
from assess.engine.binary import file_order, label_names
from assess.inputs.columns import sort_labels
from assess.metrics import multiclass


def argmax_sql(backend, assessment) -> str | None:
    """The predicted class label of a row by the arg-max of its per-class score columns (`expressions.argmax`), in the
    order of ``assessment.classes`` (the column order of the in-memory score matrix, so ties go to the same class).
    NULL when a score is empty. None when some class has no score column (or the file is wide)."""
    r, q = assessment.roles, backend.ident
    by_class = dict(r.class_scores)
    labels = [assessment.names.file_class(c) for c in assessment.classes]
    if r.wide_models or not by_class or any(c not in by_class for c in labels):
        return None
    return expressions.argmax([f"CAST({q(by_class[c])} AS DOUBLE)" for c in labels],
                              [backend.literal(str(c)) for c in labels])


def confusion_table(backend, sources, argmax: str | None = None) -> pd.DataFrame:
    """Per model, raw true label and raw predicted label: rows, weight sum and squared-weight sum. ``argmax``: the
    predicted label's SQL when labels come from the scores (`argmax_sql`), else the predicted-label column."""
    c0 = sources[0]
    if c0.y_pred is None and argmax is None:
        raise AssessError(f"{backend.source.name}: multi-class labels out of core come from a predicted-label "
                          "column or from a score column per class (proba_<class>); this file has neither")
    weight = "CAST({c.weight} AS DOUBLE)" if c0.weight is not None else "CAST(1.0 AS DOUBLE)"
    rows = "\nUNION ALL\n".join(f"SELECT {c.model} AS model, {c.y_true} AS y, {argmax or c.y_pred} AS yp, "
                                f"{weight.format(c=c)} AS w FROM predictions" for c in sources)
    return backend.query(f"SELECT model, y, yp, count(*) AS n_rows, sum(w) AS w, sum(w * w) AS w2 "
                         f"FROM ({rows}) AS r GROUP BY 1, 2, 3")


def multiclass_states(table: pd.DataFrame, assessment, *, labels_from: str, beta: float, k: int, weighted: bool,
                      class_order, score_classes=()) -> tuple[tuple[str, ...],
                                                            dict[str, tuple[multiclass.MulticlassState, int]]]:
    """(classes, {model: (state, rows)}): the confusion matrix of each model from the grouped table.
    ``score_classes``: with labels by arg-max, the classes of the score columns, which are classes whether or not
    a row is of them or predicted as them (as in memory)."""
    name, r = assessment.table.name, assessment.roles
    for col, role in (("y", r.y_true), ("yp", r.y_pred or "per-class scores")):
        empty = table[col].isna()
        if empty.any():
            raise AssessError(f"{name}: column {role!r} has {int(table.loc[empty, 'n_rows'].sum()):,} empty cells; "
                              "every row needs a label" + (" (every row needs its scores)" if not r.y_pred else ""))
    y_labels = label_names(table["y"])
    yp_labels = label_names(table["yp"])
    found = set(y_labels) | set(yp_labels) | set(score_classes)
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
    by_model = {str(m): rows for m, rows in table.groupby("model", sort=False).indices.items()}
    for model in file_order(assessment, by_model):
        rows = by_model[model]
        cell = yi[rows] * kk + pi[rows]
        w = table["w"].to_numpy(dtype=np.float64)[rows]
        cm = np.bincount(cell, weights=w, minlength=kk * kk).reshape(kk, kk)
        cm_sq = cm if not weighted else np.bincount(
            cell, weights=table["w2"].to_numpy(dtype=np.float64)[rows], minlength=kk * kk).reshape(kk, kk)
        state = multiclass.MulticlassState(cm=cm, classes=classes, beta=beta, top_k=k, labels_from=labels_from,
                                           cm_sq=cm_sq)
        out[model] = (state, int(table["n_rows"].to_numpy()[rows].sum()))
    return classes, out
