"""NannyML's CBPE on one reference/analysis split — run by bench/bench_cbpe_nannyml.py in its own virtualenv
(bench/.nannyml-venv: NannyML pins an older plotly), never imported by `assess` or its tests.

    bench/.nannyml-venv/bin/python bench/peer_nannyml.py REFERENCE.csv ANALYSIS.csv TASK OUT.json

TASK is binary (columns ``y``, ``yp``, ``p``) or multiclass (``y``, ``yp``, ``p_<class>``). One chunk: the whole
analysis set, as `assess.analyses.estimation.estimate` estimates it. Writes {metric: {value, low, high}} (NannyML's
bounds: value ± 3 sampling errors).
"""

from __future__ import annotations

import json
import sys
import warnings

import nannyml as nml
import pandas as pd

warnings.simplefilter("ignore")
BINARY = {"roc_auc": "roc_auc", "f1": "f1", "precision": "precision", "recall": "recall", "accuracy": "accuracy"}
MULTICLASS = {"roc_auc": "roc_auc_ovr", "f1": "f1_macro", "precision": "precision_macro", "recall": "recall_macro",
              "accuracy": "accuracy"}


def main(reference: str, analysis: str, task: str, out: str) -> None:
    ref, ana = pd.read_csv(reference), pd.read_csv(analysis)
    ref["yp"], ana["yp"] = ref["yp"].astype(str if task == "multiclass" else int), \
        ana["yp"].astype(str if task == "multiclass" else int)
    if task == "multiclass":
        ref["y"] = ref["y"].astype(str)
        proba = {c[2:]: c for c in ref.columns if c.startswith("p_")}
        names, problem = MULTICLASS, "classification_multiclass"
    else:
        proba, names, problem = "p", BINARY, "classification_binary"
    est = nml.CBPE(y_pred_proba=proba, y_pred="yp", y_true="y", metrics=list(names), chunk_number=1,
                   problem_type=problem)
    est.fit(ref)
    row = est.estimate(ana.drop(columns="y")).filter(period="analysis").to_df().iloc[0]
    json.dump({theirs: {"value": float(row[(theirs, "value")]),
                      "low": float(row[(theirs, "lower_confidence_boundary")]),
                      "high": float(row[(theirs, "upper_confidence_boundary")])} for theirs in names},
              open(out, "w"))


if __name__ == "__main__":
    main(*sys.argv[1:5])
