"""Reading Spark-style vector cells at 1e6 rows: ``probability`` as ``"[0.36,0.64]"`` (and numpy's ``"[0.36 0.64]"``),
Parquet list columns and JSON arrays, each as a ratio to reading the same numbers as plain ``probability_0``,
``probability_1`` columns in the same format (`assess.inputs.vectors` expands them at read time). Not a test.

Run: ``.venv/bin/python bench/bench_vectors.py [rows]``.
"""

import io
import sys

import numpy as np
import pandas as pd

from assess.inputs.read import read_table
from bench.timing import best


def main(n: int = 1_000_000) -> None:
    rng = np.random.default_rng(0)
    p = rng.random(n).round(6)
    y = rng.integers(0, 2, n).astype(float)
    plain = pd.DataFrame({"label": y, "probability_0": 1 - p, "probability_1": p})
    spark = pd.Series(p).map(lambda v: f"[{1 - v:.6g},{v:.6g}]")
    numpy_text = spark.str.replace(",", " ")
    lists = pd.DataFrame({"label": y, "probability": list(np.column_stack([1 - p, p]))})

    def parquet(frame):
        buf = io.BytesIO()
        frame.to_parquet(buf)
        return buf.getvalue()

    cases = {
        "CSV, Spark text [a,b]": (pd.DataFrame({"label": y, "probability": spark}).to_csv(index=False).encode(),
                                  plain.to_csv(index=False).encode(), "x.csv"),
        "CSV, numpy text [a b]": (pd.DataFrame({"label": y, "probability": numpy_text}).to_csv(index=False).encode(),
                                  plain.to_csv(index=False).encode(), "x.csv"),
        "Parquet list column": (parquet(lists), parquet(plain), "x.parquet"),
    }
    for label, (vector, canonical, name) in cases.items():
        t_vector = best(lambda: read_table(vector, name=name), repeat=2)
        t_plain = best(lambda: read_table(canonical, name=name), repeat=2)
        print(f"{label:<24} {t_vector:6.2f} s  plain columns {t_plain:6.2f} s  ratio {t_vector / t_plain:5.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
