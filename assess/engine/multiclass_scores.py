r"""Multi-class score metrics out of core: per-class score histograms and per-row sums, grouped by the engine.

Two scans add what :func:`assess.metrics.multiclass.multiclass_state` computes from the rows' (n, k) score matrix:

- the per-class histograms — for every score column c, ``GROUP BY (model, true class, score_c)`` with the rows'
  weight sums: the one-vs-rest counts of class c (:class:`~assess.curves.ThresholdCounts`: positives are class c,
  scores descending, exactly what `assess.curves.ovr_threshold_counts` builds) and the pairwise AUCs
  :math:`A(a|b)` of Hand & Till (2001) from the groups classes a and b occupy in column a (as
  `assess.metrics.multiclass.ovo_matrix` does from its rankings);
- per model, sums over the rows of the log loss :math:`-\ln \operatorname{clip}(p_{i,y_i})`, the Brier score
  :math:`\sum_k p_{ik}^2 - 2p_{i,y_i} + 1`, the top-k hit (rank of the true class = classes scoring strictly higher
  plus later classes scoring the same, scikit-learn's tie order; `assess.metrics.multiclass.top_k_hits`) and their
  squared-weight twins and the sums of the squared losses (the t intervals of the two means), with the checks of the scores (outside [0, 1], rows not summing to 1).

`with_scores` puts them into the label state of `assess.engine.multiclass`, so the registry's score metrics
(``roc_auc_ovr``, ``roc_auc_ovr_weighted``, ``roc_auc_ovo``, ``log_loss``, ``brier_score``, ``top_k_accuracy``)
run unchanged. Exact: a score key is the score itself (no grid).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from assess import curves
from assess.engine import expressions
from assess.engine.binary import label_names

#: How far a row's scores may sum from 1 before the note says so: the in-memory check's relative tolerance
#: (`assess.metrics.multiclass`, numpy.isclose with rtol the square root of the float64 epsilon).
ROW_SUM_RTOL = float(np.sqrt(np.finfo(np.float64).eps))


def score_columns(assessment, classes) -> list[str] | None:
    """The score column of each class, in class order; None when some class has none (or the file is wide)."""
    r = assessment.roles
    by_class = dict(r.class_scores)
    if r.wide_models or not by_class or any(c not in by_class for c in classes):
        return None
    return [by_class[c] for c in classes]


def _class_case(backend, y_sql: str, table: pd.DataFrame, classes) -> str:
    """``CASE y WHEN <raw value> THEN <class index> … END`` for the raw truth values of the grouped label table."""
    raw = table["y"].drop_duplicates().reset_index(drop=True)
    index = {c: i for i, c in enumerate(classes)}
    whens = " ".join(f"WHEN {backend.literal(v.item() if hasattr(v, 'item') else v)} THEN {index[lab]}"
                     for v, lab in zip(raw, label_names(raw)))
    return f"CASE {y_sql} {whens} END"


def score_tables(backend, source, assessment, classes, label_table: pd.DataFrame, columns: list[str], top_k: int):
    """(histograms, sums): the two grouped tables of the module docstring."""
    q = backend.ident
    k = len(classes)
    weight = f"CAST({q(assessment.roles.weight)} AS DOUBLE)" if assessment.roles.weight else "CAST(1.0 AS DOUBLE)"
    y = _class_case(backend, source.y_true, label_table, classes)
    s = [f"CAST({q(c)} AS DOUBLE)" for c in columns]
    hist = backend.query("\nUNION ALL\n".join(
        f"SELECT {j} AS col, {source.model} AS model, {y} AS y, {s[j]} AS s, count(*) AS n_rows, sum({weight}) AS w "
        f"FROM predictions GROUP BY 2, 3, 4" for j in range(k)))
    py = "CASE y " + " ".join(f"WHEN {j} THEN s{j}" for j in range(k)) + " END"
    sk = [f"s{j}" for j in range(k)]
    rank = expressions.true_class_rank(sk, "y", "py")
    total = " + ".join(f"s{j}" for j in range(k))
    rows = (f"SELECT {source.model} AS model, {y} AS y, {weight} AS w, "
            + ", ".join(f"{s[j]} AS s{j}" for j in range(k)) + " FROM predictions")
    with_py = f"SELECT *, {py} AS py FROM ({rows}) AS r"
    log_loss, brier = expressions.log_loss("py"), expressions.multiclass_brier(sk, "py")
    sums = backend.query(f"""
        SELECT model, sum(w * {log_loss}) AS log_loss, sum(w * ({log_loss}) * ({log_loss})) AS log_loss_sq,
               sum(w * {brier}) AS brier, sum(w * ({brier}) * ({brier})) AS brier_sq,
               sum(CASE WHEN ({rank}) < {int(top_k)} THEN w ELSE 0.0 END) AS topk,
               sum(CASE WHEN ({rank}) < {int(top_k)} THEN w * w ELSE 0.0 END) AS topk_sq,
               sum(w) AS w, sum(w * w) AS w_sq, count(*) AS n_rows,
               sum(CASE WHEN {' OR '.join(f's{j} < 0 OR s{j} > 1' for j in range(k))} THEN 1 ELSE 0 END) AS outside,
               sum(CASE WHEN abs(({total}) - 1.0) > {ROW_SUM_RTOL!r} THEN 1 ELSE 0 END) AS off_sum,
               sum(CASE WHEN {' OR '.join(f's{j} IS NULL' for j in range(k))} THEN 1 ELSE 0 END) AS missing
        FROM ({with_py}) AS t GROUP BY model""")
    return hist, sums


def with_scores(state, model: str, hist: pd.DataFrame, sums: pd.DataFrame, *, weighted: bool):
    """``state`` (a label-only `MulticlassState`) with the one-vs-rest counts, pairwise AUCs and loss sums of
    ``model`` from the grouped tables; None when the model's scores are missing somewhere (then the caller says so)."""
    k = state.k
    mine = sums[sums["model"].astype(str) == model]
    if mine.empty or int(mine["missing"].iloc[0]):
        return None
    row = mine.iloc[0]
    h = hist[hist["model"].astype(str) == model]
    n_rows = int(row["n_rows"])
    counts, ovo = [], np.full((k, k), np.nan)
    for c in range(k):
        part = h[h["col"].astype(int) == c]
        scores = part["s"].to_numpy(dtype=np.float64)
        keys, group = np.unique(-scores, return_inverse=True)          # keys descending (negated ascending)
        per_class = np.zeros((k, keys.shape[0]))
        np.add.at(per_class, (part["y"].to_numpy(dtype=np.intp), group), part["w"].to_numpy(dtype=np.float64))
        pos, neg = per_class[c], per_class.sum(axis=0) - per_class[c]
        present = (pos + neg) > 0                                       # zero-weight rows: no threshold
        tps, fps = np.cumsum(pos[present]), np.cumsum(neg[present])
        thresholds = np.ascontiguousarray(-keys[present])
        for a in (tps, fps, thresholds):
            a.setflags(write=False)
        counts.append(curves.ThresholdCounts(thresholds, tps, fps, float(tps[-1]) if tps.size else 0.0,
                                             float(fps[-1]) if fps.size else 0.0, n_rows, weighted=weighted))
        if pos.any():
            for b in range(k):
                if b == c:
                    continue
                live = np.flatnonzero((pos + per_class[b]) > 0)
                p, n = pos[live], per_class[b][live]
                if p.sum() > 0 and n.sum() > 0:
                    ovo[c, b] = curves.trapezoid_auc(np.cumsum(p), np.cumsum(n))
    reason = None
    if int(row["outside"]):
        reason = f"scores are not probabilities ({int(row['outside']):,} rows with values outside [0, 1])"
    row_note = None
    if int(row["off_sum"]):
        row_note = f"score rows do not sum to 1 ({int(row['off_sum']):,} rows); the value uses them as given"
    return dataclasses.replace(
        state, ovr=[(c.tps, c.fps) for c in counts], ovr_counts=counts, ovo=ovo,
        log_loss_sum=float(row["log_loss"]), brier_sum=float(row["brier"]), topk_sum=float(row["topk"]),
        weight_sum=float(row["w"]) if weighted else float(n_rows), proba_reason=reason, row_note=row_note,
        extra={"topk_sq": float(row["topk_sq"]), "weight_sq": float(row["w_sq"]),
               "log_loss_sq": float(row["log_loss_sq"]), "brier_sq": float(row["brier_sq"])})
