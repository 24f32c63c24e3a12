"""Issue 32: ``metrics`` of a 1,500-class file gives the one-vs-one AUC and its DeLong interval instead of spending
minutes in a k² pair loop. Few rows (2 per class: about 5 CPU seconds, half of them the baselines); how long it takes
is bench/bench_multiclass_ci.py's to measure (20,000 rows), not a test's: no test here depends on the machine's
speed."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from assess.cli import main

K = 1500


def brute_force_hand_till(y, scores, k):
    """Oracle: every ordered pair (a, b) of classes, A(a|b) = mean over the rows i of a and j of b of
    [s_ia > s_ja] + ½[s_ia = s_ja] on column a (Hand & Till 2001), M their mean — no sort, no per-class pass.
    Every class holds exactly 2 rows here, so the rows of class c are ``members[c]``."""
    members = np.stack([np.flatnonzero(y == c) for c in range(k)])          # (k, 2)
    own = scores[members, np.arange(k)[:, None]]                             # own[a, i] = s of row i of a, column a
    other = scores[members].transpose(2, 0, 1)                               # other[a, b, j] = s_{j of b}, column a
    psi = ((own[:, None, :, None] > other[:, :, None, :])
           + 0.5 * (own[:, None, :, None] == other[:, :, None, :])).mean(axis=(2, 3))
    off = ~np.eye(k, dtype=bool)
    return psi[off].mean()


def test_metrics_of_a_1500_class_file_finishes_with_the_one_vs_one_auc_and_its_interval(tmp_path, capsys):
    rng = np.random.default_rng(32)
    y = np.repeat(np.arange(K), 2)
    scores = rng.random((y.size, K))
    scores[np.arange(y.size), y] += 0.02                  # a weak signal: the AUC is near, not at, 1
    scores = np.round(scores / scores.sum(axis=1, keepdims=True), 9)
    names = [f"c{c}" for c in range(K)]
    frame = pd.DataFrame(scores, columns=[f"proba_{c}" for c in names])
    frame.insert(0, "y_true", np.asarray(names)[y])
    path = tmp_path / "many.parquet"
    frame.to_parquet(path)
    assert main(["metrics", str(path), "--ci", "auto", "--metrics", "roc_auc_ovo", "accuracy"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (got,) = doc["models"].values()
    ovo = got["roc_auc_ovo"]
    assert ovo["value"] == pytest.approx(brute_force_hand_till(y, scores, K), abs=1e-12)
    assert ovo["low"] < ovo["value"] < ovo["high"]
