r"""Multi-label metrics out of core: per-label binary tables and per-row sums, grouped by the engine.

A multi-label file with indicator columns (``true_<label>``, ``pred_<label>`` and/or ``score_<label>``) is L binary
problems on the same rows. Two scans give what :func:`assess.metrics.multilabel.multilabel_state` computes from
the (n, L) matrices:

- per model, the weighted sums of the per-row values of :func:`assess.metrics.multilabel.row_values` — exact
  match, the sample-wise Jaccard, precision, recall and F1 (each with its "defined" flag), and with scores the
  coverage, label-ranking average precision and ranking loss (scikit-learn's definitions: label m counts against
  label l when :math:`s_m \ge s_l`), written as SQL over the row's L columns — plus the per-label cells tp, fp, fn
  and the squared-weight sums;
- per model and label, ``GROUP BY (score, truth)``: the label's :class:`~assess.curves.ThresholdCounts`.

The registry's multi-label metrics then run unchanged on the state. Labels from the scores use each label's
threshold (`assess.core.decision.Decision.threshold_for`). Label sets written as text (``a|b``) need the rows
(``--engine memory``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from assess import curves
from assess.core.decision import SCORES
from assess.core.errors import AssessError
from assess.engine import expressions
from assess.engine.binary import file_order, model_sql
from assess.metrics import multilabel
from assess.metrics.multilabel import ROW_COLUMNS


def multilabel_states(backend, assessment, decision, *, beta: float, weighted: bool) -> dict:
    """{model: (MultilabelState, rows)} of a multi-label indicator file."""
    r, q, name = assessment.roles, backend.ident, assessment.table.name
    labels = list(assessment.classes)
    true_cols, pred_cols, score_cols = dict(r.true_labels), dict(r.pred_labels), dict(r.label_scores)
    if not true_cols or any(label not in true_cols for label in labels):
        raise AssessError(f"{name}: out of core, multi-label files need one 0/1 column true_<label> per label "
                          "(label sets written as text need --engine memory)")
    has_scores = bool(score_cols) and all(label in score_cols for label in labels)
    has_labels = bool(pred_cols) and all(label in pred_cols for label in labels)
    source_of_labels = decision.source_for(assessment.task, has_labels=has_labels, has_scores=has_scores)
    if source_of_labels != SCORES and not has_labels:
        raise AssessError(f"{name}: every label needs a pred_<label> column (or labels from the scores)")
    labels_from = decision.labels_from(assessment.task, has_labels=has_labels, has_scores=has_scores, labels=labels)
    L = len(labels)
    t = [f"CAST({q(true_cols[lab])} AS DOUBLE)" for lab in labels]
    s = [f"CAST({q(score_cols[lab])} AS DOUBLE)" for lab in labels] if has_scores else []
    if source_of_labels == SCORES:
        p = [expressions.threshold_indicator(s[j], decision.threshold_for(lab)) for j, lab in enumerate(labels)]
    else:
        p = [f"CAST({q(pred_cols[lab])} AS DOUBLE)" for lab in labels]
    weight = f"CAST({q(r.weight)} AS DOUBLE)" if r.weight else "CAST(1.0 AS DOUBLE)"
    cols = ", ".join([f"{t[j]} AS t{j}" for j in range(L)] + [f"{p[j]} AS p{j}" for j in range(L)]
                     + [f"{s[j]} AS s{j}" for j in range(len(s))])
    rows = f"SELECT {model_sql(backend, assessment)} AS model, {weight} AS w, {cols} FROM predictions"
    values = expressions.multilabel_row_values([f"t{j}" for j in range(L)], [f"p{j}" for j in range(L)],
                                               [f"s{j}" for j in range(L)] if has_scores else None)
    sums = ", ".join(f"sum(w * ({values[c]})) AS r_{c}" for c in ROW_COLUMNS if c in values)
    cells = ", ".join(f"sum(CASE WHEN t{j} = 1 AND p{j} = 1 THEN w ELSE 0.0 END) AS tp{j}, "
                      f"sum(CASE WHEN t{j} = 0 AND p{j} = 1 THEN w ELSE 0.0 END) AS fp{j}, "
                      f"sum(CASE WHEN t{j} = 1 AND p{j} = 0 THEN w ELSE 0.0 END) AS fn{j}" for j in range(L))
    bad = " OR ".join(f"t{j} IS NULL OR p{j} IS NULL OR t{j} NOT IN (0, 1) OR p{j} NOT IN (0, 1)"
                      for j in range(L))
    if has_scores:
        bad += " OR " + " OR ".join(f"s{j} IS NULL OR isnan(s{j})" for j in range(L))
    table = backend.query(f"""
        SELECT model, count(*) AS n_rows, sum(w) AS w, sum(w * w) AS w_sq, sum(w * w * ({values['exact']})) AS exact_sq,
               sum(CASE WHEN {bad} THEN 1 ELSE 0 END) AS bad, {cells}, {sums}
        FROM ({rows}) AS r GROUP BY model""")
    if int(table["bad"].sum()):
        raise AssessError(f"{name}: {int(table['bad'].sum()):,} rows have an empty or non-0/1 indicator (or an empty "
                          "score); every true_<label>/pred_<label> cell must be 0 or 1")
    hist = None
    if has_scores:
        hist = backend.query("\nUNION ALL\n".join(
            f"SELECT {j} AS label, model, s{j} AS s, sum(t{j} * w) AS w_pos, sum((1 - t{j}) * w) AS w_neg "
            f"FROM ({rows}) AS r GROUP BY 2, 3" for j in range(L)))
    out = {}
    for _, row in table.iterrows():
        model = str(row["model"])
        wsum = float(row["w"])
        tp = np.array([float(row[f"tp{j}"]) for j in range(L)])
        fp = np.array([float(row[f"fp{j}"]) for j in range(L)])
        fn = np.array([float(row[f"fn{j}"]) for j in range(L)])
        cells_ = np.stack([tp, fp, fn, wsum - tp - fp - fn], axis=-1)
        rows_ = np.array([float(row[f"r_{c}"]) if f"r_{c}" in row else 0.0 for c in ROW_COLUMNS])
        per_label = None
        if hist is not None:
            per_label = [_counts(hist, model, j, int(row["n_rows"]), weighted) for j in range(L)]
        state = multilabel.MultilabelState(
            cells=cells_, rows=rows_, weight_sum=wsum, labels=tuple(labels), beta=beta, labels_from=labels_from,
            has_scores=has_scores, per_label=per_label, weighted=weighted,
            sq={"exact": float(row["exact_sq"]), "weight_sq": float(row["w_sq"])})
        out[model] = (state, int(row["n_rows"]))
    return {m: out[m] for m in file_order(assessment, out)}


def _counts(hist: pd.DataFrame, model: str, j: int, n_rows: int, weighted: bool) -> curves.ThresholdCounts:
    part = hist[(hist["model"].astype(str) == model) & (hist["label"].astype(int) == j)]
    part = part.sort_values("s", ascending=False)
    pos, neg = part["w_pos"].to_numpy(np.float64), part["w_neg"].to_numpy(np.float64)
    present = (pos + neg) > 0
    tps, fps = np.cumsum(pos[present]), np.cumsum(neg[present])
    thresholds = np.ascontiguousarray(part["s"].to_numpy(np.float64)[present])
    for a in (tps, fps, thresholds):
        a.setflags(write=False)
    return curves.ThresholdCounts(thresholds, tps, fps, float(tps[-1]) if tps.size else 0.0,
                                  float(fps[-1]) if fps.size else 0.0, n_rows, weighted=weighted)
