"""Multi-label metrics out of core (`assess.engine.multilabel`) equal the in-memory ones.

Oracles: the in-memory `compute_reports` (checked against scikit-learn's hamming_loss, jaccard_score, f1_score,
coverage_error, label_ranking_average_precision_score and label_ranking_loss in tests/metrics/test_multilabel_assessment.py) on
the digits sample and on generated files with tied scores, rows without any true label, weights and labels from the
scores; scikit-learn directly for the ranking metrics.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import coverage_error, label_ranking_average_precision_score, label_ranking_loss

from tests.engine.test_engine import SAMPLE, assert_same_values, run_cli
from tests.engine_runs import memory_and_engine

pytest.importorskip("duckdb")

LABELS = ["red", "green", "blue", "gold"]


def test_the_digits_sample_out_of_core_equals_memory():
    digits = SAMPLE.with_name("digits_multilabel.csv")
    memory, duck = memory_and_engine("metrics", digits, "duckdb", "--ci", "wilson")
    assert_same_values(memory["models"], duck["models"])
    assert memory["undefined"] == duck["undefined"]


@st.composite
def multilabel_files(draw):
    seed = draw(st.integers(0, 2 ** 16))
    n = draw(st.integers(8, 50))
    L = draw(st.integers(2, 4))
    rng = np.random.default_rng(seed)
    labels = LABELS[:L]
    truth = (rng.random((n, L)) < 0.4).astype(int)
    frames = []
    for model in ("m1", "m2"):
        score = np.round(np.clip(0.5 * truth + rng.normal(0.25, 0.25, (n, L)), 0, 1), 1)   # ties
        frame = pd.DataFrame({"id": np.arange(n), "model": model})
        for j, lab in enumerate(labels):
            frame[f"true_{lab}"] = truth[:, j]
            frame[f"pred_{lab}"] = (score[:, j] >= 0.5).astype(int) if model == "m1" else rng.integers(0, 2, n)
            frame[f"score_{lab}"] = score[:, j]
        frames.append(frame)
    frame = pd.concat(frames, ignore_index=True)
    if draw(st.booleans()):
        frame["weight"] = np.round(rng.uniform(0.2, 2.0, len(frame)), 2)
    return frame, labels


@settings(max_examples=15)
@given(case=multilabel_files(), from_scores=st.booleans())
def test_generated_multilabel_files_out_of_core_equal_memory(tmp_path_factory, case, from_scores):
    frame, labels = case
    path = tmp_path_factory.mktemp("ml") / "f.csv"
    frame.to_csv(path, index=False)
    extra = ["--labels-from", "scores", "--threshold", "0.4"] if from_scores else []
    memory, duck = memory_and_engine("metrics", path, "duckdb", *extra)
    assert_same_values(memory["models"], duck["models"])
    if "weight" not in frame:
        for model, rows in frame.groupby("model"):
            y = rows[[f"true_{lab}" for lab in labels]].to_numpy()
            s = rows[[f"score_{lab}" for lab in labels]].to_numpy()
            got = duck["models"][model]
            if y.sum(axis=1).min() > 0:   # scikit-learn's coverage counts rows without true labels differently
                assert got["coverage_error"] == pytest.approx(coverage_error(y, s), abs=1e-12)
            assert got["label_ranking_loss"] == pytest.approx(label_ranking_loss(y, s), abs=1e-12)
            assert got["label_ranking_average_precision"] == pytest.approx(
                label_ranking_average_precision_score(y, s), abs=1e-12)


def test_a_non_indicator_value_is_refused_with_the_engine_to_use(tmp_path):
    frame = pd.DataFrame({"true_a": [1, 0, 2, 1] * 3, "true_b": [0, 1, 1, 0] * 3, "pred_a": [1, 0, 1, 1] * 3,
                          "pred_b": [0, 1, 0, 0] * 3})
    path = tmp_path / "f.csv"
    frame.to_csv(path, index=False)
    code, _, err = run_cli("metrics", path, "--engine", "duckdb", "--task", "multilabel")
    assert code != 0
