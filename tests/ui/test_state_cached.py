"""`ui.state.cached`: the store's key is the call itself, so a setting left out of a hand-written key can no longer
serve one setting's result for another."""

import pytest

from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from tests.conftest import ROOT
from ui import state

CALLS = []


def positives_at(assessment, model, threshold, *, weighted=False):
    """A stand-in for an `assess` computation: how many rows of ``model`` score at or above ``threshold``."""
    CALLS.append((model, threshold, weighted))
    return int((assessment.predictions(model).scores >= threshold).sum())


@pytest.fixture(scope="module")
def assessment():
    return describe(read_table(ROOT / "assets" / "samples" / "breast_cancer_binary.csv"))


def test_every_argument_is_part_of_the_key(assessment):
    CALLS.clear()
    model = assessment.models[0]
    first = state.cached(positives_at, assessment, model, 0.5)
    assert state.cached(positives_at, assessment, model, 0.5) == first          # served from the store
    other = state.cached(positives_at, assessment, model, 0.9)                  # a memo key without the threshold
    state.cached(positives_at, assessment, model, 0.5, weighted=True)           # ... or without a keyword
    assert CALLS == [(model, 0.5, False), (model, 0.9, False), (model, 0.5, True)]
    scores = assessment.predictions(model).scores
    assert (first, other) == (int((scores >= 0.5).sum()), int((scores >= 0.9).sum())) and first > other


def test_a_lambda_or_an_unhashable_argument_is_refused(assessment):
    with pytest.raises(TypeError, match="module-level function"):
        state.cached(lambda a: 1, assessment)
    with pytest.raises(TypeError, match="unhashable"):
        state.cached(positives_at, assessment, [assessment.models[0]], 0.5)


def rows_of(assessment, table):
    CALLS.append(table.name)
    return len(table.frame)


def test_a_read_table_is_keyed_by_its_content_not_its_identity(assessment):
    CALLS.clear()
    path = ROOT / "assets" / "samples" / "wine_multiclass.csv"
    first, again = read_table(path), read_table(path)       # two sessions reading one upload
    assert first is not again
    assert state.cached(rows_of, assessment, first) == state.cached(rows_of, assessment, again) == len(first.frame)
    assert CALLS == ["wine_multiclass.csv"]


def first_byte(assessment, data):
    CALLS.append(len(data))
    return data[:1]


def test_bytes_are_keyed_by_their_digest_and_not_kept_in_the_key(assessment, monkeypatch):
    """An upload's bytes (the Controls page's training ids) stand in the key as their SHA-256: two reads of one
    upload share a result, and the store's key does not hold the bytes (200 MB kept alive as long as the entry)."""
    CALLS.clear()
    data = b"id\n1\n2\n" * 1000
    assert state.cached(first_byte, assessment, data) == b"i"
    assert state.cached(first_byte, assessment, bytes(bytearray(data))) == b"i" and CALLS == [len(data)]

    keys = []

    class Recording:
        def get(self, key, compute, **_):
            keys.append(key)
            return compute()

    def leaves(node):
        return [x for item in node for x in leaves(item)] if isinstance(node, tuple) else [node]

    monkeypatch.setattr(state, "shared_results", Recording)
    state.cached(first_byte, assessment, data)
    assert not any(isinstance(leaf, bytes) for leaf in leaves(keys[0]))
