"""The sample-id checks of `assess.inputs.validation` on integer codes (issue 15, "per-row Python objects") find exactly
what the label strings find: duplicate ids within a model (and split), and models covering different ids.

The oracle is the definition written out in plain Python: every row's (model, id, split) as the label strings
`assess.inputs.columns.label_strings` gives (``1.0`` and ``1`` one id, a missing cell None), a dict of the keys seen, and
one Python set of ids per model — what validation did, one string per row and model, before it used codes.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
from hypothesis import example, given, settings
from hypothesis import strategies as st

from assess.inputs.assessment import describe
from assess.inputs.columns import label_strings
from assess.inputs.read import read_table
from assess.inputs.validation import id_codes

ID_POOLS = {
    "int": st.integers(0, 6),
    "float": st.one_of(st.integers(0, 6).map(float), st.just(float("nan"))),
    "text": st.sampled_from(["a", "b", "c", "7", "a b"]) | st.none(),
}


def described(frame: pd.DataFrame):
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)   # keeps the id column's type (integers, floats with NaN, text with None)
    return describe(read_table(buffer.getvalue(), name="ids.parquet"))


def expected_duplicates(frame: pd.DataFrame) -> tuple[int, tuple[int, ...]]:
    """(count, first 5 row numbers from 1) of rows whose (model, id, split) labels an earlier row had, id present."""
    ids = label_strings(frame["id"]).tolist()
    parts = [label_strings(frame[c]).fillna("").tolist() for c in ("model", "split") if c in frame]
    seen, rows = set(), []
    for i, key in enumerate(zip(*parts, ids)):
        if key in seen and ids[i] is not None:
            rows.append(i + 1)
        seen.add(key)
    return len(rows), tuple(rows[:5])


def expected_differ(frame: pd.DataFrame) -> str | None:
    ids = label_strings(frame["id"]).tolist()
    sets = {}
    for model, i in zip(label_strings(frame["model"]).tolist(), ids):
        sets.setdefault(model, set()).add(i)
    common = set.intersection(*sets.values())
    differing = [(m, len(s - common)) for m, s in sets.items() if len(s) != len(common)]
    if len(sets) < 2 or not differing:
        return None
    m, k = differing[0]
    return (f"the models cover different rows: model `{m}` has {k:,} id{'' if k == 1 else 's'} the others lack; "
            f"paired tests use the {len(common):,} ids all models share")


@st.composite
def id_frames(draw):
    kind = draw(st.sampled_from(sorted(ID_POOLS)))
    n = draw(st.integers(2, 40))
    ids = draw(st.lists(ID_POOLS[kind], min_size=n, max_size=n))
    models = draw(st.lists(st.sampled_from(["m1", "m2", "m3"]), min_size=n, max_size=n))
    frame = pd.DataFrame({"id": pd.Series(ids, dtype=object if kind == "text" else float if kind == "float" else int),
                          "model": models, "y_true": np.arange(n) % 2, "y_pred": (np.arange(n) // 2) % 2})
    if draw(st.booleans()):
        frame["split"] = draw(st.lists(st.sampled_from(["train", "test"]), min_size=n, max_size=n))
    return frame


@settings(max_examples=150)
@given(id_frames())
@example(pd.DataFrame({"id": [1, 2, 2, 1, 2, 3] * 2, "model": ["a"] * 3 + ["b"] * 3 + ["c"] * 6,
                       "y_true": [0, 1] * 6, "y_pred": [0, 1] * 6}))
@example(pd.DataFrame({"id": [1.0, np.nan, np.nan, 1.0], "model": ["a", "a", "b", "b"], "y_true": [0, 1] * 2,
                       "y_pred": [0, 1] * 2}))
def test_id_checks_on_codes_find_what_the_labels_find(frame):
    problems = {p.code: p for p in described(frame).problems}
    count, rows = expected_duplicates(frame)
    dup = problems.get("duplicate_id")
    assert (dup.count, dup.rows) == (count, rows) if count else dup is None
    differ = problems.get("models_differ")
    assert (differ.message if differ else None) == expected_differ(frame)


def test_id_codes_read_ids_as_labels():
    # 1.0 and 1 are one id (as label_strings writes them), a missing id is -1, and integers are never strings
    codes = id_codes(pd.Series([1.0, 2.0, np.nan, 1.0]))
    assert codes.tolist() == [0, 1, -1, 0]
    assert id_codes(pd.Series(["x", None, "y", "x"], dtype=object)).tolist() == [0, -1, 1, 0]
    assert id_codes(pd.Series(np.arange(5) * 1000)).dtype.kind == "i"


def test_the_checklist_compares_integer_ids_as_sets():
    """The report's checklist reads the kept integer ids as they are: the same 4 ids in another order would be the
    same set; 9 for 1 makes them different."""
    from assess.present.report.checklist import checklist

    frame = pd.DataFrame({"model": ["a"] * 4 + ["b"] * 4, "id": [1, 2, 3, 4, 4, 3, 2, 9], "y_true": [0, 1] * 4,
                          "y_pred": [0, 1, 1, 0] * 2})
    assessment = described(frame)
    assert assessment.predictions("a").ids.dtype.kind == "i"
    rows = {r.item.key: r.found for r in checklist(assessment, ["a", "b"])}
    assert rows["test_data"] == ("Checked: the models were scored on different sample ids (a: 4, b: 4), so they are "
                                 "compared as independent samples.")
