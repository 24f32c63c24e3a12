"""Upload-to-first-metrics path at 1e6 rows: read, describe (roles, task, validation), encode, evaluate.

Prints seconds per stage and the total as a ratio to one numpy.argsort of the scores (SPEC: the browser shows the
first metrics of a 1-million-row upload within a few seconds). Not a test: timings belong here.
"""

import time

import numpy as np
import pandas as pd

from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.metrics import evaluate


def main(n: int = 1_000_000) -> None:
    rng = np.random.default_rng(0)
    y = rng.random(n) < 0.1
    score = np.clip(rng.normal(0.3 + 0.4 * y, 0.2), 0, 1).round(6)
    frame = pd.DataFrame({"id": np.arange(n), "y_true": np.where(y, "fraud", "ok"),
                          "y_pred": np.where(score >= 0.5, "fraud", "ok"), "score": score})
    data = frame.to_csv(index=False).encode()
    t = time.perf_counter()
    np.argsort(score)
    argsort = time.perf_counter() - t
    stages = {}
    t = time.perf_counter()
    table = read_table(data, name="big.csv")
    stages["read CSV"] = time.perf_counter() - t
    t = time.perf_counter()
    assessment = describe(table)
    stages["describe + validate"] = time.perf_counter() - t
    t = time.perf_counter()
    pred = assessment.predictions()
    stages["encode"] = time.perf_counter() - t
    t = time.perf_counter()
    evaluate(pred)
    stages["all binary metrics, no CI"] = time.perf_counter() - t
    t = time.perf_counter()
    evaluate(pred, ci="auto")
    stages["all binary metrics, auto CI"] = time.perf_counter() - t
    print(f"{n:,} rows, {len(data) / 2**20:.0f} MB CSV; one argsort of the scores: {argsort * 1000:.0f} ms")
    for stage, seconds in stages.items():
        print(f"  {stage:<30}{seconds:8.2f} s  ({seconds / argsort:6.1f}× argsort)")
    first = sum(v for k, v in stages.items() if "auto CI" not in k)
    print(f"  upload → first metrics          {first:8.2f} s")


if __name__ == "__main__":
    main()
