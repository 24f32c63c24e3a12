"""The sample-id checks of validation on integer codes against the same checks on label strings, at a million rows.

    PYTHONPATH=. .venv/bin/python bench/bench_validation_ids.py            # 1,000,000 rows, 3 models
    PYTHONPATH=. .venv/bin/python bench/bench_validation_ids.py --rows 200000

For each id column (integers, floats with missing ids, text) it runs `assess.inputs.validation.validate` and a reference
that does what validation did before it used codes — one label string per row and model (`label_strings`), a
duplicated() over joined strings, one Python set per model — and prints whether the duplicate-id and
models-differ problems are the same, and the time of each as a ratio (the best of 3; the load average beside it:
on a shared machine compare ratios, not seconds). Not a test: the equality is tested on small files in
tests/inputs/test_validation_ids.py.
"""

from __future__ import annotations

import argparse
import os

import numpy as np
import pandas as pd

from assess.inputs.assessment import describe
from assess.inputs.columns import label_strings, quote
from assess.inputs.read import read_table
from assess.inputs.validation import validate
from bench.timing import best


def reference(frame: pd.DataFrame, models: dict[str, np.ndarray]) -> tuple[tuple[int, tuple[int, ...]], str | None]:
    """(duplicate count, first rows) and the models-differ sentence, from label strings and Python sets."""
    ids = label_strings(frame["id"])
    keys = label_strings(frame["model"]).fillna("") + "\x00" + ids.fillna("")
    dup = np.flatnonzero(keys.duplicated(keep="first").to_numpy() & ids.notna().to_numpy())
    values = ids.to_numpy(dtype=object)
    sets = {m: set(values[rows]) for m, rows in models.items()}
    common = set.intersection(*sets.values())
    differing = [(m, len(s - common)) for m, s in sets.items() if len(s) != len(common)]
    sentence = None
    if differing:
        m, k = differing[0]
        sentence = (f"the models cover different rows: model {quote(m)} has {k:,} id{'' if k == 1 else 's'} the "
                    f"others lack; paired tests use the {len(common):,} ids all models share")
    return (len(dup), tuple(int(r) + 1 for r in dup[:5])), sentence


def id_columns(rows: int, rng) -> dict[str, list[np.ndarray]]:
    k = rows // 3
    base = np.arange(k)
    other = np.r_[base[:-500], np.arange(k, k + 500)]           # 500 ids of the third model are new
    return {
        "integers": [base, rng.permutation(base), other],
        "floats, 7 missing": [base.astype(float), np.r_[base[:-7], [np.nan] * 7], other.astype(float)],
        "text": [np.array([f"s{i}" for i in ids], dtype=object) for ids in (base, rng.permutation(base), other)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    rows = parser.parse_args().rows
    rng = np.random.default_rng(0)
    print(f"{rows:,} rows, 3 models · load average {os.getloadavg()[0]:.1f}")
    for name, per_model in id_columns(rows, rng).items():
        frame = pd.concat([pd.DataFrame({"id": ids, "model": m, "y_true": rng.integers(0, 2, len(ids)),
                                         "score": rng.random(len(ids)).round(4)})
                           for m, ids in zip(("alpha", "beta", "gamma"), per_model)], ignore_index=True)
        path = f"/tmp/bench_validation_ids_{os.getpid()}.parquet"
        frame.to_parquet(path)
        a = describe(read_table(path))
        os.remove(path)

        def run():
            return validate(a.frame, a.roles, a.task, classes=a.classes, positive=a.positive, models=a.models,
                            model_rows=a.model_rows)
        problems = {p.code: p for p in run()}
        dup, differ = reference(a.frame, a.model_rows)
        found_dup = (problems["duplicate_id"].count, problems["duplicate_id"].rows) if "duplicate_id" in problems \
            else (0, ())
        found_differ = problems["models_differ"].message if "models_differ" in problems else None
        same = found_dup == dup and found_differ == differ
        codes_s, strings_s = best(run), best(lambda: reference(a.frame, a.model_rows))
        print(f"{name:18s} same problems: {same} · validation {codes_s:.2f} s (all checks) · the id checks on "
              f"strings alone {strings_s:.2f} s · ratio {strings_s / codes_s:.1f}")
        if not same:
            print("   codes:", found_dup, found_differ, "\n   strings:", dup, differ)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
