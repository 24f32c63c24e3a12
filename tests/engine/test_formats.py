"""``metrics --format csv|table`` out of core: the same values, per model and metric, as the in-memory command
prints (the oracle is ``--engine memory``, itself checked against scikit-learn elsewhere). The engines form no
baselines, so only the value columns are compared."""

import contextlib
import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from assess.cli import main as cli_main

SAMPLES = Path(__file__).resolve().parents[2] / "assets" / "samples"


def _metrics(file: Path, engine: str, fmt: str) -> str:
    """The stdout of ``python -m assess metrics`` (its ``main``, in this process: the same code without an
    interpreter start-up per run)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli_main(["metrics", str(file), "--engine", engine, "--format", fmt]) == 0
    return out.getvalue()


@pytest.mark.parametrize("sample", ["breast_cancer_binary.csv", "monthly_forecasts.csv", "wine_multiclass.csv"])
def test_csv_values_equal_memory(sample):
    frames = {engine: pd.read_csv(io.StringIO(_metrics(SAMPLES / sample, engine, "csv")))
              for engine in ("duckdb", "memory")}
    # the pooled metrics; the per-class rows (a ``class`` column) are the in-memory path's alone so far
    pooled = {e: f[f["class"].isna()] if "class" in f else f for e, f in frames.items()}
    duck, memory = (pooled[e].set_index(["model", "key"])["value"].sort_index() for e in ("duckdb", "memory"))
    assert list(duck.index) == list(memory.index)
    np.testing.assert_allclose(duck.to_numpy(float), memory.to_numpy(float), rtol=1e-10, atol=1e-12)


def test_table_blocks_equal_memory():
    def blocks(text: str) -> dict[str, list[str]]:
        out, model = {}, None
        for line in text.splitlines():
            if not line.startswith(" "):
                model = line
                out[model] = []
            else:
                out[model].append(line)
        return out

    sample = SAMPLES / "monthly_forecasts.csv"
    assert blocks(_metrics(sample, "duckdb", "table")) == blocks(_metrics(sample, "memory", "table"))
