"""The out-of-core reports list the models in the in-memory path's order (a wide file's columns from left to right,
a long file's names in order of first appearance), whatever order the engine's GROUP BY returns them in.

Oracle: ``python -m assess metrics --engine memory`` on the same file (its order is the file's, `assess.inputs.assessment`);
for the wide file also the column order written by the test itself.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tests.engine.test_engine import run_cli

pytest.importorskip("duckdb")


def _binary(n: int, seed: int) -> tuple[np.ndarray, np.random.Generator]:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2, n), rng


def test_a_wide_binary_file_keeps_its_column_order(tmp_path):
    y, rng = _binary(400, 3)
    names = ["zeta", "alpha", "mid"]          # not sorted: sorting would give alpha, mid, zeta
    frame = pd.DataFrame({"y_true": y} | {f"score_{m}": np.round(np.clip(0.3 * y + rng.uniform(0, 0.7, y.size), 0, 1),
                                                                  3) for m in names})
    path = tmp_path / "wide.parquet"
    frame.to_parquet(path, index=False)
    memory = run_cli("metrics", path, "--engine", "memory")[1]
    duck = run_cli("metrics", path, "--engine", "duckdb")[1]
    assert list(memory["models"]) == names
    assert list(duck["models"]) == names


def test_a_long_file_keeps_the_order_of_first_appearance(tmp_path):
    y, rng = _binary(600, 4)
    frame = pd.DataFrame({"model": np.tile(["m_b", "m_c", "m_a"], 200), "y_true": y,
                          "score": np.round(rng.uniform(0, 1, y.size), 3)})
    path = tmp_path / "long.parquet"
    frame.to_parquet(path, index=False, row_group_size=50)
    memory = run_cli("metrics", path, "--engine", "memory")[1]
    duck = run_cli("metrics", path, "--engine", "duckdb")[1]
    assert list(memory["models"]) == ["m_b", "m_c", "m_a"]
    assert list(duck["models"]) == list(memory["models"])


def test_a_wide_regression_file_keeps_its_column_order(tmp_path):
    rng = np.random.default_rng(5)
    y = rng.normal(0, 1, 300)
    names = ["zeta", "alpha"]
    frame = pd.DataFrame({"y_true": y} | {f"y_pred_{m}": y + rng.normal(0, 0.5, y.size) for m in names})
    path = tmp_path / "wide_regression.parquet"
    frame.to_parquet(path, index=False)
    memory = run_cli("metrics", path, "--engine", "memory")[1]
    duck = run_cli("metrics", path, "--engine", "duckdb")[1]
    assert memory["task"] == "regression" and list(memory["models"]) == names
    assert list(duck["models"]) == names


def test_a_wide_forecast_file_keeps_its_column_order(tmp_path):
    from tests.engine.test_forecast import forecast_frame

    frame = forecast_frame(3, models=("zeta", "alpha"))
    zeta, alpha = frame[frame["model"] == "zeta"], frame[frame["model"] == "alpha"]
    wide = zeta.drop(columns=["model", "y_pred"]).reset_index(drop=True)
    wide["y_pred_zeta"], wide["y_pred_alpha"] = zeta["y_pred"].to_numpy(), alpha["y_pred"].to_numpy()
    path = tmp_path / "wide_forecast.parquet"
    wide.to_parquet(path, index=False)
    memory = run_cli("metrics", path, "--engine", "memory")[1]
    duck = run_cli("metrics", path, "--engine", "duckdb")[1]
    assert memory["task"] == "forecast" and list(memory["models"]) == ["zeta", "alpha"]
    assert list(duck["models"]) == ["zeta", "alpha"]
