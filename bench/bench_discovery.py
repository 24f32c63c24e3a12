"""Benchmark of assess.analyses.discovery: the weak-slice search on a large file, as a ratio to one numpy.argsort of
a column of the same length (the cost of sorting the rows once).

Run: .venv/bin/python bench/bench_discovery.py [--rows 1000000] [--max-conditions 2] [--repeat 3]

A binary file of ``--rows`` rows with 8 columns to search — four numbers (cut into quintiles), four categories of
3 to 12 values — and a planted weak slice. Prints the seconds of `discover` (the search, the tests of every slice
looked at, the correction and the top slices' intervals) and of its lattice alone, each over one argsort. The
issue asks for a few seconds at 1e6 rows × 8 columns.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import best  # noqa: E402

from assess.analyses.discovery import condition_codes, default_min_size, discover, lattice_search  # noqa: E402
from assess.inputs.assessment import describe  # noqa: E402
from assess.inputs.read import read_table  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=float, default=1e6)
    parser.add_argument("--max-conditions", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n = int(args.rows)
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({f"x{i}": rng.normal(size=n).round(4) for i in range(4)})
    for i, k in enumerate((3, 5, 8, 12)):
        frame[f"c{i}"] = rng.integers(0, k, n).astype(str)
    y = rng.integers(0, 2, n)
    weak = (frame["c1"] == "2") & (frame["x0"] > 0.84)
    wrong = rng.random(n) < np.where(weak, 0.3, 0.1)
    frame["y_true"], frame["y_pred"] = y, np.where(wrong, 1 - y, y)
    assessment = describe(read_table(frame.to_parquet(), name="bench.parquet"))
    columns = [c for c in frame.columns if c[0] in "xc"]
    warnings.simplefilter("ignore")
    column = frame["x0"].to_numpy()
    sort = best(lambda: np.argsort(column), args.repeat)
    whole = best(lambda: discover(assessment, columns=columns, max_conditions=args.max_conditions), args.repeat)
    coded = [condition_codes(frame[c]) for c in columns]
    err = wrong.astype(float)
    lattice = best(lambda: lattice_search([c for c, _ in coded], [len(lab) for _, lab in coded], 1.0 - err,
                                          np.ones(n), err, proportion=True, min_size=default_min_size(n),
                                          max_conditions=args.max_conditions), args.repeat)
    found = discover(assessment, columns=columns, max_conditions=args.max_conditions)
    print(f"{n:,} rows × {len(columns)} columns, up to {args.max_conditions} conditions, "
          f"{found.looked_at:,} slices looked at; one numpy.argsort: {sort:.3f} s")
    print(f"  discover:       {whole:6.2f} s = {whole / sort:6.1f} × argsort")
    print(f"  lattice alone:  {lattice:6.2f} s = {lattice / sort:6.1f} × argsort")
    print(f"  first found: {found.discovered.iloc[0]['label'] if len(found.discovered) else 'none'}")


if __name__ == "__main__":
    main()
