"""Parquet text columns read as dictionaries (assess.inputs.read._decode_dictionaries): the frame is the one a plain read
gives, and the label codes kept from the dictionary (LoadedTable.label_codes) are each row's label.

Oracles: pyarrow's plain ``read_table(...).to_pandas()`` for the frame; for the codes a per-row Python reading —
each present cell's text stripped, labels numbered in order of first appearance, -1 where missing.
"""

from __future__ import annotations

import io

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from hypothesis import example, given, settings
from hypothesis import strategies as st

from assess.inputs.read import MAX_KEPT_LABELS, read_table

CELLS = st.one_of(st.none(), st.sampled_from(["a", " a", "a ", "b", "B", "1", "1.0", "", "NA", "ü"]))


def _parquet(values: list, *, large: bool, row_group_size: int) -> bytes:
    table = pa.table({"model": pa.array(values, pa.large_string() if large else pa.string()),
                      "y_true": pa.array(np.arange(len(values)) % 2, pa.int8())})
    buf = io.BytesIO()
    pq.write_table(table, buf, row_group_size=row_group_size)
    return buf.getvalue()


def _per_row(values: list) -> tuple[list[int], tuple[str, ...]]:
    labels: dict[str, int] = {}
    codes = []
    for v in values:
        if v is None:
            codes.append(-1)
        else:
            codes.append(labels.setdefault(v.strip(), len(labels)))
    return codes, tuple(labels)


@settings(max_examples=60)
@given(values=st.lists(CELLS, min_size=1, max_size=40), large=st.booleans(), row_group_size=st.integers(1, 12))
@example(values=[None, None], large=False, row_group_size=1)          # no label at all
@example(values=["b", " a", "a", None, "b "], large=True, row_group_size=2)   # one dictionary per row group
def test_frame_as_a_plain_read_and_codes_per_row(values, large, row_group_size):
    data = _parquet(values, large=large, row_group_size=row_group_size)
    table = read_table(data, name="p.parquet")
    plain = pq.read_table(io.BytesIO(data)).to_pandas()
    assert table.frame.equals(plain)
    assert table.frame.dtypes.to_dict() == plain.dtypes.to_dict()
    codes, labels = table.label_codes("model")
    want_codes, want_labels = _per_row(values)
    assert codes.tolist() == want_codes
    assert labels == want_labels
    assert "model" in table.coded


def test_many_distinct_texts_keep_no_codes():
    values = [f"id{i}" for i in range(MAX_KEPT_LABELS + 1)]
    table = read_table(_parquet(values, large=False, row_group_size=500), name="ids.parquet")
    assert "model" not in table.coded
    codes, labels = table.label_codes("model")                # computed from the frame instead
    assert codes.tolist() == list(range(len(values))) and list(labels) == values


def test_a_large_column_with_missing_cells():
    """Past the first rows that decide most columns (assess.inputs.columns.HEAD_ROWS): missing cells, a label first seen
    at the end."""
    rng = np.random.default_rng(5)
    values = [None if r < 0.1 else ("model_a" if r < 0.6 else " model_b") for r in rng.random(70_000)] + ["late"]
    table = read_table(_parquet(values, large=False, row_group_size=20_000), name="big.parquet")
    codes, labels = table.label_codes("model")
    want_codes, want_labels = _per_row(values)
    assert codes.tolist() == want_codes and labels == want_labels
