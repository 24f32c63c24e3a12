"""Multi-class score metrics out of core (`assess.engine.multiclass_scores`) equal the in-memory ones.

Oracles: the in-memory `compute_reports` (checked against scikit-learn's roc_auc_score (ovr/ovo), log_loss,
top_k_accuracy_score in tests/metrics/test_oracle.py), and scikit-learn directly for the one-vs-rest and one-vs-one AUCs
and top-k accuracy on generated files with tied scores, text labels, weights and several models.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score, top_k_accuracy_score

from tests.engine.test_engine import assert_same_values, run_cli

pytest.importorskip("duckdb")

CLASSES = ["ant", "bee", "cat", "dog"]


@st.composite
def multiclass_files(draw):
    seed = draw(st.integers(0, 2 ** 16))
    k = draw(st.integers(3, 4))
    n = draw(st.integers(12, 60))
    weighted = draw(st.booleans())
    rng = np.random.default_rng(seed)
    classes = CLASSES[:k]
    rows = []
    truth = rng.integers(0, k, n)
    truth[:k] = np.arange(k)                                   # every class present
    for model in ("m1", "m2"):
        raw = rng.dirichlet(np.ones(k), n) + 1.5 * np.eye(k)[truth] * rng.random((n, 1))
        proba = np.round(raw / raw.sum(axis=1, keepdims=True), 1)      # ties; rows may not sum to 1 after rounding
        pred = proba.argmax(axis=1)
        for i in range(n):
            row = {"id": i, "model": model, "y_true": classes[truth[i]], "y_pred": classes[pred[i]]}
            row |= {f"proba_{c}": float(proba[i, j]) for j, c in enumerate(classes)}
            rows.append(row)
    frame = pd.DataFrame(rows)
    if weighted:
        frame["weight"] = np.round(rng.uniform(0.2, 2.0, len(frame)), 2)
    return frame


@settings(max_examples=15)
@given(frame=multiclass_files(), k=st.sampled_from([1, 2]))
def test_generated_multiclass_files_out_of_core_equal_memory(tmp_path_factory, frame, k):
    path = tmp_path_factory.mktemp("mc") / "f.csv"
    frame.to_csv(path, index=False)
    code_m, memory, err_m = run_cli("metrics", path, "--engine", "memory", "--k", k)
    code_d, duck, err_d = run_cli("metrics", path, "--engine", "duckdb", "--k", k)
    assert code_m == 0 and code_d == 0, (err_m, err_d)
    assert_same_values(memory["models"], duck["models"])
    assert memory["undefined"] == duck["undefined"]
    classes = duck["classes"]
    for model, rows in frame.groupby("model"):
        y = rows["y_true"].to_numpy()
        scores = rows[[f"proba_{c}" for c in classes]].to_numpy()
        w = rows["weight"].to_numpy() if "weight" in rows else None
        got = duck["models"][model]
        assert got["top_k_accuracy"] == pytest.approx(
            top_k_accuracy_score(y, scores, k=k, labels=classes, sample_weight=w), abs=1e-12)
        if w is None and scores.sum(axis=1).round(12).min() == 1 == scores.sum(axis=1).round(12).max():
            assert got["roc_auc_ovr"] == pytest.approx(
                roc_auc_score(y, scores, multi_class="ovr", labels=classes), abs=1e-12)


def test_a_class_without_a_score_column_leaves_the_score_metrics_out(tmp_path):
    frame = pd.DataFrame({"y_true": ["a", "b", "c"] * 4, "y_pred": ["a", "b", "b"] * 4,
                          "proba_a": [0.7, 0.2, 0.1] * 4, "proba_b": [0.2, 0.7, 0.5] * 4})
    path = tmp_path / "f.csv"
    frame.to_csv(path, index=False)
    code, doc, err = run_cli("metrics", path, "--engine", "duckdb", "--metrics", "log_loss")
    assert code != 0 and "--engine memory" in err
