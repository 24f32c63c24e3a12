"""Multi-class labels from the arg-max of the per-class scores, out of core (assess.engine.multiclass.argmax_sql).

Oracles: the in-memory path on the same file (whole JSON to 1e-12), and numpy's argmax (ties to the first class in
class order) with scikit-learn's accuracy_score / f1_score on a file built with exact ties.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score, f1_score

from tests.engine.test_engine import SAMPLE, assert_same_values, run_cli

pytest.importorskip("duckdb")

WINE = SAMPLE.with_name("wine_multiclass.csv")


def both(path, *extra, engine="duckdb"):
    code_m, memory, err_m = run_cli("metrics", path, "--engine", "memory", *extra)
    code_e, out, err_e = run_cli("metrics", path, "--engine", engine, *extra)
    assert code_m == 0 and code_e == 0, err_m + err_e
    return memory, out


def test_a_file_without_predicted_labels_is_assessed_out_of_core(tmp_path):
    path = tmp_path / "wine.csv"
    pd.read_csv(WINE).drop(columns="y_pred").to_csv(path, index=False)
    memory, duck = both(path, "--ci", "wilson")
    assert_same_values(memory["models"], duck["models"])
    assert memory["undefined"] == duck["undefined"] and memory["classes"] == duck["classes"]
    assert "not_computed" not in duck["engine"]


def test_labels_from_scores_on_a_file_with_predicted_labels():
    memory, duck = both(WINE, "--labels-from", "scores")
    assert_same_values(memory["models"], duck["models"])
    assert memory["undefined"] == duck["undefined"] and duck["settings"]["labels_from"] == "scores"


def tied_frame(seed: int = 0) -> pd.DataFrame:
    """Scores on a 0.1 grid normalised to sum 1 — many exact ties — plus rows tied by construction."""
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 4, size=(600, 3)).astype(float) + 0.0
    raw[raw.sum(axis=1) == 0] = 1.0
    raw[:3] = [[2, 2, 1], [1, 2, 2], [1, 1, 1]]          # a/b tie → a; b/c tie → b; three-way tie → a
    p = raw / raw.sum(axis=1, keepdims=True)
    return pd.DataFrame({"y_true": rng.choice(["a", "b", "c"], 600), "proba_a": p[:, 0], "proba_b": p[:, 1],
                         "proba_c": p[:, 2], "weight": np.round(rng.uniform(0.5, 2, 600), 2)})


def test_ties_go_to_the_first_class_as_numpy_argmax(tmp_path):
    frame = tied_frame()
    path = tmp_path / "ties.parquet"
    frame.to_parquet(path)
    memory, duck = both(path)
    assert_same_values(memory["models"], duck["models"])
    scores = frame[["proba_a", "proba_b", "proba_c"]].to_numpy()
    predicted = np.array(["a", "b", "c"])[np.argmax(scores, axis=1)]
    assert list(predicted[:3]) == ["a", "b", "a"]
    model = next(iter(duck["models"].values()))
    w = frame["weight"].to_numpy()
    assert model["accuracy"] == pytest.approx(accuracy_score(frame["y_true"], predicted, sample_weight=w), rel=1e-12)
    assert model["f1_macro"] == pytest.approx(f1_score(frame["y_true"], predicted, average="macro", sample_weight=w),
                                              rel=1e-12)
